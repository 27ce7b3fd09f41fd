package diag

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/diag/diagtest"
)

// longSpec is a long recording of many statuses: 60 statuses over 1,000 s
// of /diagnostics at 2 Hz, each reporting every few messages, some only
// at the start (the last report long before most times), some only late,
// one once, levels changing; and /diagnostics_agg at 0.1 Hz.
func longSpec() []diagtest.Message {
	var out []diagtest.Message
	const n = 2000
	for i := 0; i < n; i++ {
		t := diagtest.Start + int64(i)*500_000_000
		var sts []diagtest.StatusSpec
		for k := 0; k < 60; k++ {
			every := k%7 + 1
			switch {
			case k%10 == 3 && i > 40: // stopped early
				continue
			case k%10 == 7 && i < n-100: // starts late
				continue
			case k == 59 && i != 5: // reported once
				continue
			case i%every != 0:
				continue
			}
			lv := uint8((i / (50 + k)) % 4)
			sts = append(sts, diagtest.StatusSpec{Level: lv, Name: fmt.Sprintf("node_%02d: sensor", k), HardwareID: fmt.Sprintf("hw%d", k%5),
				Message: fmt.Sprintf("report %d", i), Values: [][2]string{{"i", fmt.Sprint(i)}, {"k", fmt.Sprint(k)}}})
		}
		if len(sts) > 0 {
			out = append(out, diagtest.Message{Topic: "/diagnostics", TimeNS: t, StampNS: t, Statuses: sts})
		}
		if i%20 == 10 {
			out = append(out, diagtest.Message{Topic: "/diagnostics_agg", TimeNS: t + 1, StampNS: t,
				Statuses: []diagtest.StatusSpec{{Level: uint8(i / 20 % 3), Name: "/Robot", Message: fmt.Sprint(i), Values: [][2]string{}}}})
		}
	}
	return out
}

// TestTableFromIndexEqualsFromStart reads the table at many times (on a
// report, a nanosecond either side, bucket boundaries, before the first
// report, after the end) with the history's per-status index, which reads
// only the buckets holding each status's latest report, and compares it
// row for row with the read from the start; on the generated long
// recording (statuses that stopped long before, started late, reported
// once) and the shorter one, ROS 1 (rosbag) and ROS 2 (the MCAP oracle
// writer). It logs the messages each way reads.
func TestTableFromIndexEqualsFromStart(t *testing.T) {
	long := longSpec()
	for _, tc := range []struct {
		name string
		path func(t *testing.T) string
	}{
		{"long ROS 1", func(t *testing.T) string { return diagtest.Bag(t, long) }},
		{"long ROS 2", func(t *testing.T) string { return diagtest.MCAP(t, long) }},
		{"short ROS 1", func(t *testing.T) string { return diagtest.Bag(t, diagtest.Spec()) }},
		{"short ROS 2", func(t *testing.T) string { return diagtest.MCAP(t, diagtest.Spec()) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := open(t, tc.path(t))
			h, err := ReadHistory(context.Background(), st, Options{})
			if err != nil {
				t.Fatal(err)
			}
			s, e := h.index.start, h.End
			times := []int64{s - 1, s, s + 1, e, e + 1, e + 1e9}
			for k := int64(1); k < 20; k++ {
				at := s + (e-s)*k/20
				times = append(times, at, at-1, at+1, at+250_000_000)
			}
			for b := int64(1); b < indexBuckets; b += 409 {
				lo := s + b*h.index.width
				times = append(times, lo-1, lo)
			}
			var fromStart, fromIndex uint64
			var bStart, bWindow, bIndex int64
			for _, at := range times {
				want, err := TableAt(context.Background(), st, nil, bag.TimeFromNanos(at), Options{})
				if err != nil {
					t.Fatal(err)
				}
				got, err := TableAt(context.Background(), st, h, bag.TimeFromNanos(at), Options{})
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(got.Rows, want.Rows) {
					t.Fatalf("at +%.9fs: %d rows from the index, %d from the start:\n got %v\nwant %v", float64(at-s)/1e9, len(got.Rows), len(want.Rows), got.Rows, want.Rows)
				}
				fromStart += want.Messages
				fromIndex += got.Messages
				ranges := h.ReadRanges(at)
				bStart += payload(t, st, [][2]int64{{0, at}})
				bWindow += payload(t, st, [][2]int64{{h.WindowStart(at), at}})
				bIndex += payload(t, st, ranges)
			}
			t.Logf("%d times, %d statuses: %d diagnostics messages read from the start, %d from the index; payload bytes: %d from the start, %d from WindowStart (the window's read before), %d from the index",
				len(times), len(h.Tracks), fromStart, fromIndex, bStart, bWindow, bIndex)
			if fromIndex == 0 || (len(long) > 100 && tc.name[:4] == "long" && fromIndex*4 > fromStart) {
				t.Errorf("the index read %d messages, the read from the start %d", fromIndex, fromStart)
			}
		})
	}
}

// payload is the bytes of the diagnostics messages received in the
// ranges (nanoseconds, inclusive).
func payload(t *testing.T, st bag.Storage, ranges [][2]int64) int64 {
	t.Helper()
	var n int64
	for _, r := range ranges {
		if r[1] <= 0 {
			continue
		}
		it := st.Messages(bag.MessageFilter{Conns: Connections(st), Start: bag.TimeFromNanos(max(r[0], 0)), End: bag.TimeFromNanos(r[1])})
		for it.Next() {
			n += int64(len(it.Message().Data))
		}
		if err := it.Err(); err != nil {
			t.Fatal(err)
		}
		it.Close()
	}
	return n
}
