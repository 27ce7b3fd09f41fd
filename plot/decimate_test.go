package plot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// randomSeries returns n points with random time steps, a random walk of
// values, spikes injected at random places and, if gaps, non-finite values.
func randomSeries(r *rand.Rand, n int, spikes int, gaps bool) Series {
	s := Series{T: make([]int64, n), V: make([]float64, n)}
	t, v := int64(1_700_000_000e9), 0.0
	for i := range n {
		t += 1 + r.Int64N(3e6)
		if r.IntN(50) == 0 {
			// equal times happen (several messages in one tick)
			t -= 1
			t++
		}
		v += r.NormFloat64()
		s.T[i], s.V[i] = t, v
	}
	for range spikes {
		i := r.IntN(n)
		s.V[i] = v + 1e6*float64(1+r.IntN(9))*(float64(r.IntN(2))*2-1)
	}
	if gaps {
		bad := []float64{math.NaN(), math.Inf(1), math.Inf(-1)}
		for range 1 + n/200 {
			i := r.IntN(n)
			for j := i; j < min(n, i+1+r.IntN(4)); j++ {
				s.V[j] = bad[r.IntN(3)]
			}
		}
	}
	return s
}

// column returns the pixel column of t as Decimate computes it.
func column(t int64, w Window, cols int) int {
	c := int(float64(t-w.T0) * (float64(cols) / float64(w.T1-w.T0)))
	return min(c, cols-1)
}

// TestDecimateKeepsExtremes checks, against brute force, that every column's
// finite minimum, maximum, first and last values survive, that points come in
// time order, and that two output points are joined by a line only if no
// non-finite input lies between them.
func TestDecimateKeepsExtremes(t *testing.T) {
	tests := []struct {
		n, spikes, cols int
		gaps            bool
		window          string // "all", "inner"
	}{
		{n: 100, cols: 1600, window: "all"},
		{n: 10_000, spikes: 3, cols: 100, window: "all"},
		{n: 50_000, spikes: 1, cols: 1600, window: "all"},
		{n: 50_000, spikes: 5, cols: 37, gaps: true, window: "all"},
		{n: 20_000, spikes: 5, cols: 400, gaps: true, window: "inner"},
		{n: 200_000, spikes: 1, cols: 1600, gaps: true, window: "inner"},
		{n: 5_000, spikes: 2, cols: 1, gaps: true, window: "all"},
	}
	for _, tc := range tests {
		for seed := range uint64(5) {
			name := fmt.Sprintf("n=%d/spikes=%d/cols=%d/gaps=%v/%s/seed=%d", tc.n, tc.spikes, tc.cols, tc.gaps, tc.window, seed)
			t.Run(name, func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, 42))
				s := randomSeries(r, tc.n, tc.spikes, tc.gaps)
				w := Window{s.T[0], s.T[len(s.T)-1]}
				if tc.window == "inner" {
					d := w.Duration()
					w = Window{w.T0 + d/3, w.T0 + d/3 + d/5}
				}
				out := Decimate(Series{}, s, w, tc.cols)
				checkDecimation(t, s, out, w, tc.cols)
			})
		}
	}
}

type colStats struct {
	n                 int
	min, max          float64
	firstIdx, lastIdx int // first and last finite point
	firstGap, lastGap int // first and last non-finite point; -1 if none
	hasMin, hasMax    bool
	hasFirst, hasLast bool
}

