// Command guimem_repeat makes a bag with many messages out of a smaller one:
// it writes the input's messages N times, each copy shifted in time to
// follow the previous one (by the input's span rounded up to a whole
// second), with the input's connections and bagscope's ROS 1 writer
// (uncompressed chunks of the reference writer's 768 KB). It is what
// BENCHMARKS.md's "GUI memory and the message count" measures on:
//
//	go run ./testdata/bench/guimem_repeat -n 5 ../bench/mixed.bag ../bench/mixed_5m.bag
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/bagscope/bagscope/bag/ros1"
)

func main() {
	n := flag.Int("n", 5, "copies of the input's messages")
	flag.Parse()
	if flag.NArg() != 2 || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: guimem_repeat [-n 5] IN.bag OUT.bag")
		os.Exit(2)
	}
	in, err := ros1.Open(flag.Arg(0))
	check(err)
	defer in.Close()
	start, end := in.TimeRange()
	span := (end.Nanos() - start.Nanos() + 1e9) / 1e9 * 1e9

	f, err := os.Create(flag.Arg(1))
	check(err)
	w, err := ros1.NewWriter(f, ros1.WriterOptions{})
	check(err)
	for _, c := range in.Connections {
		check(w.AddConnection(c))
	}
	count := 0
	for k := range *n {
		it := in.Messages(ros1.MessageFilter{})
		for it.Next() {
			m := it.Message()
			t := ros1.TimeFromNanos(m.Time.Nanos() + int64(k)*span)
			check(w.WriteMessage(m.Conn.ID, t, m.Data))
			count++
		}
		check(it.Err())
		it.Close()
	}
	check(w.Close())
	check(f.Close())
	fmt.Printf("%s: %d messages, %d copies of %s shifted by %d s\n", flag.Arg(1), count, *n, flag.Arg(0), span/1e9)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "guimem_repeat:", err)
		os.Exit(1)
	}
}
