package model

import (
	"context"
	"sort"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

// TestTimelineCountsMatchIterator checks the exact density lanes of every
// shared bag against the message iterator: for the whole bag and for a
// zoomed-in window, each bin holds exactly the messages whose receive
// times fall between its edges.
func TestTimelineCountsMatchIterator(t *testing.T) {
	paths := append([]string{"../testdata/lz4-multichunk.bag", "../testdata/two-conns-one-topic.bag", "../assets/sample.bag"}, reftest.SharedBagPaths(t, sharedBags)...)
	for _, p := range paths {
		t.Run(strings.TrimPrefix(p, sharedBags+"/"), func(t *testing.T) {
			d, err := Open(context.Background(), p, nil)
			if err != nil {
				t.Skip(err)
			}
			defer d.Close()
			if d.Scan != nil {
				t.Skip("scanned: the iterator and the index may differ on salvaged chunks")
			}
			tl := BuildTimeline(d)
			x, err := BuildMessageIndex(context.Background(), d.Storage, nil)
			if err != nil {
				t.Fatal(err)
			}
			tl.SetIndex(x)
			times := map[string][]int64{}
			it := d.Storage.Messages(bag.MessageFilter{})
			for it.Next() {
				m := it.Message()
				times[m.Conn.Topic] = append(times[m.Conn.Topic], m.Time.Nanos())
			}
			it.Close()
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			span := tl.End - tl.Start
			windows := []struct {
				name   string
				t0, t1 int64
				n      int
			}{
				{"whole", tl.Start, tl.End, 300},
				{"middle tenth", tl.Start + span*4/10, tl.Start + span/2, 97},
				{"one bin", tl.Start, tl.End, 1},
			}
			for _, w := range windows {
				for i, lane := range tl.Topics {
					got := tl.Counts(i, w.t0, w.t1, w.n)
					want := countByEdges(times[lane.Topic], w.t0, w.t1, w.n)
					for k := range want {
						if got[k] != want[k] {
							t.Fatalf("%s, %s, bin %d of %d: %v messages, the iterator has %v", w.name, lane.Topic, k, w.n, got[k], want[k])
						}
					}
				}
			}
		})
	}
}

// countByEdges counts times into bins by searching the bin edges.
func countByEdges(times []int64, t0, t1 int64, n int) []float64 {
	out := make([]float64, n)
	for _, t := range times {
		if t < t0 || t > t1 {
			continue
		}
		k := sort.Search(n, func(k int) bool { return BinEdge(t0, t1, k+1, n) > t }) // first bin ending after t
		out[min(k, n-1)]++
	}
	return out
}

// TestTimelineApproxCounts checks that without the index the resampled
// lanes still add up to each topic's count.
func TestTimelineApproxCounts(t *testing.T) {
	d, err := Open(context.Background(), "../assets/sample.bag", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	tl := BuildTimeline(d)
	if tl.Exact() {
		t.Fatal("exact before the index was set")
	}
	for i, lane := range tl.Topics {
		for _, n := range []int{1, 7, 1000} {
			var sum float64
			for _, v := range tl.Counts(i, tl.Start, tl.End, n) {
				sum += v
			}
			if want := float64(d.Topics[i].Messages); sum < want-1e-6 || sum > want+1e-6 {
				t.Errorf("%s in %d bins: %v messages, want %v", lane.Topic, n, sum, want)
			}
		}
	}
}

// TestLayoutChunkRows puts chunks that overlap in time on separate rows.
func TestLayoutChunkRows(t *testing.T) {
	tests := []struct {
		name  string
		spans [][2]int64
		rows  []int
		n     int
	}{
		{"none", nil, nil, 1},
		{"apart", [][2]int64{{0, 10}, {11, 20}, {21, 30}}, []int{0, 0, 0}, 1},
		{"touching", [][2]int64{{0, 10}, {10, 20}}, []int{0, 0}, 1},
		{"overlapping", [][2]int64{{0, 10}, {5, 20}, {15, 30}}, []int{0, 1, 0}, 2},
		{"nested", [][2]int64{{0, 100}, {10, 20}, {30, 40}, {35, 50}}, []int{0, 1, 1, 2}, 3},
		{"out of order", [][2]int64{{20, 30}, {0, 10}}, []int{0, 0}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs := make([]ChunkSpan, len(tc.spans))
			for i, s := range tc.spans {
				cs[i].T0, cs[i].T1 = s[0], s[1]
			}
			if n := layoutChunkRows(cs); n != tc.n {
				t.Errorf("%d rows, want %d", n, tc.n)
			}
			for i := range cs {
				if cs[i].Row != tc.rows[i] {
					t.Errorf("chunk %d on row %d, want %d", i, cs[i].Row, tc.rows[i])
				}
			}
		})
	}
}
