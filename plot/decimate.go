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
// caller reuse buffers between redraws; dst.Name and Color are copied from s,
// and the suspect points inside w are kept (see Series.SuspectT).
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
	// The suspect points in the window are kept, all of them: each is
	// drawn as a hollow point, whatever the decimation kept of the line.
	if j0, j1 := s.Suspects(w); j1 > j0 {
		d.out.SuspectT = append(dst.SuspectT[:0], s.SuspectT[j0:j1]...)
		d.out.SuspectV = append(dst.SuspectV[:0], s.SuspectV[j0:j1]...)
	}
	return d.out
}

// decimator accumulates the output of Decimate.
type decimator struct {
	out Series
	s   Series
	// The columns: the window's start, its columns and columns a
	// nanosecond, and the column being decimated (open).
	w0    int64
	cols  int
	scale float64
	st    colState
	open  bool
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

// columns decimates points [i0, i1) into cols columns of window w. Plain
// times are scanned in one go; compact ones a decoded block at a time, the
// column's state carried across blocks.
func (d *decimator) columns(i0, i1 int, w Window, cols int) {
	d.w0, d.cols, d.scale = w.T0, cols, 0
	if w.T1 > w.T0 {
		d.scale = float64(cols) / float64(w.T1-w.T0)
	}
	if d.s.C == nil {
		d.scan(d.s.T, 0, i0, i1)
	} else {
		const bl = timecol.BlockLen
		var buf [bl]int64
		for k := i0 / bl; k*bl < i1; k++ {
			n := d.s.C.DecodeBlock(&buf, k)
			d.scan(buf[:n], k*bl, max(i0, k*bl), min(i1, k*bl+n))
		}
	}
	d.endColumn()
}

// colState is the column being decimated. pre: finite points before the
// column's first gap; cur: after the latest gap; mid: everything between
// the first and the latest gap.
type colState struct {
	c             int
	pre, cur, mid run
	gaps          int
}

// scan decimates points [i, end), whose times are T[i-off].
func (d *decimator) scan(T []int64, off, i, end int) {
	V := d.s.V
	w0, scale, cols := d.w0, d.scale, d.cols
	st := &d.st
	for ; i < end; i++ {
		c := int(float64(T[i-off]-w0) * scale)
		if c >= cols {
			c = cols - 1
		}
		if !d.open || c != st.c {
			d.endColumn()
			*st = colState{c: c}
			d.open = true
		}
		v := V[i]
		if !finite(v) {
			if st.gaps == 0 {
				d.flush(st.pre)
				d.gap(i)
			} else {
				st.mid.merge(st.cur, V)
				st.cur = run{}
			}
			st.gaps++
			continue
		}
		if st.gaps == 0 {
			st.pre.add(i, v, V)
		} else {
			st.cur.add(i, v, V)
		}
	}
}

// endColumn emits the open column's points.
func (d *decimator) endColumn() {
	if !d.open {
		return
	}
	d.open = false
	st := &d.st
	if st.gaps == 0 {
		d.flush(st.pre)
		return
	}
	if st.mid.n > 0 {
		d.flushMid(st.mid)
		d.out.T = append(d.out.T, d.s.Time(st.mid.last))
		d.out.V = append(d.out.V, math.NaN())
	}
	d.flush(st.cur)
}
