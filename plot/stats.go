package plot

import "math"

// Stats summarises the points of a series inside a window.
type Stats struct {
	// Points is the number of points in the window.
	Points int
	// NonFinite counts the NaN and infinite values among them, which the
	// other figures leave out.
	NonFinite int
	// Min, Max, Mean and Sum are over the finite values, summed in time
	// order; NaN when there are none.
	Min, Max, Mean, Sum float64
}

// Stats returns the summary of the points of s inside w.
func (s Series) Stats(w Window) Stats {
	i, j := s.Span(w)
	st := Stats{Points: j - i, Min: math.Inf(1), Max: math.Inf(-1)}
	n := 0
	for _, v := range s.V[i:j] {
		if !finite(v) {
			st.NonFinite++
			continue
		}
		n++
		st.Sum += v
		st.Min = min(st.Min, v)
		st.Max = max(st.Max, v)
	}
	if n == 0 {
		st.Min, st.Max, st.Mean, st.Sum = math.NaN(), math.NaN(), math.NaN(), math.NaN()
		return st
	}
	st.Mean = st.Sum / float64(n)
	return st
}
