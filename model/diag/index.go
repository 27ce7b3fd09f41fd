package diag

import (
	"math/bits"
	"sort"
)

// indexBuckets is how many equal time buckets the per-status index cuts
// the recording in: each status keeps one bit a bucket (512 bytes).
const indexBuckets = 4096

// statusIndex says, for each status, the time buckets it reported in: the
// latest report at or before a time is in the bucket holding the time
// (before the time), or else in the status's last reporting bucket
// before it, whole. So the table at a time reads those buckets only,
// however long ago a status last reported.
type statusIndex struct {
	start, width int64
}

// bucket is the bucket of receive time t (nanoseconds), clamped.
func (x statusIndex) bucket(t int64) int {
	if t < x.start {
		return 0
	}
	return int(min((t-x.start)/x.width, indexBuckets-1))
}

// mark notes that tr reported at t.
func (x statusIndex) mark(tr *Track, t int64) {
	if tr.buckets == nil {
		tr.buckets = make([]uint64, indexBuckets/64)
	}
	b := x.bucket(t)
	tr.buckets[b/64] |= 1 << (b % 64)
}

// lastBefore is tr's last reporting bucket before bucket b, or -1.
func lastBefore(tr *Track, b int) int {
	for w := (b - 1) / 64; b > 0 && w >= 0; w-- {
		word := tr.buckets[w]
		if w == (b-1)/64 {
			// Only the bits below b.
			if k := b - w*64; k < 64 {
				word &= 1<<k - 1
			}
		}
		if word != 0 {
			return w*64 + 63 - bits.LeadingZeros64(word)
		}
	}
	return -1
}

// ReadRanges are the receive times (nanoseconds, inclusive, in order,
// not overlapping) that hold each status's latest report at or before t:
// the bucket holding t up to t, and each status's last reporting bucket
// before it. TableAt with the history reads only these.
func (h *History) ReadRanges(t int64) [][2]int64 {
	x := h.index
	if t < x.start {
		return nil
	}
	bt := x.bucket(t)
	from := map[int]bool{}
	for _, tr := range h.Tracks {
		if tr.First > t || tr.buckets == nil {
			continue
		}
		if b := lastBefore(tr, bt); b >= 0 {
			from[b] = true
		}
	}
	bs := make([]int, 0, len(from))
	for b := range from {
		bs = append(bs, b)
	}
	sort.Ints(bs)
	var out [][2]int64
	add := func(lo, hi int64) {
		if n := len(out); n > 0 && out[n-1][1]+1 >= lo {
			out[n-1][1] = max(out[n-1][1], hi)
			return
		}
		out = append(out, [2]int64{lo, hi})
	}
	for _, b := range bs {
		lo := x.start + int64(b)*x.width
		add(lo, lo+x.width-1)
	}
	lo := x.start + int64(bt)*x.width
	if bt == 0 {
		lo = min(lo, t)
	}
	add(lo, t)
	return out
}
