package ui

import (
	"fmt"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
)

// Timeline geometry, in device-independent pixels.
const (
	tlLabelW = 170 // lane titles
	tlLaneH  = 20
	tlGap    = 4
	tlAxisH  = 28
	tlRight  = 40 // room for the last tick label
)

// TimelineView draws a bag's chunk lane and one density lane per topic
// over a time axis. Scroll zooms about the mouse, dragging pans, a tap
// places the cursor and a double tap fits the whole bag; hovering says
// what is under the mouse.
type TimelineView struct {
	widget.BaseWidget
	tl     *model.Timeline
	t0, t1 int64 // the visible window, nanoseconds
	cursor int64
	hasCur bool
	// OnStatus receives a sentence about what is under the mouse or the
	// cursor.
	OnStatus func(string)
}

var (
	_ fyne.Scrollable     = (*TimelineView)(nil)
	_ fyne.Draggable      = (*TimelineView)(nil)
	_ fyne.Tappable       = (*TimelineView)(nil)
	_ fyne.DoubleTappable = (*TimelineView)(nil)
	_ desktop.Hoverable   = (*TimelineView)(nil)
)

// NewTimelineView shows tl, fitted.
func NewTimelineView(tl *model.Timeline) *TimelineView {
	v := &TimelineView{tl: tl, t0: tl.Start, t1: tl.End}
	v.ExtendBaseWidget(v)
	return v
}

// plotW is the width of the lanes' drawing area.
func (v *TimelineView) plotW() float32 { return max(1, v.Size().Width-tlLabelW-tlRight) }

func (v *TimelineView) x(t int64) float32 {
	return tlLabelW + float32(float64(t-v.t0)/float64(max(1, v.t1-v.t0)))*v.plotW()
}

func (v *TimelineView) timeAt(x float32) int64 {
	f := float64(x-tlLabelW) / float64(v.plotW())
	return v.t0 + int64(f*float64(v.t1-v.t0))
}

// lane returns the lane under y: -1 for the chunk lane's row 0... the
// chunk lane is 0, topic lanes follow; -2 outside.
func (v *TimelineView) lane(y float32) int {
	i := int(y / (tlLaneH + tlGap))
	if y < 0 || i > len(v.tl.Topics) {
		return -2
	}
	return i
}

// Scrolled zooms about the mouse.
func (v *TimelineView) Scrolled(ev *fyne.ScrollEvent) {
	f := math.Pow(0.85, float64(ev.Scrolled.DY)/10)
	v.zoomAt(ev.Position.X, f)
}

func (v *TimelineView) zoomAt(x float32, f float64) {
	at := v.timeAt(x)
	w := int64(float64(v.t1-v.t0) * f)
	full := v.tl.End - v.tl.Start
	w = min(max(w, 1000), full) // no closer than a microsecond, no wider than the bag
	frac := float64(at-v.t0) / float64(max(1, v.t1-v.t0))
	v.t0 = at - int64(frac*float64(w))
	v.t1 = v.t0 + w
	v.clamp()
	v.Refresh()
}

func (v *TimelineView) clamp() {
	w := v.t1 - v.t0
	if v.t0 < v.tl.Start {
		v.t0, v.t1 = v.tl.Start, v.tl.Start+w
	}
	if v.t1 > v.tl.End {
		v.t0, v.t1 = v.tl.End-w, v.tl.End
	}
}

// Dragged pans.
func (v *TimelineView) Dragged(ev *fyne.DragEvent) {
	dt := int64(float64(ev.Dragged.DX) / float64(v.plotW()) * float64(v.t1-v.t0))
	v.t0 -= dt
	v.t1 -= dt
	v.clamp()
	v.Refresh()
}

// DragEnd does nothing more.
func (v *TimelineView) DragEnd() {}

// Tapped places the cursor.
func (v *TimelineView) Tapped(ev *fyne.PointEvent) {
	if ev.Position.X < tlLabelW {
		return
	}
	v.cursor, v.hasCur = v.timeAt(ev.Position.X), true
	v.status(fmt.Sprintf("Cursor at %s", v.timeText(v.cursor)))
	v.Refresh()
}

// DoubleTapped fits the whole bag.
func (v *TimelineView) DoubleTapped(*fyne.PointEvent) {
	v.t0, v.t1 = v.tl.Start, v.tl.End
	v.Refresh()
}

// MouseIn and MouseMoved describe what is under the mouse.
func (v *TimelineView) MouseIn(ev *desktop.MouseEvent) { v.MouseMoved(ev) }

