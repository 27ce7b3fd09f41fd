package tf

import (
	"math"
	"sort"

	"github.com/bagscope/bagscope/plot"
)

// ColumnNames are the components of a lookup, in Columns' order.
var ColumnNames = [10]string{"x", "y", "z", "qx", "qy", "qz", "qw", "roll", "pitch", "yaw"}

// Columns gathers a lookup series (LookupSeries' samples, in time order)
// for plotting in bounded memory: of each of a fixed number of equal time
// buckets, each component keeps the points a line through all of them
// needs (the first, the lowest, the highest and the last, and the first
// failed lookup as a gap), as plot/ decimates: at most 5 points a bucket.
type Columns struct {
	lo, width, buckets int64
	cur                int64
	comps              [10]bucketPoints
	out                [10]plot.Series
	// Samples counts the samples added, Failed those that failed.
	Samples, Failed int
}

// bucketPoints is a component's candidates in the current bucket.
type bucketPoints struct {
	first, min, max, last point
	gap                   point
	has, hasGap           bool
}

type point struct {
	t int64
	v float64
}

// NewColumns gathers samples stamped in [lo, hi] (nanoseconds; others go
// to the first or the last bucket) in the given number of buckets.
func NewColumns(lo, hi int64, buckets int) *Columns {
	n := int64(max(buckets, 1))
	w := (max(hi-lo, 0) + n) / n
	c := &Columns{lo: lo, width: max(w, 1), buckets: n, cur: -1}
	for i, name := range ColumnNames {
		c.out[i].Name = name
	}
	return c
}

// Add adds the next sample.
func (c *Columns) Add(s Sample) {
	c.Samples++
	t := s.At.Nanos()
	b := min(max(t-c.lo, 0)/c.width, c.buckets-1)
	if b != c.cur {
		c.flush()
		c.cur = b
	}
	if s.Err != nil {
		c.Failed++
		for i := range c.comps {
			if p := &c.comps[i]; !p.hasGap {
				p.gap, p.hasGap = point{t, math.NaN()}, true
			}
		}
		return
	}
	tr := s.Transform
	r, pi, y := tr.RPY()
	vals := [10]float64{tr.Translation[0], tr.Translation[1], tr.Translation[2], tr.Rotation[0], tr.Rotation[1], tr.Rotation[2], tr.Rotation[3], r, pi, y}
	for i, v := range vals {
		p := &c.comps[i]
		pt := point{t, v}
		if !p.has {
			p.first, p.min, p.max, p.has = pt, pt, pt, true
		}
		if v < p.min.v {
			p.min = pt
		}
		if v > p.max.v {
			p.max = pt
		}
		p.last = pt
	}
}

// flush appends the current bucket's points of each component.
func (c *Columns) flush() {
	for i := range c.comps {
		p := &c.comps[i]
		var pts []point
		if p.has {
			pts = append(pts, p.first, p.min, p.max, p.last)
		}
		if p.hasGap {
			pts = append(pts, p.gap)
		}
		sort.SliceStable(pts, func(a, b int) bool { return pts[a].t < pts[b].t })
		o := &c.out[i]
		for k, pt := range pts {
			if k > 0 && pt == pts[k-1] {
				continue
			}
			o.T = append(o.T, pt.t)
			o.V = append(o.V, pt.v)
		}
		*p = bucketPoints{}
	}
}

// Series returns the components' series (named by ColumnNames), ending
// the gathering.
func (c *Columns) Series() []plot.Series {
	c.flush()
	c.cur = -1
	out := make([]plot.Series, len(c.out))
	copy(out, c.out[:])
	return out
}
