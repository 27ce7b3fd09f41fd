package plot

import (
	"bytes"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	timecol "github.com/bagscope/bagscope/plot/column"
)

// compact returns s with its times in a compact column instead of T.
func compact(s Series) Series {
	s.C, s.T = timecol.FromSlice(s.T), nil
	return s
}

// sameSeries reports whether a and b hold the same times and the same
// value bit patterns.
func sameSeries(a, b Series) bool {
	if !slices.Equal(a.T, b.T) || len(a.V) != len(b.V) {
		return false
	}
	for i := range a.V {
		if math.Float64bits(a.V[i]) != math.Float64bits(b.V[i]) {
			return false
		}
	}
	return true
}

// TestCompactSeries checks every reader of a series with compact times
// against the same series with plain times: decimation, spans, nearest
// points, extents, statistics, CSV and derivations.
func TestCompactSeries(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	huge := Series{T: []int64{0, 1, 1 << 33, 1<<33 + 5, 1 << 50, 1<<50 + 1, 1<<50 + 1, math.MaxInt64 / 2},
		V: []float64{1, math.NaN(), math.Copysign(0, -1), math.Inf(1), math.Float64frombits(0x7ff8_dead_beef_0001), -2, 3, 4}}
	tests := []struct {
		name string
		s    Series
	}{
		{"empty", Series{}},
		{"random with gaps", randomSeries(r, 20_000, 20, true)},
		{"random dense", randomSeries(r, 200_000, 5, false)},
		{"huge steps, NaN payloads, -0", huge},
		{"benchmark", benchSeries(50_000)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, c := tt.s, compact(tt.s)
			if p.Len() != c.Len() {
				t.Fatalf("Len %d, want %d", c.Len(), p.Len())
			}
			if got := c.Plain(); !sameSeries(got, p) {
				t.Fatalf("Plain differs")
			}
			ep, okp := Extent([]Series{p})
			ec, okc := Extent([]Series{c})
			if ep != ec || okp != okc {
				t.Fatalf("Extent %v %v, want %v %v", ec, okc, ep, okp)
			}
			n := p.Len()
			wins := []Window{ep, {ep.T0 - 10, ep.T0 - 1}, {ep.T1 + 1, ep.T1 + 10}, {math.MinInt64, math.MaxInt64}, {ep.T1, ep.T0}}
			for range 20 {
				if n > 0 {
					a, b := p.Time(r.IntN(n)), p.Time(r.IntN(n))
					wins = append(wins, Window{min(a, b), max(a, b)}, Window{a, a})
				}
			}
			for _, w := range wins {
				i0, j0 := p.Span(w)
				i1, j1 := c.Span(w)
				if i0 != i1 || j0 != j1 {
					t.Fatalf("Span(%v) = %d, %d, want %d, %d", w, i1, j1, i0, j0)
				}
				for _, cols := range []int{1, 7, 800, 1600} {
					if dp, dc := Decimate(Series{}, p, w, cols), Decimate(Series{}, c, w, cols); !sameSeries(dp, dc) {
						t.Fatalf("Decimate(%v, %d) differs", w, cols)
					}
				}
				ip, okp := p.At(w.T0)
				ic, okc := c.At(w.T0)
				if ip != ic || okp != okc {
					t.Fatalf("At(%d) = %d, want %d", w.T0, ic, ip)
				}
				sp, sc := p.Stats(w), c.Stats(w)
				if sp.Points != sc.Points || sp.NonFinite != sc.NonFinite || math.Float64bits(sp.Sum) != math.Float64bits(sc.Sum) {
					t.Fatalf("Stats(%v) = %+v, want %+v", w, sc, sp)
				}
			}
			if n > 0 {
				f := Frame{Width: 800, Height: 400, Data: Rect{X1: 800, Y1: 400}, Window: ep, Y0: -50, Y1: 50}
				for _, x := range []float64{0, 100, 399.5, 799} {
					hp, okp := Nearest([]Series{p}, f, x, 200, 400)
					hc, okc := Nearest([]Series{c}, f, x, 200, 400)
					if hp != hc || okp != okc {
						t.Fatalf("Nearest(%v) = %+v, want %+v", x, hc, hp)
					}
				}
			}
			var bp, bc bytes.Buffer
			if err := WriteCSV(&bp, []Series{p}, ep, CSVOptions{Origin: ep.T0}); err != nil {
				t.Fatal(err)
			}
			if err := WriteCSV(&bc, []Series{c}, ep, CSVOptions{Origin: ep.T0}); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(bp.Bytes(), bc.Bytes()) {
				t.Fatalf("CSV differs")
			}
			e, err := ParseExpr("deriv(/a.x)")
			if err != nil {
				t.Fatal(err)
			}
			dp, _ := e.Eval(func(string) (Series, bool) { return p, true })
			dc, _ := e.Eval(func(string) (Series, bool) { return c, true })
			if !sameSeries(dp, dc) {
				t.Fatalf("deriv differs")
			}
		})
	}
}