// MouseMoved describes the chunk or topic density under the mouse.
func (v *TimelineView) MouseMoved(ev *desktop.MouseEvent) {
	v.status(v.describe(ev.Position))
}

// MouseOut clears the status.
func (v *TimelineView) MouseOut() { v.status("") }

func (v *TimelineView) status(s string) {
	if v.OnStatus != nil {
		v.OnStatus(s)
	}
}

func (v *TimelineView) timeText(t int64) string {
	return fmt.Sprintf("+%.3f s (%.3f)", float64(t-v.tl.Start)/1e9, float64(t)/1e9)
}

// describe says what is at p.
func (v *TimelineView) describe(p fyne.Position) string {
	if p.X < tlLabelW {
		return ""
	}
	t := v.timeAt(p.X)
	switch l := v.lane(p.Y); {
	case l == 0:
		// Chunks may overlap: name them all.
		s := ""
		for _, c := range v.tl.Chunks {
			if t >= c.T0 && t <= c.T1 || (v.x(c.T1)-v.x(c.T0) < 2 && absf(v.x(c.T0)-p.X) < 2) {
				if s != "" {
					s += "; "
				}
				s += fmt.Sprintf("chunk at %d: %s messages, %s..%s s, %s", c.Pos, model.Count(c.Messages),
					fmt.Sprintf("%.3f", float64(c.T0-v.tl.Start)/1e9), fmt.Sprintf("%.3f", float64(c.T1-v.tl.Start)/1e9), compressionText(c))
				if c.Damaged != "" {
					s += " — DAMAGED: " + c.Damaged
				}
			}
		}
		if s == "" {
			return "No chunk at " + v.timeText(t)
		}
		return s
	case l > 0:
		lane := v.tl.Topics[l-1]
		span := float64(v.tl.End - v.tl.Start)
		b := min(len(lane.Bins)-1, max(0, int(float64(t-v.tl.Start)/span*float64(len(lane.Bins)))))
		rate := lane.Bins[b] / (span / 1e9 / float64(len(lane.Bins)))
		return fmt.Sprintf("%s at %s: about %.1f messages/s", lane.Topic, v.timeText(t), rate)
	}
	return v.timeText(t)
}

func compressionText(c model.ChunkSpan) string {
	if c.Compression == "" || c.Compression == "none" {
		return "uncompressed"
	}
	return fmt.Sprintf("%s to %.0f%%", c.Compression, c.Ratio*100)
}

func absf(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}

// MinSize fits the lanes and the axis.
func (v *TimelineView) MinSize() fyne.Size {
	return fyne.NewSize(tlLabelW+200, float32(len(v.tl.Topics)+1)*(tlLaneH+tlGap)+tlAxisH)
}

// CreateRenderer draws the lanes.
func (v *TimelineView) CreateRenderer() fyne.WidgetRenderer {
	r := &timelineRenderer{v: v}
	r.build()
	return r
}

type timelineRenderer struct {
	v    *TimelineView
	objs []fyne.CanvasObject
}

func (r *timelineRenderer) Layout(fyne.Size)             { r.build() }
func (r *timelineRenderer) MinSize() fyne.Size           { return r.v.MinSize() }
func (r *timelineRenderer) Refresh()                     { r.build(); canvas.Refresh(r.v) }
func (r *timelineRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *timelineRenderer) Destroy()                     {}

