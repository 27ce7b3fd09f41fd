package plot

import (
	"image/color"
	"math"
	"sort"
)

// Series is one named time series in columnar form: T[i] (nanoseconds since
// the epoch, ascending) and V[i] belong together. Non-finite values are gaps.
type Series struct {
	Name string
	T    []int64
	V    []float64
	// Color is the series' colour; nil picks PaletteColor of its position.
	Color color.Color
}

// Len returns the number of points.
func (s Series) Len() int { return len(s.T) }

// Window is a closed time interval [T0, T1] in nanoseconds since the epoch.
type Window struct{ T0, T1 int64 }

// Duration returns T1-T0 in nanoseconds.
func (w Window) Duration() int64 { return w.T1 - w.T0 }

// Contains reports whether t lies in the window.
func (w Window) Contains(t int64) bool { return t >= w.T0 && t <= w.T1 }

// Span returns the index range [i, j) of the points of s whose times lie in w.
func (s Series) Span(w Window) (i, j int) {
	i = sort.Search(len(s.T), func(k int) bool { return s.T[k] >= w.T0 })
	j = i + sort.Search(len(s.T)-i, func(k int) bool { return s.T[i+k] > w.T1 })
	return i, j
}

// Extent returns the window from the earliest to the latest time of all
// series; ok is false when they hold no points.
func Extent(series []Series) (w Window, ok bool) {
	for _, s := range series {
		if len(s.T) == 0 {
			continue
		}
		if !ok || s.T[0] < w.T0 {
			w.T0 = s.T[0]
		}
		if !ok || s.T[len(s.T)-1] > w.T1 {
			w.T1 = s.T[len(s.T)-1]
		}
		ok = true
	}
	return w, ok
}

// finite reports whether v is neither NaN nor an infinity.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
