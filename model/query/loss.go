package query

import (
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// AddScanLoss adds to ranges what reading s without its index could not
// use (the gaps of a scan, padding left out: it holds nothing), once
// each, and sorts them; it returns them with the messages known lost in
// them.
func AddScanLoss(ranges []bag.ByteRange, s bag.Storage) ([]bag.ByteRange, uint64) {
	var lost uint64
	if sc := s.FileInfo().Scanned; sc != nil {
		for _, r := range sc.Skipped {
			if strings.HasPrefix(r.Why, "padding") {
				continue
			}
			dup := false
			for _, x := range ranges {
				dup = dup || x.Start == r.Start && x.End == r.End
			}
			if !dup {
				ranges = append(ranges, r)
			}
		}
		lost = sc.LostMessages
	}
	sort.SliceStable(ranges, func(i, j int) bool { return ranges[i].Start < ranges[j].Start })
	return ranges, lost
}
