package model

import "sort"

// SetIndex gives the timeline the message index, so that Counts is exact
// at any zoom instead of spreading each chunk's messages over its span.
func (tl *Timeline) SetIndex(x *MessageIndex) { tl.index = x }

// Exact says whether Counts comes from the message index.
func (tl *Timeline) Exact() bool { return tl.index != nil }

// BinEdge is the start of bin k of n bins spanning t0..t1; BinEdge(n) is
// t1. Counts and its tests place messages with it.
func BinEdge(t0, t1 int64, k, n int) int64 {
	if k >= n {
		return t1
	}
	return t0 + int64(float64(t1-t0)*float64(k)/float64(n))
}

// Counts returns how many messages of topic lane i fall in each of n bins
// spanning t0..t1 (bin k holds BinEdge(k) <= t < BinEdge(k+1); the last
// bin also holds t1). With the message index they are exact, found by
// binary search at each edge, so a zoomed-in window costs no more than the
// whole bag; without it they are resampled from the approximate bins.
func (tl *Timeline) Counts(i int, t0, t1 int64, n int) []float64 {
	out := make([]float64, n)
	if n <= 0 || t1 < t0 || i < 0 || i >= len(tl.Topics) {
		return out
	}
	var at func(t int64) float64 // messages before t
	if tl.index != nil {
		tm := tl.index.Topic(tl.Topics[i].Topic)
		if tm == nil {
			return out
		}
		at = func(t int64) float64 { return float64(tm.Search(t)) }
	} else {
		at = tl.approxBefore(i)
	}
	prev := at(t0)
	for k := 0; k < n; k++ {
		e := BinEdge(t0, t1, k+1, n)
		if k == n-1 {
			e = t1 + 1
		}
		next := at(e)
		out[k] = max(0, next-prev)
		prev = next
	}
	return out
}

// approxBefore returns the approximate number of messages of lane i before
// a time, interpolating within a bin.
func (tl *Timeline) approxBefore(i int) func(t int64) float64 {
	if tl.cum == nil {
		tl.cum = make([][]float64, len(tl.Topics))
	}
	bins := tl.Topics[i].Bins
	if tl.cum[i] == nil {
		c := make([]float64, len(bins)+1)
		for k, v := range bins {
			c[k+1] = c[k] + v
		}
		tl.cum[i] = c
	}
	c := tl.cum[i]
	n := len(bins)
	span := float64(tl.End - tl.Start)
	return func(t int64) float64 {
		f := float64(t-tl.Start) / span * float64(n)
		if f <= 0 {
			return 0
		}
		if f >= float64(n) {
			return c[n]
		}
		k := int(f)
		return c[k] + (f-float64(k))*bins[k]
	}
}

// ChunksAt returns the indexes of the chunks whose span holds t, or within
// slack nanoseconds of it.
func (tl *Timeline) ChunksAt(t, slack int64) []int {
	var out []int
	for i, c := range tl.Chunks {
		if t >= c.T0-slack && t <= c.T1+slack {
			out = append(out, i)
		}
	}
	return out
}

// ChunkIndex returns the index of the chunk whose record is at pos, or -1.
func (tl *Timeline) ChunkIndex(pos int64) int {
	i := sort.Search(len(tl.Chunks), func(i int) bool { return tl.Chunks[i].Pos >= pos })
	if i < len(tl.Chunks) && tl.Chunks[i].Pos == pos {
		return i
	}
	for i, c := range tl.Chunks { // chunk infos out of file order
		if c.Pos == pos {
			return i
		}
	}
	return -1
}
