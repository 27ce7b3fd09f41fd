package plot

import (
	"math"
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
