package plot

import (
	"math"

	timecol "github.com/bagscope/bagscope/plot/column"
)

// Decimate returns the points of s that draw the same picture as all of them
// over window w at cols pixel columns. For every column it keeps the first,
// the last, the smallest and the largest finite value, in time order, so a
// single-sample spike among millions of points is still drawn. A non-finite
// value becomes one NaN point (a gap); within a column, everything between
// its first and last gap is reduced to its minimum and maximum, bounded by
// gaps, so the output never exceeds about 14 points per column. The nearest
// point on each side outside w is kept too, so lines run to the edges.
//
// The result is appended to dst's slices (reset to length 0), which lets a
// caller reuse buffers between redraws; dst.Name and Color are copied from s.
// The result always has its times in T, even when s keeps them compact.
func Decimate(dst Series, s Series, w Window, cols int) Series {
	d := decimator{out: Series{Name: s.Name, Color: s.Color, T: dst.T[:0], V: dst.V[:0]}, s: s}
	if cols < 1 {
		cols = 1
	}
	i0, i1 := s.Span(w)
	if i0 > 0 {
		d.raw(i0 - 1)
	}
	if i1-i0 <= 4*cols {
		for i := i0; i < i1; i++ {
			d.raw(i)
		}
	} else {
		d.columns(i0, i1, w, cols)
	}
	if i1 < s.Len() {
		d.raw(i1)
	}
	return d.out
}

// decimator accumulates the output of Decimate.
type decimator struct {
	out Series
	s   Series
}

// raw emits point i as is (a gap marker when it is not finite).
func (d *decimator) raw(i int) {
	if v := d.s.V[i]; finite(v) {
		d.emit(i)
	} else {
		d.gap(i)
	}
}

func (d *decimator) emit(i int) {
	d.out.T = append(d.out.T, d.s.Time(i))
	d.out.V = append(d.out.V, d.s.V[i])
}

// gap emits a NaN at point i's time unless the last point already is one.
func (d *decimator) gap(i int) {
	if n := len(d.out.V); n > 0 && math.IsNaN(d.out.V[n-1]) {
		return
	}
	d.out.T = append(d.out.T, d.s.Time(i))
	d.out.V = append(d.out.V, math.NaN())
}

// cursor reads the times of a series walked in order: a plain column
// directly, a compact one a block at a time.
type cursor struct {
	t   []int64
	c   *timecol.Times
	k   int // the block in buf
	buf [timecol.BlockLen]int64
}

func newCursor(s Series) cursor { return cursor{t: s.T, c: s.C, k: -1} }

func (c *cursor) at(i int) int64 {
	if c.c == nil {
		return c.t[i]
	}
	if k := i / timecol.BlockLen; k != c.k {
		c.k = k
		c.c.DecodeBlock(&c.buf, k)
	}
	return c.buf[i%timecol.BlockLen]
}

// run is the indices of the first, last, smallest and largest finite value
// of consecutive points; n == 0 means empty.
type run struct{ n, first, last, min, max int }

func (r *run) add(i int, v float64, s []float64) {
	if r.n == 0 {
		*r = run{1, i, i, i, i}
		return
	}
	r.n++
	r.last = i
	if v < s[r.min] {
		r.min = i
	}
	if v > s[r.max] {
		r.max = i
	}
}

// merge adds the extremes of o to r (first and last become unimportant).
func (r *run) merge(o run, s []float64) {
	if o.n == 0 {
		return
	}
	if r.n == 0 {
		*r = o
		return
	}
	r.n += o.n
	r.last = o.last
	if s[o.min] < s[r.min] {
		r.min = o.min
	}
	if s[o.max] > s[r.max] {
		r.max = o.max
	}
}

// flush emits the run's points in time order, each once.
func (d *decimator) flush(r run) {
	if r.n == 0 {
		return
	}
	idx := [4]int{r.first, r.min, r.max, r.last}
	// Sort four indices (insertion sort) and emit the distinct ones.
	for a := 1; a < 4; a++ {
		for b := a; b > 0 && idx[b] < idx[b-1]; b-- {
			idx[b], idx[b-1] = idx[b-1], idx[b]
		}
	}
	prev := -1
	for _, i := range idx {
		if i != prev {
			d.emit(i)
			prev = i
		}
	}
}

// flushMid emits the extremes of the points between a column's first and
// last gap, in time order.
func (d *decimator) flushMid(r run) {
	if r.n == 0 {
		return
	}
	a, b := r.min, r.max
	if a > b {
		a, b = b, a
	}
	d.emit(a)
	if b != a {
		d.emit(b)
	}
}

// columns decimates points [i0, i1) into cols columns of window w.
func (d *decimator) columns(i0, i1 int, w Window, cols int) {
	T, V := newCursor(d.s), d.s.V
	scale := 0.0
	if w.T1 > w.T0 {
		scale = float64(cols) / float64(w.T1-w.T0)
	}
	col := func(t int64) int {
		c := int(float64(t-w.T0) * scale)
		if c >= cols {
			c = cols - 1
		}
		return c
	}
	i := i0
	for i < i1 {
		c := col(T.at(i))
		// pre: finite points before the column's first gap; cur: after the
		// latest gap; mid: everything between the first and the latest gap.
		var pre, cur, mid run
		gaps := 0
		for ; i < i1 && col(T.at(i)) == c; i++ {
			v := V[i]
			if !finite(v) {
				if gaps == 0 {
					d.flush(pre)
				} else {
					mid.merge(cur, V)
					cur = run{}
				}
				if gaps == 0 {
					d.gap(i)
				}
				gaps++
				continue
			}
			if gaps == 0 {
				pre.add(i, v, V)
			} else {
				cur.add(i, v, V)
			}
		}
		if gaps == 0 {
			d.flush(pre)
			continue
		}
		if mid.n > 0 {
			d.flushMid(mid)
			d.out.T = append(d.out.T, d.s.Time(mid.last))
			d.out.V = append(d.out.V, math.NaN())
		}
		d.flush(cur)
	}
}
