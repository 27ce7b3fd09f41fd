package series

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// BenchmarkExtractSeries measures one-field extraction in messages per
// second on the fixtures and, if present, the benchmark bags (benchDir).
func BenchmarkExtractSeries(b *testing.B) {
	dir, _ := benchDir()
	cases := []struct{ name, path, ref string }{
		{"none-multichunk", multichunk, "/imu.linear_acceleration.x"},
		{"lz4-multichunk", "../../testdata/lz4-multichunk.bag", "/imu.linear_acceleration.x"},
		{"test2", "../../../shared/bags/cra-ros-pkg__robot_localization/test/test2.bag", "/imu/data.linear_acceleration.x"},
		{"mixed", filepath.Join(dir, "mixed.bag"), "/imu.linear_acceleration.x"},
		{"mixed_lz4", filepath.Join(dir, "mixed_lz4.bag"), "/imu.linear_acceleration.x"},
	}
	for _, tc := range cases {
		b.Run(tc.name, func(b *testing.B) {
			if _, err := os.Stat(tc.path); err != nil {
				b.Skip(err)
			}
			bg := openBag(b, tc.path)
			var cache rosmsg.Cache
			ref, err := ResolveField(bg, &cache, tc.ref)
			if err != nil {
				b.Fatal(err)
			}
			var msgs int64
			b.ReportAllocs()
			for b.Loop() {
				set, err := Extract(context.Background(), bg, &cache, Request{Fields: []FieldRef{ref}}, nil)
				if err != nil {
					b.Fatal(err)
				}
				msgs += set.Messages
			}
			b.ReportMetric(float64(msgs)/b.Elapsed().Seconds(), "msgs/s")
		})
	}
}
