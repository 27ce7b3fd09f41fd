package plot

import "math"

// Derived series: pure functions from series to a new series, each with
// fresh slices (the inputs are never modified). Values are in the input's
// units; derivatives are per second and integrals in units × seconds, since
// times are nanoseconds. A non-finite value is a gap, as everywhere in this
// package: a derived value that depends on one is NaN, so the gap stays a
// gap in the result.

// Derivative returns the rate of change of s per second: at every point but
// the first, the change from the previous point divided by the time between
// them (a backward difference), placed at the later point's time. A point
// at the same time as its predecessor has no derivative and is dropped; a
// gap on either side of a step gives NaN there.
func Derivative(s Series) Series {
	out := Series{Name: s.Name, Color: s.Color}
	if len(s.T) < 2 {
		return out
	}
	out.T = make([]int64, 0, len(s.T)-1)
	out.V = make([]float64, 0, len(s.T)-1)
	for i := 1; i < len(s.T); i++ {
		dt := s.T[i] - s.T[i-1]
		if dt <= 0 {
			continue
		}
		out.T = append(out.T, s.T[i])
		out.V = append(out.V, (s.V[i]-s.V[i-1])/(float64(dt)/1e9))
	}
	return out
}

// Integral returns the running integral of s over time by the trapezoidal
// rule, 0 at the first finite point. A step with a gap at either end adds
// nothing (the area over a gap is unknown), and the gap point itself is NaN;
// the sum goes on after it from where it stopped.
func Integral(s Series) Series {
	out := Series{Name: s.Name, Color: s.Color, T: append([]int64(nil), s.T...), V: make([]float64, len(s.V))}
	sum, started := 0.0, false
	for i, v := range s.V {
		if !finite(v) {
			out.V[i] = math.NaN()
			continue
		}
		if started && i > 0 && finite(s.V[i-1]) {
			sum += (v + s.V[i-1]) / 2 * (float64(s.T[i]-s.T[i-1]) / 1e9)
		}
		started = true
		out.V[i] = sum
	}
	return out
}

// ScaleOffset returns k·v + c for every value v of s.
func ScaleOffset(s Series, k, c float64) Series {
	out := Series{Name: s.Name, Color: s.Color, T: append([]int64(nil), s.T...), V: make([]float64, len(s.V))}
	for i, v := range s.V {
		out.V[i] = k*v + c
	}
	return out
}

// MovingAverage returns the trailing mean of the last n finite values of s
// (fewer at the start) at every point; a gap stays a gap (NaN at its time)
// and does not count as a value. n < 1 counts as 1.
func MovingAverage(s Series, n int) Series {
	n = max(n, 1)
	out := Series{Name: s.Name, Color: s.Color, T: append([]int64(nil), s.T...), V: make([]float64, len(s.V))}
	ring := make([]float64, n)
	var sum float64
	k := 0 // finite values seen
	for i, v := range s.V {
		if !finite(v) {
			out.V[i] = math.NaN()
			continue
		}
		slot := k % n
		if k >= n {
			sum -= ring[slot]
		}
		ring[slot] = v
		sum += v
		k++
		// Re-sum now and then so that rounding does not accumulate.
		if k%(1<<16) == 0 {
			sum = 0
			for _, r := range ring[:min(k, n)] {
				sum += r
			}
		}
		out.V[i] = sum / float64(min(k, n))
	}
	return out
}

// Difference returns a − b at a's times, b's value taken from its point
// nearest in time (see JoinNearest). Two series of one topic share their
// times, so each pair is one message.
func Difference(a, b Series) Series {
	t, va, vb := JoinNearest(a, b)
	for i := range va {
		va[i] -= vb[i]
	}
	return Series{Name: a.Name, Color: a.Color, T: t, V: va}
}

// JoinNearest pairs every point of a with the point of b nearest in time
// (the earlier one on a tie) and returns a's times with both values. It
// returns nothing when b is empty. Both series must be in time order, as
// Series are.
func JoinNearest(a, b Series) (t []int64, va, vb []float64) {
	if len(b.T) == 0 || len(a.T) == 0 {
		return nil, nil, nil
	}
	t = append([]int64(nil), a.T...)
	va = append([]float64(nil), a.V...)
	vb = make([]float64, len(a.T))
	j := 0
	for i, ta := range a.T {
		// Advance j to the last point of b at or before ta.
		for j+1 < len(b.T) && b.T[j+1] <= ta {
			j++
		}
		k := j
		if b.T[j] < ta && j+1 < len(b.T) && b.T[j+1]-ta < ta-b.T[j] {
			k = j + 1
		}
		if b.T[j] > ta { // every point of b is later
			k = 0
		}
		vb[i] = b.V[k]
	}
	return t, va, vb
}
