package model

import (
	"math"
	"testing"
)

// every returns times from t0 (inclusive) to t1 (exclusive), dt apart.
func every(t0, t1, dt int64) []int64 {
	var out []int64
	for t := t0; t < t1; t += dt {
		out = append(out, t)
	}
	return out
}

// laneTimeline is a timeline of one topic with messages at times, exact.
func laneTimeline(start, end int64, times []int64) *Timeline {
	tl := &Timeline{Start: start, End: end, Topics: []TopicDensity{{Topic: "/t", Bins: make([]float64, TimelineBins)}}}
	tl.SetIndex(syntheticIndex(map[string][]int64{"/t": times}))
	return tl
}

const sec = int64(1e9)

// TestLaneUniform checks that a steady rate draws as steady at every zoom:
// ticks where messages are sparser than pixels, else every column at the
// same height within 1 in LaneBinMessages, and never an empty column.
func TestLaneUniform(t *testing.T) {
	for _, tc := range []struct {
		name      string
		hz        int64
		span      int64 // the bag's length
		window    int64 // the window shown, from 1/3 in
		cols      int
		wantTicks bool
	}{
		{"20 Hz odom, 2 min at 1088 px", 20, 120 * sec, 120 * sec, 1088, false},
		{"20 Hz odom, 2 min at 2300 px", 20, 120 * sec, 120 * sec, 2300, false},
		{"20 Hz odom zoomed to 40 s", 20, 120 * sec, 40 * sec, 1088, true},
		{"10 Hz scan, 17.7 s at 1088 px", 10, 17700 * sec / 1000, 17700 * sec / 1000, 1088, true},
		{"1 kHz imu, 1 h at 1088 px", 1000, 3600 * sec, 3600 * sec, 1088, false},
		{"1 kHz imu, 1 h zoomed to 3 s", 1000, 3600 * sec, 3 * sec, 850, false},
		{"1 kHz imu, 1 h zoomed to 0.5 s", 1000, 3600 * sec, sec / 2, 850, true},
		{"100 Hz, 37 s at 1000 px (3.7/px)", 100, 37 * sec, 37 * sec, 1000, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tl := laneTimeline(0, tc.span, every(0, tc.span, sec/tc.hz))
			t0 := (tc.span - tc.window) / 3
			d := tl.Lane(0, t0, t0+tc.window, tc.cols)
			if d.Ticks != tc.wantTicks {
				t.Errorf("ticks %v, want %v (max %v per column)", d.Ticks, tc.wantTicks, d.PerColumnMax)
			}
			lo, hi, empty := 2.0, 0.0, 0
			for k, h := range d.Heights {
				if k == len(d.Heights)-1 {
					continue // the last column may hold the window's end alone
				}
				if h == 0 {
					empty++
					continue
				}
				lo, hi = min(lo, h), max(hi, h)
			}
			if !d.Ticks && empty > 0 {
				t.Errorf("%d empty columns in a steady %d Hz lane", empty, tc.hz)
			}
			if hi != 1 || lo < 1-1.0/LaneBinMessages-1e-9 {
				t.Errorf("heights %.3f..%.3f, want within 1/%d of 1 (bins of %d px, scale %s)", lo, hi, LaneBinMessages, d.BinPx, d.Scale(true))
			}
			// Drawn 18 pixels high (or 40 for a taller lane), every bar
			// is as high as the others.
			for _, height := range []float32{18, 40} {
				d := tl.LaneFor(0, t0, t0+tc.window, tc.cols, height)
				px := map[float64]bool{}
				for _, h := range d.Heights[:len(d.Heights)-1] {
					if h > 0 {
						px[math.Round(h*float64(height))] = true
					}
				}
				if len(px) != 1 {
					t.Errorf("bars of %d heights in %v pixels: %v", len(px), height, px)
				}
			}
			if d.Ticks && float64(len(d.Heights)-empty) < d.Messages-1 {
				t.Errorf("%d ticks for %v messages", len(d.Heights)-empty, d.Messages)
			}
		})
	}
}

// TestLaneGap checks that a gap draws empty columns, exactly where the
// gap is, and does not lower the columns beside it.
func TestLaneGap(t *testing.T) {
	times := append(every(0, 40*sec, sec/100), every(50*sec, 100*sec, sec/100)...)
	tl := laneTimeline(0, 100*sec, times)
	const cols = 1000 // 0.1 s per column
	d := tl.Lane(0, 0, 100*sec, cols)
	for k, h := range d.Heights[:cols-1] {
		inGap := k >= 400 && k < 500
		if inGap && h != 0 {
			t.Errorf("column %d in the gap has height %v", k, h)
		}
		if !inGap && h < 1-1.0/LaneBinMessages {
			t.Errorf("column %d beside the gap has height %v", k, h)
		}
	}
	if got := d.Scale(true); got != "max 10/px (100/s)" {
		t.Errorf("scale %q", got)
	}
}

// TestLaneBursty checks that bursts draw as bursts with the per-column
// count as the scale, and the columns between them empty.
func TestLaneBursty(t *testing.T) {
	var times []int64
	for b := int64(0); b < 10; b++ {
		for i := int64(0); i < 20; i++ {
			times = append(times, b*sec+i*1000) // 20 messages within 20 µs each second
		}
	}
	tl := laneTimeline(0, 10*sec, times)
	d := tl.Lane(0, 0, 10*sec, 1000)
	full := 0
	for _, h := range d.Heights {
		switch h {
		case 0:
		case 1:
			full++
		default:
			t.Errorf("a burst column at %v", h)
		}
	}
	if full != 10 || d.Ticks || d.Max != 20 {
		t.Errorf("%d full columns, ticks %v, max %v; want 10 bursts of 20", full, d.Ticks, d.Max)
	}
	if got := d.Scale(false); got != "max 20/px" {
		t.Errorf("scale %q", got)
	}
}

func TestLaneScaleText(t *testing.T) {
	for _, tc := range []struct {
		d    LaneDrawing
		want string
	}{
		{LaneDrawing{}, "no message"},
		{LaneDrawing{Ticks: true, Messages: 3, Exact: true}, "1 tick = 1 message"},
		{LaneDrawing{Max: 2.25, Messages: 9, Exact: true}, "max 2.2/px"},
		{LaneDrawing{Max: 12, Messages: 9}, "≈ max 12/px"},
	} {
		if got := tc.d.Scale(false); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.d, got, tc.want)
		}
	}
}
