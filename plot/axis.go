package plot

import "math"

// AxisTick is a labelled tick on a value axis.
type AxisTick struct {
	Value float64
	Label string
}

// TimeTick is a labelled tick on a time axis.
type TimeTick struct {
	T     int64 // nanoseconds since the epoch
	Label string
}

// ValueTicks returns about n labelled ticks at round values within
// [lo, hi], labelled as Render labels its value axis. A GUI that draws its
// own axes uses it to match the exported images.
func ValueTicks(lo, hi float64, n int) []AxisTick {
	var out []AxisTick
	for _, t := range (decimalTicks{N: n}).Ticks(lo, hi) {
		if t.Label != "" {
			out = append(out, AxisTick{t.Value, t.Label})
		}
	}
	return out
}

// TimeTicks returns about n labelled ticks within window w: the time from
// origin at round steps, with its unit ("2.5 s", "15 min", "1 d 6 h"), or,
// when absolute, round UTC clock times.
func TimeTicks(w Window, origin int64, absolute bool, n int) []TimeTick {
	lo, hi := float64(w.T0-origin)/1e9, float64(w.T1-origin)/1e9
	var out []TimeTick
	ticks := (relativeTicks{N: n}).Ticks(lo, hi)
	if absolute {
		ticks = (absoluteTicks{origin: origin, N: n}).Ticks(lo, hi)
	}
	for _, t := range ticks {
		if t.Label != "" {
			out = append(out, TimeTick{origin + int64(math.Round(t.Value*1e9)), t.Label})
		}
	}
	return out
}

// SpanTicks returns about n ticks of a relative time axis over [lo, hi]
// seconds from the start, labelled as TimeTicks labels them: "2.5 s"
// while the step is under a minute, then "15 min", "2 h", "1 d 12 h".
func SpanTicks(lo, hi float64, n int) []AxisTick { return relativeTicks{N: n}.Ticks(lo, hi) }

// InSeconds says whether a relative time axis over span seconds with
// about n ticks steps in seconds (under a minute): its ticks are then
// plain numbers of seconds, else SpanTicks's minutes, hours and days.
func InSeconds(span float64, n int) bool { return niceStep(span, n) < 60 }
