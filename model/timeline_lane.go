package model

import "fmt"

// LaneDrawing is how a topic lane draws the window t0..t1 over a number
// of pixel columns, so that a steady rate looks steady at every zoom:
//
//   - Ticks: no column holds two messages, so each message is drawn as a
//     full-height tick in its column; an empty column is a gap.
//   - Density: columns hold several messages. Columns are counted in bins
//     of BinPx columns, wide enough that a bin holds about
//     LaneBinMessages messages: a steady rate of 2.2 messages per column
//     counted per column alternates 2 and 3 (an on/off pattern that reads
//     as bursts), counted per 24 columns it is 52 or 53. A bin's height is
//     its messages per column that holds one, over the highest bin's
//     (Max, messages per column); each column that holds a message is
//     drawn at its bin's height, a column without one is drawn empty, so
//     a gap is a gap at pixel resolution.
//
// Without the message index the counts are estimates spread over each
// chunk (Exact false) and the lane is always a density.
type LaneDrawing struct {
	Ticks bool
	// Heights has one entry per column: 0 (no message) to 1.
	Heights []float64
	// BinPx is the number of columns per bin (1 for ticks).
	BinPx int
	// Max is the full height: the most messages per column (counted
	// over the columns of a bin that hold a message).
	Max float64
	// Messages is the number of messages in the window.
	Messages float64
	// PerColumnMax is the most messages one column holds.
	PerColumnMax float64
	// Exact says the counts come from the message index.
	Exact bool
	// Span is the window's length, nanoseconds.
	Span int64
}

// LaneBinMessages is the fewest messages a density bin should hold: a
// steady rate then varies between bins by at most 1 in this many. A lane
// h pixels high asks for 3h, so that it varies by less than the half
// pixel that would change the height of a bar (see LaneFor).
const LaneBinMessages = 40

// laneBinPx are the bin widths tried, in columns.
var laneBinPx = []int{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96}

// Lane returns how topic lane i draws t0..t1 over cols pixel columns,
// for bars up to 18 pixels high.
func (tl *Timeline) Lane(i int, t0, t1 int64, cols int) LaneDrawing {
	return tl.LaneFor(i, t0, t1, cols, 18)
}

// LaneFor is Lane for bars up to height pixels high: its bins hold enough
// messages (3 × height) that a steady rate never changes a bar by half
// a pixel.
func (tl *Timeline) LaneFor(i int, t0, t1 int64, cols int, height float32) LaneDrawing {
	binMessages := max(LaneBinMessages, 3*float64(height))
	d := LaneDrawing{Exact: tl.Exact(), BinPx: 1, Span: t1 - t0}
	if cols <= 0 {
		return d
	}
	c := tl.Counts(i, t0, t1, cols)
	d.Heights = make([]float64, cols)
	occupied := 0
	for _, n := range c {
		d.Messages += n
		d.PerColumnMax = max(d.PerColumnMax, n)
		if n > 0 {
			occupied++
		}
	}
	if occupied == 0 {
		return d
	}
	if d.Exact && d.PerColumnMax <= 1 {
		d.Ticks, d.Max = true, 1
		for k, n := range c {
			if n > 0 {
				d.Heights[k] = 1
			}
		}
		return d
	}
	// Bins wide enough to hold LaneBinMessages where there are messages.
	perColumn := d.Messages / float64(occupied)
	d.BinPx = laneBinPx[len(laneBinPx)-1]
	for _, b := range laneBinPx {
		if perColumn*float64(b) >= binMessages {
			d.BinPx = b
			break
		}
	}
	// The columns left over at the end join the last bin: a short bin
	// varies more.
	nb := max(1, cols/d.BinPx)
	bin := func(k int) int { return min(nb-1, k/d.BinPx) }
	bins, occ := make([]float64, nb), make([]float64, nb)
	for k, n := range c {
		bins[bin(k)] += n
		if n > 0 {
			occ[bin(k)]++
		}
	}
	// A bin's height is its messages per column that holds one, so that
	// a bin cut by a gap or by the window's edge is as high as its
	// neighbours when the rate is the same.
	for j := range bins {
		if occ[j] > 0 {
			bins[j] /= occ[j]
			d.Max = max(d.Max, bins[j])
		}
	}
	for k, n := range c {
		if n > 0 {
			d.Heights[k] = bins[bin(k)] / d.Max
		}
	}
	return d
}

// Scale says what the lane's full height stands for: "1 tick = 1
// message" or "max 2.2/px", with the rate it means ("20/s") when asked;
// "≈" marks counts estimated from the chunk index.
func (d LaneDrawing) Scale(withRate bool) string {
	if d.Messages == 0 {
		return "no message"
	}
	if d.Ticks {
		return "1 tick = 1 message"
	}
	approx := ""
	if !d.Exact {
		approx = "≈ "
	}
	s := fmt.Sprintf("%smax %s/px", approx, trimFloat(d.Max))
	if withRate && d.Span > 0 && len(d.Heights) > 0 {
		colNanos := float64(d.Span) / float64(len(d.Heights))
		s += fmt.Sprintf(" (%s/s)", trimFloat(d.Max/(colNanos/1e9)))
	}
	return s
}

// trimFloat prints a count or rate: whole numbers as such, others with
// two significant digits below 10 and one decimal below 100.
func trimFloat(f float64) string {
	switch {
	case f >= 100 || f == float64(int64(f)):
		return fmt.Sprintf("%.0f", f)
	case f >= 10:
		return fmt.Sprintf("%.1f", f)
	default:
		return fmt.Sprintf("%.2g", f)
	}
}