// build makes the canvas objects for the current window and size: at most
// one rectangle per pixel column and lane, whatever the bag's size.
func (r *timelineRenderer) build() {
	v := r.v
	th := v.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	fg := th.Color(theme.ColorNameForeground, variant)
	dim := th.Color(theme.ColorNamePlaceHolder, variant)
	primary := th.Color(theme.ColorNamePrimary, variant)
	errc := th.Color(theme.ColorNameError, variant)
	laneBG := th.Color(theme.ColorNameInputBackground, variant)
	objs := r.objs[:0]
	text := func(s string, x, y float32, c color.Color, sz float32) {
		t := canvas.NewText(s, c)
		t.TextSize = sz
		t.Move(fyne.NewPos(x, y))
		t.Resize(t.MinSize())
		objs = append(objs, t)
	}
	rect := func(x, y, w, h float32, c color.Color) {
		rc := canvas.NewRectangle(c)
		rc.Move(fyne.NewPos(x, y))
		rc.Resize(fyne.NewSize(w, h))
		objs = append(objs, rc)
	}
	pw := v.plotW()
	lanes := len(v.tl.Topics) + 1
	for i := 0; i < lanes; i++ {
		y := float32(i) * (tlLaneH + tlGap)
		rect(tlLabelW, y, pw, tlLaneH, laneBG)
		name := "chunks"
		if i > 0 {
			name = v.tl.Topics[i-1].Topic
		}
		text(ellipsize(name, 24), 4, y+2, fg, 12)
	}
	// Chunk lane: overlapping chunks add up their translucent fills.
	for _, c := range v.tl.Chunks {
		if c.T1 < v.t0 || c.T0 > v.t1 {
			continue
		}
		x0 := max(tlLabelW, v.x(c.T0))
		x1 := min(tlLabelW+pw, max(v.x(c.T1), x0+2))
		col := withAlpha(primary, uint8(70+120*(1-min(1, c.Ratio))))
		if c.Damaged != "" {
			col = errc
		}
		rect(x0, 1, x1-x0, tlLaneH-2, col)
		rect(x0, 1, 1, tlLaneH-2, withAlpha(fg, 90)) // a chunk's start, so neighbours stay apart
	}
	// Density lanes: bars per bin, merged to one per pixel column.
	span := float64(v.tl.End - v.tl.Start)
	for i, lane := range v.tl.Topics {
		y := float32(i+1) * (tlLaneH + tlGap)
		if lane.Max == 0 {
			continue
		}
		n := len(lane.Bins)
		lastX := float32(-1)
		var peak float64
		flush := func(x float32) {
			if lastX >= 0 && peak > 0 {
				h := float32(peak/lane.Max) * (tlLaneH - 2)
				rect(lastX, y+tlLaneH-1-h, max(1, x-lastX), h, withAlpha(primary, 200))
			}
		}
		for b := 0; b < n; b++ {
			t := v.tl.Start + int64(float64(b)/float64(n)*span)
			te := v.tl.Start + int64(float64(b+1)/float64(n)*span)
			if te < v.t0 || t > v.t1 {
				continue
			}
			x := float32(math.Floor(float64(max(tlLabelW, v.x(t)))))
			if x != lastX {
				flush(x)
				lastX, peak = x, 0
			}
			peak = max(peak, lane.Bins[b])
		}
		flush(min(tlLabelW+pw, v.x(v.t1)))
	}
	// Time axis: seconds from the bag's start at round steps.
	ay := float32(lanes) * (tlLaneH + tlGap)
	rect(tlLabelW, ay, pw, 1, dim)
	step := niceStep(float64(v.t1-v.t0) / 1e9 / 6)
	first := math.Ceil(float64(v.t0-v.tl.Start)/1e9/step) * step
	for s := first; s <= float64(v.t1-v.tl.Start)/1e9; s += step {
		x := v.x(v.tl.Start + int64(s*1e9))
		rect(x, ay, 1, 5, dim)
		text(trimFloat(s)+" s", x+2, ay+6, dim, 11)
	}
	if v.hasCur && v.cursor >= v.t0 && v.cursor <= v.t1 {
		rect(v.x(v.cursor), 0, 2, ay, errc)
	}
	r.objs = objs
}

// niceStep rounds a step up to 1, 2 or 5 times a power of ten.
func niceStep(s float64) float64 {
	if s <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(s)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= s {
			return m * p
		}
	}
	return 10 * p
}

func trimFloat(f float64) string {
	s := fmt.Sprintf("%.6g", f)
	if s == "-0" {
		return "0"
	}
	return s
}

func withAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), a}
}

func ellipsize(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// newTimelinePane is the timeline above the other views: the lanes with a
// status line.
func newTimelinePane(d *model.Document, l *docLink) (fyne.CanvasObject, *TimelineView) {
	tv := NewTimelineView(model.BuildTimeline(d))
	status := widget.NewLabel("")
	status.Truncation = fyne.TextTruncateEllipsis
	hint := dimText("Scroll to zoom, drag to pan, click to place the cursor, double-click to fit. Red chunks are damaged.", theme.SizeNameCaptionText, fyne.TextAlignLeading)
	tv.OnStatus = status.SetText
	content := container.NewBorder(nil, container.NewVBox(status, hint), nil, nil, container.NewVScroll(tv))
	return content, tv
}

// markFindings marks the chunks holding error findings as damaged.
func (v *TimelineView) markFindings(fs []bag.Finding) {
	for _, f := range fs {
		if f.Severity == bag.Error {
			v.tl.MarkDamaged(f.Offset, f.Offset, f.Message)
		}
	}
	v.Refresh()
}
