package ros1

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
		dir = "../../../bench"
	}
	out := []string{"../../testdata/none-multichunk.bag", "../../testdata/bz2-multichunk.bag", "../../testdata/lz4-multichunk.bag"}
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

// benchRead opens p and reads the messages f selects, b.N times,
// reporting messages and payload bytes per second.
func benchRead(b *testing.B, p string, f MessageFilter) {
	bg, err := Open(p)
	if err != nil {
		b.Fatal(err)
	}
	defer bg.Close()
	b.SetBytes(bg.Size())
	b.ReportAllocs()
	var n, bytes int
	for b.Loop() {
		n, bytes = 0, 0
		it := bg.Messages(f)
		for it.Next() {
			n++
			bytes += len(it.Message().Data)
		}
		if err := it.Err(); err != nil {
			b.Fatal(err)
		}
	}
	s := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(float64(n)/s, "msgs/s")
	b.ReportMetric(float64(bytes)/s/1e6, "payloadMB/s")
}

// BenchmarkMessages measures reading every message's bytes in time order.
func BenchmarkMessages(b *testing.B) {
	for _, p := range benchBags(b) {
		b.Run(filepath.Base(p), func(b *testing.B) { benchRead(b, p, MessageFilter{}) })
	}
}

// BenchmarkCheck measures the doctor over a whole bag, in MB/s of the file.
func BenchmarkCheck(b *testing.B) {
	for _, p := range benchBags(b) {
		b.Run(filepath.Base(p), func(b *testing.B) {
			f, err := os.Open(p)
			if err != nil {
				b.Fatal(err)
			}
			defer f.Close()
			st, err := f.Stat()
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				rep, err := Check(f, st.Size())
				if err != nil || rep.Errors() > 0 {
					b.Fatalf("check: %v, %d errors", err, rep.Errors())
				}
			}
			b.ReportMetric(float64(st.Size())*float64(b.N)/b.Elapsed().Seconds()/1e6, "MB/s")
		})
	}
}
