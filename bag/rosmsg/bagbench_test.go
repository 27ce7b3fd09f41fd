package rosmsg_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// benchBags are the bags the decoding benchmarks read: a fixture always,
// and the large bags from ../shared/tools/gen_bench_bags.py when
// BAGSCOPE_BENCH_DIR (default ../../../bench) holds them.
func benchBags() []string {
	dir := os.Getenv("BAGSCOPE_BENCH_DIR")
	if dir == "" {
		dir = "../../../bench"
	}
	out := []string{"../../testdata/lz4-multichunk.bag"}
	for _, n := range []string{"mixed.bag", "mixed_lz4.bag"} {
		if _, err := os.Stat(filepath.Join(dir, n)); err == nil {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}

// BenchmarkDecodeBag decodes every message of a bag into a value tree.
func BenchmarkDecodeBag(b *testing.B) {
	for _, p := range benchBags() {
		b.Run(filepath.Base(p), func(b *testing.B) {
			bg, err := ros1.Open(p)
			if err != nil {
				b.Fatal(err)
			}
			defer bg.Close()
			var cache rosmsg.Cache
			b.ReportAllocs()
			n := 0
			for b.Loop() {
				it := bg.Messages(ros1.MessageFilter{})
				for it.Next() {
					m := it.Message()
					plan, err := cache.Get(m.Conn.Type, m.Conn.MD5Sum, m.Conn.MessageDefinition)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := plan.Decode(m.Data); err != nil {
						b.Fatal(err)
					}
					n++
				}
				if err := it.Err(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}

// BenchmarkExtractBag extracts /imu.linear_acceleration.x from every /imu
// message of a bag with a compiled path.
func BenchmarkExtractBag(b *testing.B) {
	for _, p := range benchBags() {
		b.Run(filepath.Base(p), func(b *testing.B) {
			bg, err := ros1.Open(p)
			if err != nil {
				b.Fatal(err)
			}
			defer bg.Close()
			conns := bg.SelectConnections(ros1.MessageFilter{Topics: []string{"/imu"}})
			if len(conns) == 0 {
				b.Skip("no /imu topic")
			}
			c := conns[0]
			plan, err := rosmsg.Compile(c.Type, c.MessageDefinition)
			if err != nil {
				b.Fatal(err)
			}
			path, err := rosmsg.CompilePath(plan, "linear_acceleration.x")
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			n := 0
			sum := 0.0
			for b.Loop() {
				it := bg.Messages(ros1.MessageFilter{Topics: []string{"/imu"}})
				for it.Next() {
					v, err := path.Float64(it.Message().Data)
					if err != nil {
						b.Fatal(err)
					}
					sum += v
					n++
				}
				if err := it.Err(); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)/b.Elapsed().Seconds(), "msgs/s")
			_ = sum
		})
	}
}
