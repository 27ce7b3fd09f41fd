package plot

import "math"

// Stats summarises the points of a series inside a window.
type Stats struct {
	// Points is the number of points in the window.
	Points int
	// NonFinite counts the NaN and infinite values among them, which the
	// other figures leave out.
	NonFinite int
	// Min, Max, Mean and Sum are over the finite values; NaN when there
	// are none. Sum is the exact sum rounded once (as Python's math.fsum),
	// whatever the order of the values; Mean is it divided by their count.
	Min, Max, Mean, Sum float64
}

// Stats returns the summary of the points of s inside w.
func (s Series) Stats(w Window) Stats {
	i, j := s.Span(w)
	var acc StatsAcc
	for _, v := range s.V[i:j] {
		acc.Add(v)
	}
	return acc.Stats()
}

// StatsAcc gathers the Stats of values handed to it one at a time, in
// memory that does not grow with their number (a stream of points).
type StatsAcc struct {
	points, nonFinite, n int
	min, max             float64
	sum                  exactSum
}

// Add adds one value.
func (a *StatsAcc) Add(v float64) {
	a.points++
	if !finite(v) {
		a.nonFinite++
		return
	}
	if a.n == 0 {
		a.min, a.max = v, v
	}
	a.n++
	a.sum.add(v)
	a.min = min(a.min, v)
	a.max = max(a.max, v)
}

// Merge adds to a the values b gathered: the figures are those of one
// accumulator handed both's values, in any order (the sum stays exact),
// so that several goroutines can each summarise a share of the points.
// Only a sum whose partials overflow (values near ±MaxFloat64) depends on
// the order, as it does for Add alone.
func (a *StatsAcc) Merge(b *StatsAcc) {
	a.points += b.points
	a.nonFinite += b.nonFinite
	if b.n == 0 {
		return
	}
	if a.n == 0 {
		a.min, a.max = b.min, b.max
	}
	a.min = min(a.min, b.min)
	a.max = max(a.max, b.max)
	a.n += b.n
	a.sum.merge(&b.sum)
}

// Stats returns the summary of the values added.
func (a *StatsAcc) Stats() Stats {
	st := Stats{Points: a.points, NonFinite: a.nonFinite}
	if a.n == 0 {
		st.Min, st.Max, st.Mean, st.Sum = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return st
	}
	st.Min, st.Max, st.Sum = a.min, a.max, a.sum.value()
	st.Mean = st.Sum / float64(a.n)
	return st
}

// exactSum sums float64 values without rounding errors (Shewchuk's
// algorithm, as in Python's math.fsum): the sum is kept as a few
// non-overlapping partials (at most about 40, for the exponent range of a
// float64) and rounded once when read. A sum that overflows is the naive
// sum's infinity.
type exactSum struct {
	partials []float64
	naive    float64
	overflow bool
}

func (s *exactSum) add(x float64) {
	s.naive += x
	if !s.overflow {
		s.addExact(x)
	}
}

// merge adds o's exact sum (its partials, each exactly) to s's.
func (s *exactSum) merge(o *exactSum) {
	s.naive += o.naive
	s.overflow = s.overflow || o.overflow
	for _, p := range o.partials {
		if s.overflow {
			return
		}
		s.addExact(p)
	}
}

// addExact adds x to the partials, or sets overflow.
func (s *exactSum) addExact(x float64) {
	i := 0
	for _, y := range s.partials {
		if math.Abs(x) < math.Abs(y) {
			x, y = y, x
		}
		hi := x + y
		if math.IsInf(hi, 0) {
			s.overflow = true
			return
		}
		if lo := y - (hi - x); lo != 0 {
			s.partials[i] = lo
			i++
		}
		x = hi
	}
	s.partials = append(s.partials[:i], x)
}

// value rounds the sum to the nearest float64 (half to even).
func (s *exactSum) value() float64 {
	if s.overflow {
		return s.naive
	}
	p := s.partials
	n := len(p)
	if n == 0 {
		return 0
	}
	n--
	hi, lo := p[n], 0.0
	for n > 0 {
		x := hi
		n--
		y := p[n]
		hi = x + y
		lo = y - (hi - x)
		if lo != 0 {
			break
		}
	}
	// Round half to even across the partials below: when lo is exactly
	// half an ulp and the next partial pushes the same way, round away.
	if n > 0 && (lo < 0 && p[n-1] < 0 || lo > 0 && p[n-1] > 0) {
		y := lo * 2
		x := hi + y
		if y == x-hi {
			hi = x
		}
	}
	return hi
}
