package series

import (
	"math"

	"github.com/bagscope/bagscope/model/msgref"
	timecol "github.com/bagscope/bagscope/plot/column"
)

// A reduced series keeps, of each of a fixed number of equal time buckets
// over the extracted range, only the points a line drawn through all of them
// needs (the M4 reduction: the first, the lowest, the highest and the last
// point of the bucket, and the first gap), so that a plot of millions of
// points costs a bounded number of them and draws exactly the same at one
// bucket a pixel or coarser. Every kept point is a real point of the
// series, at its own time. Request.MaxPoints asks for it; the plots
// read the points of a narrower window again when zoomed past it.

// pointsPerBucket is how many points a reduced bucket keeps at most (the
// gap aside): MaxPoints/pointsPerBucket buckets keep at most MaxPoints.
const pointsPerBucket = 4

// reduction is how a field reference's series are reduced: bucket b covers
// receive times [t0+b*width, t0+(b+1)*width).
type reduction struct {
	t0, width int64
	buckets   int64
}

// newReduction divides [lo, hi] into buckets for at most maxPoints points.
func newReduction(lo, hi int64, maxPoints int) *reduction {
	n := int64(max(1, maxPoints/pointsPerBucket))
	span := max(hi-lo, 0) + 1
	w := span / n
	if span%n != 0 {
		w++
	}
	return &reduction{t0: lo, width: max(w, 1), buckets: n}
}

// bucket is the bucket of time t (times outside the range go to the first
// or the last).
func (r *reduction) bucket(t int64) int64 {
	if t <= r.t0 {
		return 0
	}
	return min((t-r.t0)/r.width, r.buckets-1)
}

// elementBudget decides the reduction of a path that selects several
// elements ([*], a range), whose series share MaxPoints: once the first
// message with values shows how many elements there are, each series may
// keep MaxPoints/elements points (but at least MaxPoints/32, so a laser
// scan's 720 ranges are still drawn at 1,024 buckets each), and the
// series are reduced when their topic has more messages than that.
type elementBudget struct {
	lo, hi int64
	max    int
}

// decide sets r's reduction for elements values a message, r having read
// the first message with values (its series hold one point each).
func (e *elementBudget) decide(r *refSink, elements int) {
	r.budget = nil
	per := max(e.max/elements, e.max/32, pointsPerBucket)
	if r.remaining+1 <= per {
		return
	}
	r.reduce = newReduction(e.lo, e.hi, per)
	for _, s := range r.series {
		s.red = newReducer(r.reduce)
	}
}

// candidate is a point a bucket may keep, with its place in the series.
type candidate struct {
	seq int
	t   int64
	v   float64
	loc msgref.Loc
}

// reducer is one series' reduction in progress: the current bucket's
// candidates.
type reducer struct {
	spec                *reduction
	cur                 int64 // the current bucket; -1 before the first point
	first, lo, hi, last candidate
	gap                 candidate
	hasValue, hasGap    bool
	out                 [pointsPerBucket + 1]candidate
}

func newReducer(spec *reduction) *reducer { return &reducer{spec: spec, cur: -1} }

// push offers point c; points come in time order. It flushes the previous
// bucket into s when c starts another.
func (r *reducer) push(s *Series, c candidate, compact, keep bool) {
	if b := r.spec.bucket(c.t); b != r.cur {
		r.flush(s, compact, keep)
		r.cur = b
	}
	if math.IsNaN(c.v) || math.IsInf(c.v, 0) {
		if !r.hasGap {
			r.gap, r.hasGap = c, true
		}
		return
	}
	if !r.hasValue {
		r.first, r.lo, r.hi, r.hasValue = c, c, c, true
	}
	if c.v < r.lo.v {
		r.lo = c
	}
	if c.v > r.hi.v {
		r.hi = c
	}
	r.last = c
}

// flush appends the current bucket's kept points to s, each once, in
// series order.
func (r *reducer) flush(s *Series, compact, keep bool) {
	out := r.out[:0]
	add := func(c candidate) {
		for _, o := range out {
			if o.seq == c.seq {
				return
			}
		}
		i := len(out)
		out = append(out, c)
		for ; i > 0 && out[i-1].seq > c.seq; i-- {
			out[i], out[i-1] = out[i-1], out[i]
		}
	}
	if r.hasValue {
		add(r.first)
		add(r.lo)
		add(r.hi)
		add(r.last)
	}
	if r.hasGap {
		add(r.gap)
	}
	for _, c := range out {
		s.store(c.t, c.v, c.loc, compact, keep)
	}
	r.hasValue, r.hasGap = false, false
}

// Reduced reports whether the series keeps a reduction of its points
// (Request.MaxPoints) rather than all of them.
func (s *Series) Reduced() bool { return s.Bucket > 0 }

// add appends one point of the series: stored, or offered to its reducer.
func (s *Series) add(t int64, v float64, loc msgref.Loc, compact, keep bool) {
	s.Points++
	if s.red != nil {
		s.red.push(s, candidate{seq: s.Points, t: t, v: v, loc: loc}, compact, keep)
		return
	}
	s.store(t, v, loc, compact, keep)
}

// store appends a kept point to the columns.
func (s *Series) store(t int64, v float64, loc msgref.Loc, compact, keep bool) {
	if compact {
		if s.tb == nil {
			s.tb = &timecol.Builder{}
		}
		s.tb.Append(t)
	} else {
		s.T = append(s.T, t)
	}
	s.V = append(s.V, v)
	if keep {
		s.Loc = append(s.Loc, loc)
	}
}

// finishReduction flushes the last bucket.
func (s *Series) finishReduction(compact, keep bool) {
	if s.red != nil {
		s.red.flush(s, compact, keep)
		s.red = nil
	}
}
