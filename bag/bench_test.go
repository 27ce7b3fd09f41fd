package bag

import (
	"os"
	"path/filepath"
	"testing"
)

// benchBags returns the benchmark bags: the fixtures always, and the large
// bags made by ../shared/tools/gen_bench_bags.py when BAGSCOPE_BENCH_DIR
// (default ../../bench, beside the checkout) holds them.
func benchBags(b *testing.B) []string {
	dir := os.Getenv("BAGSCOPE_BENCH_DIR")
	if dir == "" {
		dir = "../../bench"
	}
	out := []string{"../testdata/none-multichunk.bag", "../testdata/bz2-multichunk.bag", "../testdata/lz4-multichunk.bag"}
	for _, n := range []string{"mixed.bag", "mixed_lz4.bag", "mixed_bz2.bag", "images.bag"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}

// BenchmarkOpen measures opening a bag: version, bag header, index section.
func BenchmarkOpen(b *testing.B) {
	for _, p := range benchBags(b) {
		b.Run(filepath.Base(p), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				bg, err := Open(p)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := bg.Summary(); err != nil {
					b.Fatal(err)
				}
				bg.Close()
			}
		})
	}
}

// BenchmarkMessages measures reading every message's bytes in time order.
func BenchmarkMessages(b *testing.B) {
	for _, p := range benchBags(b) {
		b.Run(filepath.Base(p), func(b *testing.B) {
			bg, err := Open(p)
			if err != nil {
				b.Fatal(err)
			}
			defer bg.Close()
			b.SetBytes(bg.Size())
			b.ReportAllocs()
			var n int
			for b.Loop() {
				n = 0
				it := bg.Messages(MessageFilter{})
				for it.Next() {
					n++
				}
				if err := it.Err(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}
