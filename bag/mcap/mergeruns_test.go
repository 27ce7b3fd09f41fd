package mcap

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// TestMergeRuns: merging sorted runs gives what sorting the whole gives,
// for any number of runs, empty ones and ties in time included.
func TestMergeRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, nruns := range []int{0, 1, 2, 3, 5, 8, 17} {
		for trial := range 20 {
			var ents []bag.IndexEntry
			var runs []int
			off := uint32(0)
			for r := range nruns {
				n := rng.IntN(50)
				if trial%5 == 0 && r%2 == 1 {
					n = 0
				}
				from := len(ents)
				for range n {
					off++
					ents = append(ents, bag.IndexEntry{Time: bag.TimeFromUnixNanos(uint64(rng.IntN(40))), Conn: uint32(r), Loc: bag.Loc{Offset: off}})
				}
				slices.SortFunc(ents[from:], cmpIndexEntry)
				runs = append(runs, len(ents))
			}
			want := slices.Clone(ents)
			slices.SortFunc(want, cmpIndexEntry)
			got := mergeRuns(ents, runs)
			if !slices.Equal(got, want) {
				t.Fatalf("%d runs, trial %d: merged %v, sorted %v", nruns, trial, got, want)
			}
		}
	}
}
