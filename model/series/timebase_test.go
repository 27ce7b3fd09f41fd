package series

import (
	"context"
	"slices"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// openAny opens a recording of any format, closed when the test ends.
func openAny(t testing.TB, path string) bag.Storage {
	t.Helper()
	b, err := OpenStorage(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// halfClock is a /clock that starts at from (log time) and runs at half
// speed from sim time 100 s.
type halfClock struct{ from int64 }

func (c halfClock) At(t int64) (int64, bool) {
	if t < c.from {
		return 0, false
	}
	return 100e9 + (t-c.from)/2, true
}

// TestTimeBases checks each base's times, with an independent read of
// the same messages through the iterator, and that Locate finds every
// point's message again on it (as KeepIndex recorded it).
func TestTimeBases(t *testing.T) {
	for _, tc := range []struct {
		name  string
		path  string
		ref   FieldRef
		base  TimeBase
		clock bool
	}{
		{"publish mcap", "../../testdata/ros2-mixed.mcap", FieldRef{"/imu", "angular_velocity.y"}, PublishTime, false},
		{"publish ros1", multichunk, FieldRef{"/imu", "angular_velocity.y"}, PublishTime, false},
		{"clock ros1", multichunk, FieldRef{"/imu", "angular_velocity.y"}, ClockTime, true},
		{"clock mcap", "../../testdata/ros2-mixed.mcap", FieldRef{"/odom", "twist.twist.linear.x"}, ClockTime, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := openAny(t, tc.path)
			var cache rosmsg.Cache
			ctx := context.Background()
			req := Request{Fields: []FieldRef{tc.ref}, Base: tc.base}
			start, end := timeRange(b)
			var clock halfClock
			if tc.clock {
				// The first tenth of the recording has no sim time.
				clock = halfClock{start.Nanos() + (end.Nanos()-start.Nanos())/10}
				req.Clock = clock
			}
			set, err := Extract(ctx, b, &cache, req, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := set.Series[0]
			// The times the iterator gives, on the base, in order.
			var want []int64
			before := 0
			it := b.Messages(bag.MessageFilter{Topics: []string{tc.ref.Topic}})
			for it.Next() {
				m := it.Message()
				switch tc.base {
				case PublishTime:
					want = append(want, m.PublishTime.Nanos())
				case ClockTime:
					if st, ok := clock.At(m.Time.Nanos()); ok {
						want = append(want, st)
					} else {
						before++
					}
				}
			}
			it.Close()
			slices.Sort(want)
			if s.Len() != len(want) || s.BeforeClock != before {
				t.Fatalf("%d points, %d before the clock; want %d and %d", s.Len(), s.BeforeClock, len(want), before)
			}
			if tc.clock && before == 0 {
				t.Fatal("the case has no message before the clock")
			}
			for i := range want {
				if s.Time(i) != want[i] {
					t.Fatalf("point %d at %d, want %d", i, s.Time(i), want[i])
				}
			}
			req.KeepIndex = true
			withIdx, err := Extract(ctx, b, &cache, req, nil)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < s.Len(); i += max(1, s.Len()/50) {
				got, err := s.Locate(ctx, b, i)
				if err != nil {
					t.Fatalf("point %d: %v", i, err)
				}
				if w := withIdx.Series[0].Loc[i]; got != w {
					t.Fatalf("point %d: %+v, want %+v", i, got, w)
				}
			}
		})
	}
	t.Run("clock base without a clock", func(t *testing.T) {
		var cache rosmsg.Cache
		_, err := Extract(context.Background(), openAny(t, multichunk), &cache, Request{Fields: []FieldRef{{"/imu", "angular_velocity.y"}}, Base: ClockTime}, nil)
		if err == nil {
			t.Fatal("no error")
		}
	})
}
