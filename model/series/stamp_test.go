package series

import (
	"context"
	"testing"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// TestStampROS2 reads header.stamp of ROS 2 messages (builtin_interfaces/
// Time: sec, nanosec) on the stamp time base and for the latency series.
// The first /imu message of ros2-mixed.mcap is stamped 1600000000.001792008
// and received at 1600000000.003400962 (as mcap_cat.mjs decodes it; the
// plot command's tests compare every point with it).
func TestStampROS2(t *testing.T) {
	b, err := OpenStorage("../../testdata/ros2-mixed.mcap")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	const stamp, recv = 1600000000001792008, 1600000000003400962
	tests := []struct {
		name  string
		path  string
		base  TimeBase
		wantT int64
		wantV float64
	}{
		{"stamp base", "/imu.header.stamp.nanosec", HeaderStamp, stamp, 1792008},
		{"latency", "/imu.@latency", ReceiveTime, recv, float64(stamp-recv) / 1e9},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var cache rosmsg.Cache
			ref, err := ResolveField(b, &cache, tc.path)
			if err != nil {
				t.Fatal(err)
			}
			set, err := Extract(context.Background(), b, &cache, Request{Fields: []FieldRef{ref}, Base: tc.base}, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := set.Series[0]
			if len(s.T) != 2000 || s.Missing != 0 || s.T[0] != tc.wantT || s.V[0] != tc.wantV {
				t.Fatalf("%d points, %d missing, first (%d, %v); want 2000, 0, (%d, %v)", len(s.T), s.Missing, s.T[0], s.V[0], tc.wantT, tc.wantV)
			}
		})
	}
}
