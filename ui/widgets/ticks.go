package widgets

import (
	"fmt"
	"time"

	"github.com/bagscope/bagscope/model/human"
)

// Tick is one labelled mark of the time axis.
type Tick struct {
	T     int64 // nanoseconds since the epoch
	Label string
}

// tickSteps are the steps the axis may use, in nanoseconds: 1, 2 and 5
// times powers of ten up to 10 s, then steps a clock reader expects.
var tickSteps = func() []int64 {
	var s []int64
	for p := int64(1); p <= 1e9; p *= 10 {
		s = append(s, p, 2*p, 5*p)
	}
	for _, sec := range []int64{10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 2 * 86400, 7 * 86400, 14 * 86400, 28 * 86400} {
		s = append(s, sec*1e9)
	}
	return s
}()

// AxisTicks returns the ticks between t0 and t1 at the smallest step that
// keeps them no more than max, labelled as seconds from start (rel) or as
// UTC wall-clock time (abs). Labels carry as many decimals as the step
// needs, so a zoomed-in axis shows milliseconds and below.
func AxisTicks(t0, t1, start int64, abs bool, maxTicks int) []Tick {
	if t1 <= t0 || maxTicks < 1 {
		return nil
	}
	step := tickSteps[len(tickSteps)-1]
	for _, s := range tickSteps {
		if (t1-t0)/s+1 <= int64(maxTicks) {
			step = s
			break
		}
	}
	origin := start
	if abs {
		origin = 0 // steps line up with the wall clock
	}
	k := floorDiv(t0-origin, step)
	if origin+k*step < t0 {
		k++
	}
	var out []Tick
	for t := origin + k*step; t <= t1; t += step {
		out = append(out, Tick{T: t, Label: TickLabel(t, start, step, abs)})
	}
	return out
}

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// decimals is the number of decimal places of seconds a step needs.
func decimals(step int64) int {
	d := 0
	for p := int64(1e9); p > 1 && step%p != 0; p /= 10 {
		d++
	}
	return d
}

// TickLabel labels a tick at t for a step.
func TickLabel(t, start, step int64, abs bool) string {
	d := decimals(step)
	if !abs {
		if step >= 60e9 {
			// Minutes, hours and days, as the span asks: "1 d 12 h",
			// not "129600 s".
			return human.Span(t - start)
		}
		return RelSeconds(t-start, d) + " s"
	}
	tm := time.Unix(0, t).UTC()
	if step >= 86400e9 && step%86400e9 == 0 {
		return tm.Format("Jan 2")
	}
	if step%60e9 == 0 {
		return tm.Format("15:04")
	}
	s := tm.Format("15:04:05")
	if d > 0 {
		frac := fmt.Sprintf("%09d", tm.Nanosecond())
		s += "." + frac[:d]
	}
	return s
}

// RelSeconds formats ns as seconds with d decimals (human.Seconds).
func RelSeconds(ns int64, d int) string { return human.Seconds(ns, d) }

// TimeText is a time both ways, for status lines: "+5.123 s (06:13:25.374 UTC)".
func TimeText(t, start int64) string {
	return fmt.Sprintf("%s (%s UTC)", human.RelTime(t-start), time.Unix(0, t).UTC().Format("2006-01-02 15:04:05.000"))
}
