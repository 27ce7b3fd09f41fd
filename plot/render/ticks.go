package render

import (
	"math"

	gplot "gonum.org/v1/plot"

	"github.com/bagscope/bagscope/plot"
)

// decimalTicks places about N labelled ticks at round decimal values
// (plot.DecimalTicks), for gonum/plot.
type decimalTicks struct{ N int }

func (d decimalTicks) Ticks(min, max float64) []gplot.Tick {
	return gonumTicks(plot.DecimalTicks(min, max, d.N))
}

// spanTicks labels a time axis of seconds from the start in minutes,
// hours and days (plot.SpanTicks), as the window's plots do, for
// gonum/plot.
type spanTicks struct{ N int }

func (s spanTicks) Ticks(lo, hi float64) []gplot.Tick {
	return gonumTicks(plot.SpanTicks(lo, hi, s.N))
}

// absoluteTicks labels a time axis with UTC clock times (plot.ClockTicks),
// for gonum/plot. Axis values are seconds from origin.
type absoluteTicks struct {
	origin int64
	N      int
}

func (a absoluteTicks) Ticks(lo, hi float64) []gplot.Tick {
	return gonumTicks(plot.ClockTicks(lo, hi, a.origin, a.N))
}

func gonumTicks(ts []plot.AxisTick) []gplot.Tick {
	out := make([]gplot.Tick, len(ts))
	for i, t := range ts {
		out[i] = gplot.Tick{Value: t.Value, Label: t.Label}
	}
	return out
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