func checkDecimation(t *testing.T, s, out Series, w Window, cols int) {
	t.Helper()
	if len(out.T) != len(out.V) {
		t.Fatalf("len(T)=%d len(V)=%d", len(out.T), len(out.V))
	}
	i0, i1 := s.Span(w)
	if i1-i0 > 4*cols && len(out.T) > 14*cols+4 {
		t.Errorf("output has %d points for %d columns", len(out.T), cols)
	}
	// Brute force per column over finite values.
	want := map[int]*colStats{}
	for i := i0; i < i1; i++ {
		v := s.V[i]
		c := column(s.T[i], w, cols)
		st := want[c]
		if st == nil {
			st = &colStats{min: math.Inf(1), max: math.Inf(-1), firstIdx: -1, firstGap: -1, lastGap: -1}
			want[c] = st
		}
		if !finite(v) {
			if st.firstGap < 0 {
				st.firstGap = i
			}
			st.lastGap = i
			continue
		}
		if st.firstIdx < 0 {
			st.firstIdx = i
		}
		st.n++
		st.min, st.max = math.Min(st.min, v), math.Max(st.max, v)
		st.lastIdx = i
	}
	// Map output points back to input indices: output must be a time-ordered
	// subsequence of the input (plus NaN markers).
	j := 0
	prevIdx := -1 // input index of the previous finite output point
	gapSince := false
	for k := range out.T {
		if k > 0 && out.T[k] < out.T[k-1] {
			t.Fatalf("output time goes back at %d", k)
		}
		v := out.V[k]
		if math.IsNaN(v) {
			gapSince = true
			continue
		}
		for j < len(s.T) && !(s.T[j] == out.T[k] && s.V[j] == v) {
			j++
		}
		if j == len(s.T) {
			t.Fatalf("output point %d (%d, %v) is not an input point in order", k, out.T[k], v)
		}
		if prevIdx >= 0 && !gapSince && !insideGaps(want, s, prevIdx, j, w, cols) {
			for m := prevIdx + 1; m < j; m++ {
				if !finite(s.V[m]) {
					t.Fatalf("output joins input %d and %d across the non-finite value at %d", prevIdx, j, m)
				}
			}
		}
		if prevIdx >= 0 && gapSince {
			bad := false
			for m := prevIdx + 1; m < j; m++ {
				bad = bad || !finite(s.V[m])
			}
			if !bad {
				t.Fatalf("gap between input %d and %d without a non-finite value", prevIdx, j)
			}
		}
		if s.T[j] >= w.T0 && s.T[j] <= w.T1 {
			st := want[column(s.T[j], w, cols)]
			st.hasMin = st.hasMin || v == st.min
			st.hasMax = st.hasMax || v == st.max
			st.hasFirst = st.hasFirst || j == st.firstIdx
			st.hasLast = st.hasLast || j == st.lastIdx
		}
		prevIdx, gapSince = j, false
		j++
	}
	for c, st := range want {
		if st.n == 0 {
			continue
		}
		// The first (last) finite point matters when no gap precedes
		// (follows) it in its column: it joins the neighbour column.
		needFirst := st.firstGap < 0 || st.firstIdx < st.firstGap
		needLast := st.lastGap < 0 || st.lastIdx > st.lastGap
		if !st.hasMin || !st.hasMax || (needFirst && !st.hasFirst) || (needLast && !st.hasLast) {
			t.Errorf("column %d (%d finite points): kept min=%v max=%v first=%v last=%v", c, st.n, st.hasMin, st.hasMax, st.hasFirst, st.hasLast)
		}
	}
}

// insideGaps reports whether input points a and b lie in the same column
// strictly between its first and last gap, where Decimate draws only the
// extremes as one vertical stroke (a sub-pixel simplification).
func insideGaps(want map[int]*colStats, s Series, a, b int, w Window, cols int) bool {
	if !w.Contains(s.T[a]) || !w.Contains(s.T[b]) {
		return false
	}
	c := column(s.T[a], w, cols)
	st := want[c]
	return c == column(s.T[b], w, cols) && st.firstGap >= 0 && st.firstGap < a && b < st.lastGap
}

// TestDecimateSpikeIn10M checks that a one-sample spike among ten million
// points is in the output.
func TestDecimateSpikeIn10M(t *testing.T) {
	if testing.Short() {
		t.Skip("10M points")
	}
	const n = 10_000_000
	s := Series{T: make([]int64, n), V: make([]float64, n)}
	for i := range n {
		s.T[i] = int64(i) * 1e6
		s.V[i] = math.Sin(float64(i) / 1e4)
	}
	s.V[7_654_321] = 50
	s.V[1_234_567] = -50
	out := Decimate(Series{}, s, Window{0, s.T[n-1]}, 1600)
	var hi, lo bool
	for _, v := range out.V {
		hi, lo = hi || v == 50, lo || v == -50
	}
	if !hi || !lo || len(out.T) > 4*1600 {
		t.Fatalf("spikes kept: +%v -%v; %d points", hi, lo, len(out.T))
	}
}

func TestDecimateEdges(t *testing.T) {
	s := Series{T: []int64{0, 10, 20, 30, 40}, V: []float64{1, 2, math.NaN(), 4, 5}}
	tests := []struct {
		name  string
		w     Window
		wantT []int64
	}{
		{"all", Window{0, 40}, []int64{0, 10, 20, 30, 40}},
		{"inner keeps a neighbour each side", Window{15, 35}, []int64{10, 20, 30, 40}},
		{"before the data", Window{-20, -10}, []int64{0}},
		{"after the data", Window{50, 60}, []int64{40}},
		{"empty series", Window{0, 1}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := s
			if tc.wantT == nil {
				in = Series{}
			}
			out := Decimate(Series{}, in, tc.w, 100)
			if fmt.Sprint(out.T) != fmt.Sprint(tc.wantT) && !(len(out.T) == 0 && tc.wantT == nil) {
				t.Fatalf("T = %v, want %v", out.T, tc.wantT)
			}
		})
	}
}
