// Command guimem measures the memory the window's model needs for a bag:
// it opens the bag as the window does (model.Open), builds what the tabs
// build (the record list of the Records tab, the timeline, the message
// index the linked views use), then "scrolls" the Records tab: reads the
// fields of every record and opens one chunk in ten as the hex view does
// (model.ReadInnerRecords). With --plot it first extracts each plot's
// fields as the window does (one extraction a field, all at once, compact
// times shared by the fields of a topic; --plain keeps 8-byte times as
// before) and prints the bytes a point. It prints the peak RSS (VmHWM) and
// the peak Go heap, sampled every 5 ms, after each step. No window: the
// Fyne part of the GUI's memory is measured separately (BENCHMARKS.md,
// xvfb-run).
//
//	go run ./testdata/bench/guimem ../bench/images.bag
//	go run ./testdata/bench/guimem --plot /imu.linear_acceleration.x,/imu.angular_velocity.z ../bench/mixed_5m.bag
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/series"
	timecol "github.com/bagscope/bagscope/plot/column"
)

type plotFlags []string

func (p *plotFlags) String() string     { return strings.Join(*p, " ") }
func (p *plotFlags) Set(v string) error { *p = append(*p, v); return nil }

func main() {
	var plots plotFlags
	flag.Var(&plots, "plot", "extract these comma-separated fields as one plot (repeatable)")
	plain := flag.Bool("plain", false, "keep the plots' times as plain int64 (as before the compact column)")
	maxPoints := flag.Int("max-points", 1<<17, "reduce a plotted field with more messages to this many points (the window's plotMaxPoints; 0 keeps every point)")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: guimem [--plot FIELD,...]... [--plain] [--max-points N] BAG")
		os.Exit(2)
	}
	bagPath := flag.Arg(0)
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

	d, err := model.Open(ctx, bagPath, nil)
	check(err)
	defer d.Close()
	report("model.Open")

	tl := model.BuildTimeline(d)
	report("model.BuildTimeline")

	// The Records tab's list and chunk reads, for every format that
	// lists its records.
	var ri *model.FileRecords
	if l := model.Lister(d.Storage); l != nil {
		ri, err = model.BuildFileRecords(ctx, l, d.Size, nil)
		check(err)
		report(fmt.Sprintf("model.BuildFileRecords (%d)", ri.Len()))
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

	var series []*series.Series
	if len(plots) > 0 {
		series = extractPlots(ctx, d, plots, !*plain, *maxPoints)
		var bytes, points int
		shared := map[*timecol.Times]bool{}
		for _, s := range series {
			points += s.Points
			bytes += 8*cap(s.V) + 8*cap(s.T)
			if s.C != nil && !shared[s.C] {
				shared[s.C] = true
				bytes += s.C.Bytes()
			}
		}
		kept := 0
		for _, s := range series {
			kept += s.Len()
		}
		fmt.Printf("  plots: %d series, %d points, %d kept, %.1f MB, %.2f bytes a kept point\n", len(series), points, kept, mb(uint64(bytes)), float64(bytes)/float64(max(kept, 1)))
		report("plots extracted")
	}

	chunks, seen := 0, 0
	for i := 0; ri != nil && i < ri.Len(); i++ {
		rec := ri.Record(i)
		if rec.Kind == "chunk" && seen%10 == 0 {
			in, err := model.ReadInnerRecords(ctx, d.Storage, rec.Offset)
			check(err)
			if in.Len() > 0 {
				_ = in.Record(in.Len() - 1)
			}
			chunks++
		}
		if rec.Kind == "chunk" {
			seen++
		}
	}
	report(fmt.Sprintf("records read, %d chunks opened", chunks))
	runtime.GC()
	report("after a GC (what stays)")
	runtime.KeepAlive(tl)
	runtime.KeepAlive(mi)
	runtime.KeepAlive(series)
	close(stop)
}

// extractPlots extracts every field as the window does: one extraction a
// field, all running at once, and a field's compact times shared with an
// earlier field of its topic when they are equal.
func extractPlots(ctx context.Context, d *model.Document, plots []string, compact bool, maxPoints int) []*series.Series {
	var refs []series.FieldRef
	for _, p := range plots {
		for _, f := range strings.Split(p, ",") {
			// TOPIC.FIELD, the topic without dots (as the benchmark bags').
			topic, path, ok := strings.Cut(strings.TrimPrefix(f, "/"), ".")
			if !ok {
				check(fmt.Errorf("%s: want TOPIC.FIELD", f))
			}
			refs = append(refs, series.FieldRef{Topic: "/" + topic, Path: path})
		}
	}
	out := make([][]*series.Series, len(refs))
	var wg sync.WaitGroup
	for i, ref := range refs {
		wg.Go(func() {
			var cache rosmsg.Cache
			set, err := series.Extract(ctx, d.Storage, &cache, series.Request{Fields: []series.FieldRef{ref}, Compact: compact, MaxPoints: maxPoints}, nil)
			check(err)
			out[i] = set.Series
		})
	}
	wg.Wait()
	var all []*series.Series
	for _, set := range out {
		for _, s := range set {
			for _, o := range all {
				if s.C != nil && o.C != nil && o.Ref.Topic == s.Ref.Topic && o.C.Equal(s.C) {
					s.C = o.C
					break
				}
			}
			all = append(all, s)
		}
	}
	return all
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
