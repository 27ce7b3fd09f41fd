// Command findbench is the reference side of find's benchmark: the payload
// pass of `bagscope check` (every message decoded against its definition,
// rosmsg.Plan.Validate, on the goroutines that decompress the chunks:
// bag.VisitMessages, as model.CheckPayloads does) restricted to the topics
// find searches, so that `bagscope find FILE EXPR` can be timed against the
// decoding pass of check on the same topics. It prints the messages
// decoded and the findings. With -find EXPR it runs find's engine
// (query.Find) instead, for profiles.
//
//	go run ./testdata/bench/findbench -topics /imu FILE
//	go run ./testdata/bench/findbench -find '/imu.linear_acceleration.z > 12' -cpuprofile cpu.out FILE
//	go run ./testdata/bench/findbench -doctor -find '/imu.linear_acceleration.z > 12' -cpuprofile cpu.out FILE
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"sync/atomic"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/query"
)

func main() {
	topics := flag.String("topics", "", "comma-separated topics (default: all)")
	find := flag.String("find", "", "run query.Find with this expression instead")
	doctor := flag.Bool("doctor", false, "with -find: search in the quick doctor's pass, as `bagscope find` does")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	if *cpuprofile != "" {
		pf, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		pprof.StartCPUProfile(pf)
		defer pprof.StopCPUProfile()
	}
	s, err := model.OpenStorage(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	defer s.Close()
	var f bag.MessageFilter
	if *topics != "" {
		f.Topics = strings.Split(*topics, ",")
	}
	if *find != "" {
		res, err := query.Find(context.Background(), s, *find, f, query.Options{Doctor: *doctor})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		fmt.Println(res.Messages, "messages searched,", len(res.Hits), "hits")
		return
	}
	pc := model.NewPayloadCheck(s)
	var n atomic.Int64
	err = bag.VisitMessages(context.Background(), s, f, func(m *bag.Message) {
		n.Add(1)
		pc.Visit(m)
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(n.Load(), "messages decoded,", len(pc.Findings()), "findings")
}
