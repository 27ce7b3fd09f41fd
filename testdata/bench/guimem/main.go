// Command guimem measures the memory the window's model needs for a bag:
// it opens the bag as the window does (model.Open), builds what the tabs
// build (the record index of the Records tab, the timeline, the message
// index the linked views use), then "scrolls" the Records tab: reads the
// header of every record and opens one chunk in ten as the hex view does
// (model.ReadChunkRecords). It prints the peak RSS (VmHWM) and the peak Go
// heap, sampled every 5 ms, after each step. No window: the Fyne part of
// the GUI's memory is measured separately (BENCHMARKS.md, xvfb-run).
//
//	go run ./testdata/bench/guimem ../bench/images.bag
package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: guimem BAG")
		os.Exit(2)
	}
	var mu sync.Mutex
	var peakHeap uint64
	stop := make(chan struct{})
	go func() {
		var ms runtime.MemStats
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			mu.Lock()
			peakHeap = max(peakHeap, ms.HeapInuse)
			mu.Unlock()
		}
	}()
	ctx := context.Background()
	start := time.Now()
	report := func(step string) {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		mu.Lock()
		peakHeap = max(peakHeap, ms.HeapInuse)
		ph := peakHeap
		mu.Unlock()
		fmt.Printf("%-34s %7.0f ms  heap in use %6.1f MB  peak heap %6.1f MB  RSS %6.1f MB  peak RSS %6.1f MB\n",
			step, float64(time.Since(start).Microseconds())/1e3, mb(ms.HeapInuse), mb(ph), kb(status("VmRSS")), kb(status("VmHWM")))
	}
	report("start")

	d, err := model.Open(ctx, os.Args[1], nil)
	check(err)
	defer d.Close()
	report("model.Open")

	tl := model.BuildTimeline(d)
	report("model.BuildTimeline")

	// The Records tab's index and chunk reads are the ROS 1 bag's; other
	// formats measure the message index only.
	var ri *model.RecordIndex
	if d.Bag != nil {
		ri, err = model.BuildRecordIndex(ctx, d.Bag, nil)
		check(err)
		report(fmt.Sprintf("model.BuildRecordIndex (%d)", ri.Len()))
	}

	mi, err := model.BuildMessageIndex(ctx, d.Storage, nil)
	check(err)
	report(fmt.Sprintf("model.BuildMessageIndex (%d)", mi.Count()))
	indexBytes := 0
	for _, t := range mi.Topics {
		indexBytes += t.Bytes()
	}
	fmt.Printf("  message index: %.1f MB, %.2f bytes a message\n", mb(uint64(indexBytes)), float64(indexBytes)/float64(max(mi.Count(), 1)))

	_, err = model.ComputeStats(ctx, mi)
	check(err)
	report("model.ComputeStats")

	chunks, seen := 0, 0
	for i := 0; ri != nil && i < ri.Len(); i++ {
		rec, err := ri.Record(i)
		check(err)
		if rec.Op == ros1.OpChunk && seen%10 == 0 {
			cr, err := model.ReadChunkRecords(ctx, d.Bag, rec.Offset)
			check(err)
			if cr.Len() > 0 {
				_, err = cr.Record(cr.Len() - 1)
				check(err)
			}
			chunks++
		}
		if rec.Op == ros1.OpChunk {
			seen++
		}
	}
	report(fmt.Sprintf("records read, %d chunks opened", chunks))
	runtime.GC()
	report("after a GC (what stays)")
	runtime.KeepAlive(tl)
	runtime.KeepAlive(mi)
	close(stop)
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "guimem:", err)
		os.Exit(1)
	}
}

func mb(b uint64) float64 { return float64(b) / (1 << 20) }
func kb(k int64) float64  { return float64(k) / 1024 }

// status returns a "kB" field of /proc/self/status.
func status(key string) int64 {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if v, ok := strings.CutPrefix(s.Text(), key+":"); ok {
			var n int64
			fmt.Sscanf(strings.TrimSpace(v), "%d", &n)
			return n
		}
	}
	return 0
}
