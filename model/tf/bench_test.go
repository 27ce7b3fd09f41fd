package tf

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
)

// BenchmarkTimeMove is what a move of the current time costs the TF and
// 3D tabs on $BAGSCOPE_BENCH_DIR/mixed.bag (400,000 /tf messages, 1M
// transforms): Read reads every transform message again (before issue
// 26's history); History looks the tree up in the history, held whole;
// Windowed with every frame past the history's bound, read from a window
// around the time. Build is the history's one read. Times move through
// the recording, 37 s a move. Where mixed.bag is not (make test runs each
// benchmark once with BAGSCOPE_BENCH_DIR=/nonexistent), it runs on the
// fixture testdata/tf.bag, so that it keeps working.
func BenchmarkTimeMove(b *testing.B) {
	path := filepath.Join(os.Getenv("BAGSCOPE_BENCH_DIR"), "mixed.bag")
	if _, err := os.Stat(path); os.Getenv("BAGSCOPE_BENCH_DIR") == "" || err != nil {
		path = filepath.Join("..", "..", "testdata", "tf.bag")
	}
	st, err := model.OpenStorage(path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	start, end := model.TimeRange(st)
	span := end.Nanos() - start.Nanos()
	at := func(i int) bag.Time { return bag.TimeFromNanos(start.Nanos() + int64(i)*37e9%span) }
	ctx := context.Background()
	b.Run("Read", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := Read(ctx, st, at(i), Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	var h *History
	b.Run("Build", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if h, err = BuildHistory(ctx, st, HistoryOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		b.ReportMetric(float64(h.Bytes())/(1<<20), "MiB-held")
		b.ReportMetric(float64(ms.HeapAlloc)/(1<<20), "MiB-heap")
	})
	b.Run("History", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := h.TreeAt(ctx, at(i)); err != nil {
				b.Fatal(err)
			}
		}
	})
	w, err := BuildHistory(ctx, st, HistoryOptions{MaxSamples: 1})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Windowed", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := w.TreeAt(ctx, at(i)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
