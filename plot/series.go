package plot

import (
	"image/color"
	"math"
	"sort"

	timecol "github.com/bagscope/bagscope/plot/column"
)

// Series is one named time series in columnar form: T[i] (nanoseconds since
// the epoch, ascending) and V[i] belong together. Non-finite values are gaps.
// A long series may keep its times compact in C instead (T is then nil):
// Len, Time, Span, At, Extent, Nearest, Stats and Decimate read either; the
// rest (derivations, CSV) take Plain.
type Series struct {
	Name string
	T    []int64
	V    []float64
	C    *timecol.Times
	// Color is the series' colour; nil picks PaletteColor of its position.
	Color color.Color
	// SuspectT and SuspectV are the points read from suspect messages
	// (from a damaged chunk or page: they may not be what was recorded),
	// in time order. They are points of the series too; they are drawn
	// hollow.
	SuspectT []int64
	SuspectV []float64
}

// Suspects returns the index range [i, j) of the suspect points whose
// times lie in w.
func (s Series) Suspects(w Window) (i, j int) {
	i = sort.Search(len(s.SuspectT), func(k int) bool { return s.SuspectT[k] >= w.T0 })
	j = i + sort.Search(len(s.SuspectT)-i, func(k int) bool { return s.SuspectT[i+k] > w.T1 })
	return i, j
}

// Len returns the number of points.
func (s Series) Len() int {
	if s.C != nil {
		return s.C.Len()
	}
	return len(s.T)
}

// Time returns point i's time.
func (s Series) Time(i int) int64 {
	if s.C != nil {
		return s.C.At(i)
	}
	return s.T[i]
}

// Plain returns s with its times in T, decoding a compact column (a copy of
// 8 bytes a point); a series with T already is returned as is.
func (s Series) Plain() Series {
	if s.C != nil {
		s.T, s.C = s.C.Decode(make([]int64, 0, s.C.Len()), 0, s.C.Len()), nil
	}
	return s
}

// Window is a closed time interval [T0, T1] in nanoseconds since the epoch.
type Window struct{ T0, T1 int64 }

// Duration returns T1-T0 in nanoseconds.
func (w Window) Duration() int64 { return w.T1 - w.T0 }

// Contains reports whether t lies in the window.
func (w Window) Contains(t int64) bool { return t >= w.T0 && t <= w.T1 }

// Span returns the index range [i, j) of the points of s whose times lie in w.
func (s Series) Span(w Window) (i, j int) {
	if s.C != nil {
		i = s.C.Search(w.T0)
		if w.T1 == math.MaxInt64 {
			return i, s.C.Len()
		}
		return i, max(i, s.C.Search(w.T1+1))
	}
	i = sort.Search(len(s.T), func(k int) bool { return s.T[k] >= w.T0 })
	j = i + sort.Search(len(s.T)-i, func(k int) bool { return s.T[i+k] > w.T1 })
	return i, j
}

// Extent returns the window from the earliest to the latest time of all
// series; ok is false when they hold no points.
func Extent(series []Series) (w Window, ok bool) {
	for _, s := range series {
		n := s.Len()
		if n == 0 {
			continue
		}
		if t := s.Time(0); !ok || t < w.T0 {
			w.T0 = t
		}
		if t := s.Time(n - 1); !ok || t > w.T1 {
			w.T1 = t
		}
		ok = true
	}
	return w, ok
}

// finite reports whether v is neither NaN nor an infinity.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
