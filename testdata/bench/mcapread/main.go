// Command mcapread is the benchmark's peer for MCAP reading: the mcap Go
// library's own indexed reader reading (not decoding) every message of a
// file, in log-time order, printing the count and the payload bytes.
//
//	go run ./testdata/bench/mcapread FILE.mcap
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/foxglove/mcap/go/mcap"
)

func main() {
	f, err := os.Open(os.Args[1])
	if err != nil {
		fail(err)
	}
	defer f.Close()
	r, err := mcap.NewReader(f)
	if err != nil {
		fail(err)
	}
	it, err := r.Messages(mcap.UsingIndex(true), mcap.InOrder(mcap.LogTimeOrder))
	if err != nil {
		fail(err)
	}
	var n, bytes int
	var msg mcap.Message
	for {
		_, _, m, err := it.NextInto(&msg)
		if err == io.EOF {
			break
		}
		if err != nil {
			fail(err)
		}
		n++
		bytes += len(m.Data)
	}
	fmt.Println(n, "messages,", bytes, "bytes")
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "mcapread:", err)
	os.Exit(1)
}
