// Command ros2decode is the benchmark's bagscope side for "every message
// read and decoded": it opens a recording through the storage seam, reads
// every message in time order and decodes each against its definition
// (rosmsg.Plan.Validate: the whole message walked, no tree built), then
// prints the count. With -read it only reads, like the mcap library's peer.
// With -check it runs the payload pass of `bagscope check` instead
// (model.CheckPayloads: every message decoded the same way, on the goroutines
// that decompress the chunks, in no particular order) and prints the
// findings' count.
//
//	go run ./testdata/bench/ros2decode [-read|-check] [-cpuprofile FILE] FILE
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
)

func main() {
	readOnly := flag.Bool("read", false, "read without decoding")
	check := flag.Bool("check", false, "decode every message as bagscope check does (model.CheckPayloads)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		defer pprof.StopCPUProfile()
	}
	s, err := model.OpenStorage(flag.Arg(0))
	if err != nil {
		fail(err)
	}
	defer s.Close()
	if *check {
		fs, err := model.CheckPayloads(context.Background(), s)
		if err != nil {
			fail(err)
		}
		fmt.Println(len(fs), "findings")
		if len(fs) > 0 {
			os.Exit(1)
		}
		return
	}
	plans := map[uint32]*rosmsg.Plan{}
	var cache rosmsg.Cache
	for _, c := range s.Connections() {
		if p, err := model.PlanFor(&cache, c); err == nil {
			plans[c.ID] = p
		}
	}
	it := s.Messages(bag.MessageFilter{})
	defer it.Close()
	var n, bytes, bad int
	for it.Next() {
		m := it.Message()
		n++
		bytes += len(m.Data)
		if *readOnly {
			continue
		}
		if p := plans[m.Conn.ID]; p == nil || p.Validate(m.Data) != nil {
			bad++
		}
	}
	if err := it.Err(); err != nil {
		fail(err)
	}
	fmt.Println(n, "messages,", bytes, "bytes,", bad, "not decoded")
	if bad > 0 {
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "ros2decode:", err)
	os.Exit(1)
}
