package plot

import (
	"math"
	"strconv"
	"time"

	"github.com/bagscope/bagscope/model/human"
)

// niceStep returns a step of 1, 2 or 5 times a power of ten close to
// span/n.
func niceStep(span float64, n int) float64 {
	if n < 1 {
		n = 1
	}
	raw := span / float64(n)
	if !(raw > 0) || math.IsInf(raw, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	switch f := raw / p; {
	case f < 1.5:
		return p
	case f < 3.5:
		return 2 * p
	case f < 7.5:
		return 5 * p
	}
	return 10 * p
}

// ticksAt returns major ticks every step (labelled by label) and four or
// one minor ticks between them, within [min, max].
func ticksAt(min, max, step float64, label func(v float64) string) []AxisTick {
	if !(max > min) || !(step > 0) || (max-min)/step > 1000 {
		return nil
	}
	minor := step / 5
	if m := step / math.Pow(10, math.Floor(math.Log10(step))); m == 2 || m == 20 {
		minor = step / 4
	}
	var ticks []AxisTick
	first := math.Ceil(min/minor) * minor
	for i := 0; ; i++ {
		v := first + float64(i)*minor
		if v > max+minor*1e-9 {
			break
		}
		// Snap to a multiple of step when close enough to be one.
		k := math.Round(v / step)
		if math.Abs(v-k*step) < minor*1e-6 {
			v = k * step
			ticks = append(ticks, AxisTick{Value: v, Label: label(v)})
		} else {
			ticks = append(ticks, AxisTick{Value: v})
		}
	}
	return ticks
}

// decimalTicks places about N labelled ticks at round decimal values.
type decimalTicks struct{ N int }

func (d decimalTicks) Ticks(min, max float64) []AxisTick {
	step := niceStep(max-min, d.N)
	prec := max0(-int(math.Floor(math.Log10(step) + 1e-9)))
	big := math.Max(math.Abs(min), math.Abs(max))
	return ticksAt(min, max, step, func(v float64) string {
		if v == 0 {
			return "0"
		}
		if big >= 1e7 || big < 1e-4 {
			return strconv.FormatFloat(v, 'g', 4, 64)
		}
		return strconv.FormatFloat(v, 'f', prec, 64)
	})
}

func max0(n int) int {
	if n < 0 {
		return 0
	}
	return n
}

// spanSteps are the tick steps, in seconds, of a relative time axis once
// its step is a minute or more: minutes, hours and days a reader counts in.
var spanSteps = []float64{60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400}

// relativeTicks labels a time axis of seconds from the start: in seconds
// ("2.5 s") while the step is under a minute, then in minutes, hours and
// days ("1 d 12 h") at steps of spanSteps, as human.Span writes them.
type relativeTicks struct{ N int }

func (r relativeTicks) Ticks(lo, hi float64) []AxisTick {
	span := hi - lo
	if step := niceStep(span, r.N); step < 60 {
		ticks := decimalTicks(r).Ticks(lo, hi)
		for i := range ticks {
			if ticks[i].Label != "" {
				ticks[i].Label += " s"
			}
		}
		return ticks
	}
	step := spanSteps[len(spanSteps)-1]
	for _, s := range spanSteps {
		if s >= span/float64(max(r.N, 1))*0.75 {
			step = s
			break
		}
	}
	return ticksAt(lo, hi, step, func(v float64) string { return human.Span(int64(math.Round(v)) * 1e9) })
}

// clockSteps are the tick steps, in seconds, of an absolute time axis at one
// second and above.
var clockSteps = []float64{1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400}

// absoluteTicks labels a time axis with UTC clock times. Axis values are
// seconds from origin (ns since the epoch); ticks fall on round clock times.
type absoluteTicks struct {
	origin int64
	N      int
}

func (a absoluteTicks) Ticks(lo, hi float64) []AxisTick {
	// Work in seconds since the start of the origin's UTC day, so that round
	// numbers are round clock times and float64 keeps sub-microsecond
	// precision.
	day := a.origin - a.origin%int64(24*time.Hour)
	shift := float64(a.origin-day) / 1e9
	span := hi - lo
	step := niceStep(span, a.N)
	if step >= 1 {
		step = clockSteps[len(clockSteps)-1]
		for _, s := range clockSteps {
			if s >= span/float64(max(a.N, 1))*0.75 {
				step = s
				break
			}
		}
	}
	layout := "15:04:05"
	switch {
	case step < 0.01:
		layout = "15:04:05.000"
	case step < 0.1:
		layout = "15:04:05.00"
	case step < 1:
		layout = "15:04:05.0"
	case step >= 60 && math.Mod(step, 60) == 0:
		layout = "15:04"
	}
	ticks := ticksAt(lo+shift, hi+shift, step, func(v float64) string {
		return time.Unix(0, day+int64(math.Round(v*1e9))).UTC().Format(layout)
	})
	for i := range ticks {
		ticks[i].Value -= shift
	}
	return ticks
}

// DecimalTicks returns the ticks of a value axis within [min, max] as
// Render draws them: about n labelled at round decimal values, and minor
// ones (no label) between them.
func DecimalTicks(min, max float64, n int) []AxisTick { return decimalTicks{N: n}.Ticks(min, max) }

// ClockTicks returns the ticks of a time axis whose values are seconds from
// origin (nanoseconds since the epoch), within [lo, hi], labelled with round
// UTC clock times as Render draws them: about n labelled, and minor ones.
func ClockTicks(lo, hi float64, origin int64, n int) []AxisTick {
	return absoluteTicks{origin: origin, N: n}.Ticks(lo, hi)
}
