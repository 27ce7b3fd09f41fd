package plot

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

func TestStats(t *testing.T) {
	s := Series{
		T: []int64{10, 20, 30, 40, 50},
		V: []float64{4, math.NaN(), -2, math.Inf(1), 7},
	}
	nan := math.NaN()
	tests := []struct {
		name string
		w    Window
		want Stats
	}{
		{"all", Window{0, 100}, Stats{Points: 5, NonFinite: 2, Min: -2, Max: 7, Mean: 3, Sum: 9}},
		{"window", Window{20, 30}, Stats{Points: 2, NonFinite: 1, Min: -2, Max: -2, Mean: -2, Sum: -2}},
		{"only gaps", Window{20, 20}, Stats{Points: 1, NonFinite: 1, Min: nan, Max: nan, Mean: nan, Sum: nan}},
		{"empty", Window{60, 70}, Stats{Min: nan, Max: nan, Mean: nan, Sum: nan}},
	}
	same := func(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := s.Stats(tc.w)
			if got.Points != tc.want.Points || got.NonFinite != tc.want.NonFinite ||
				!same(got.Min, tc.want.Min) || !same(got.Max, tc.want.Max) ||
				!same(got.Mean, tc.want.Mean) || !same(got.Sum, tc.want.Sum) {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
		})
	}
}

// exactRef is the sum of vs rounded once, with math/big at a precision
// that holds any sum of float64 exactly.
func exactRef(vs []float64) float64 {
	acc := new(big.Float).SetPrec(4096)
	for _, v := range vs {
		acc.Add(acc, new(big.Float).SetPrec(4096).SetFloat64(v))
	}
	f, _ := acc.Float64()
	return f
}

// TestStatsAccExactSum: the streaming figures' sum is the exact sum
// rounded once (math/big's), in any order of the values, where a naive
// sum in order loses digits; min, max and counts are those of the values.
func TestStatsAccExactSum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	cases := map[string][]float64{
		"cancelling":  {1e16, 1, -1e16, 1, 3.5, -0.25},
		"tiny on big": append([]float64{1e20}, slices.Repeat([]float64{1}, 1000)...),
		"half ulp":    {1, 1.1102230246251565e-16, 1.1102230246251565e-16 * 1e-10},
		"overflow":    {math.MaxFloat64, math.MaxFloat64, -1},
	}
	var noisy []float64
	for range 100000 {
		noisy = append(noisy, rng.NormFloat64()*math.Pow(10, float64(rng.IntN(30)-15)))
	}
	cases["noisy"] = noisy
	for name, vs := range cases {
		t.Run(name, func(t *testing.T) {
			want := exactRef(vs)
			if name == "overflow" {
				want = math.Inf(1)
			}
			for round := range 3 {
				if round > 0 {
					rng.Shuffle(len(vs), func(i, j int) { vs[i], vs[j] = vs[j], vs[i] })
				}
				var a StatsAcc
				a.Add(math.NaN())
				for _, v := range vs {
					a.Add(v)
				}
				got := a.Stats()
				if got.Sum != want {
					t.Errorf("round %d: sum %v, want %v", round, got.Sum, want)
				}
				if got.Points != len(vs)+1 || got.NonFinite != 1 || got.Min != slices.Min(vs) || got.Max != slices.Max(vs) ||
					got.Mean != want/float64(len(vs)) {
					t.Errorf("round %d: %+v", round, got)
				}
			}
		})
	}
}

// TestStatsAccMerge checks that accumulators merged give what one
// accumulator given every value gives, bit for bit: the values of
// TestStatsAccExactSum's kinds (cancelling, tiny on big, half an ulp,
// noisy over 30 decades, -0 and 0, NaN and infinities) split into 1 to 8
// shares at random places, shuffled, some shares empty, merged in a random
// order.
func TestStatsAccMerge(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	cases := map[string][]float64{
		"cancelling":  {1e16, 1, -1e16, 1, 3.5, -0.25},
		"tiny on big": append([]float64{1e20}, slices.Repeat([]float64{1}, 1000)...),
		"half ulp":    {1, 1.1102230246251565e-16, 1.1102230246251565e-16 * 1e-10, 1.1102230246251565e-16},
		"zeros":       {0, math.Copysign(0, -1), 0},
		"non-finite":  {math.NaN(), 2, math.Inf(-1), 3, math.Inf(1)},
		"one":         {7},
		"none":        {},
	}
	var noisy []float64
	for range 50000 {
		noisy = append(noisy, rng.NormFloat64()*math.Pow(10, float64(rng.IntN(30)-15)))
	}
	cases["noisy"] = noisy
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for name, vs := range cases {
		var one StatsAcc
		for _, v := range vs {
			one.Add(v)
		}
		want := one.Stats()
		for round := range 20 {
			parts := make([]StatsAcc, 1+rng.IntN(8))
			order := slices.Clone(vs)
			rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
			for _, v := range order {
				parts[rng.IntN(len(parts))].Add(v)
			}
			var got StatsAcc
			for _, i := range rng.Perm(len(parts)) {
				got.Merge(&parts[i])
			}
			g := got.Stats()
			if g.Points != want.Points || g.NonFinite != want.NonFinite || !same(g.Min, want.Min) || !same(g.Max, want.Max) ||
				!same(g.Mean, want.Mean) || !same(g.Sum, want.Sum) {
				t.Errorf("%s round %d (%d shares): merged %+v, one accumulator %+v", name, round, len(parts), g, want)
			}
		}
	}
}
