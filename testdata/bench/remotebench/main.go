// Command remotebench computes, from a local copy of a recording, what the
// remote benchmark (testdata/bench/remote.sh) compares bagscope's fetches
// with:
//
//	remotebench window FILE TOPIC FROM TO
//
// prints the number and bytes of the chunks holding TOPIC's messages
// between FROM and TO seconds from the recording's start: what a plot of
// that window must fetch at least. For a .db3 (which has no chunks) it
// prints the pages SQLite itself reads to answer the query of the window
// (the index's and the table's leaf, interior and overflow pages that hold
// it; bag/db3/db3test.PagesRead) and their bytes.
package main

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag"
	_ "github.com/bagscope/bagscope/bag/db3"
	"github.com/bagscope/bagscope/bag/db3/db3test"
	_ "github.com/bagscope/bagscope/bag/mcap"
	_ "github.com/bagscope/bagscope/bag/ros1"
	_ "github.com/bagscope/bagscope/bag/rosbag2"
)

func main() {
	if len(os.Args) != 6 || os.Args[1] != "window" {
		fmt.Fprintln(os.Stderr, "usage: remotebench window FILE TOPIC FROM TO")
		os.Exit(2)
	}
	from, err1 := strconv.ParseFloat(os.Args[4], 64)
	to, err2 := strconv.ParseFloat(os.Args[5], 64)
	if err1 != nil || err2 != nil {
		fmt.Fprintln(os.Stderr, "remotebench: FROM and TO are seconds")
		os.Exit(2)
	}
	s, err := bag.Open(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, "remotebench:", err)
		os.Exit(1)
	}
	defer s.Close()
	sum, err := s.Summary()
	if err != nil && sum == nil {
		fmt.Fprintln(os.Stderr, "remotebench:", err)
		os.Exit(1)
	}
	conns := map[uint32]bool{}
	for _, c := range s.Connections() {
		if c.Topic == os.Args[3] {
			conns[c.ID] = true
		}
	}
	lo := sum.Start.Nanos() + int64(from*1e9)
	hi := sum.Start.Nanos() + int64(to*1e9)
	if strings.HasSuffix(os.Args[2], ".db3") {
		n, bytes, err := db3test.PagesRead(os.Args[2], db3test.WindowQuery, os.Args[3], lo, hi)
		if err != nil {
			fmt.Fprintln(os.Stderr, "remotebench:", err)
			os.Exit(1)
		}
		fmt.Printf("%d %d\n", n, bytes)
		return
	}
	var n int
	var bytes int64
	for _, b := range s.Blocks() {
		if b.End.Nanos() < lo || b.Start.Nanos() > hi {
			continue
		}
		holds := false
		for id, c := range b.Counts {
			if conns[id] && c > 0 {
				holds = true
			}
		}
		if holds {
			n++
			bytes += b.Len
		}
	}
	fmt.Printf("%d %d\n", n, bytes)
}
