package timeline

import (
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/ui/widgets"
)

// timelineAxis is the time axis under a View's lanes. It stays in
// view while the lanes scroll; dragging on it selects a range, tapping
// places the cursor, and scrolling zooms as over the lanes.
type timelineAxis struct {
	widget.BaseWidget
	v *View
}

var (
	_ fyne.Draggable      = (*timelineAxis)(nil)
	_ fyne.Tappable       = (*timelineAxis)(nil)
	_ fyne.DoubleTappable = (*timelineAxis)(nil)
	_ fyne.Scrollable     = (*timelineAxis)(nil)
	_ desktop.Hoverable   = (*timelineAxis)(nil)
)

func newTimelineAxis(v *View) *timelineAxis {
	a := &timelineAxis{v: v}
	a.ExtendBaseWidget(a)
	v.axis = a
	return a
}

// Dragged selects a range.
func (a *timelineAxis) Dragged(ev *fyne.DragEvent) { a.v.dragged(ev, true) }

// DragEnd ends the range selection.
func (a *timelineAxis) DragEnd() { a.v.DragEnd() }

// Tapped places the cursor.
func (a *timelineAxis) Tapped(ev *fyne.PointEvent) {
	a.v.Tapped(&fyne.PointEvent{Position: fyne.NewPos(ev.Position.X, -1)})
}

// DoubleTapped zooms to the range or fits.
func (a *timelineAxis) DoubleTapped(ev *fyne.PointEvent) { a.v.DoubleTapped(ev) }

// Scrolled zooms.
func (a *timelineAxis) Scrolled(ev *fyne.ScrollEvent) {
	if ev.Position.X >= a.v.labelW() {
		a.v.Scrolled(ev)
	}
}

// MouseIn and MouseMoved say the time under the mouse.
func (a *timelineAxis) MouseIn(ev *desktop.MouseEvent) { a.MouseMoved(ev) }

// MouseMoved says the time under the mouse and what a drag does.
func (a *timelineAxis) MouseMoved(ev *desktop.MouseEvent) {
	if ev.Position.X < a.v.labelW() {
		a.v.status("")
		return
	}
	a.v.status(widgets.TimeText(a.v.timeAt(ev.Position.X), a.v.tl.Start) + " — drag along the axis to select a range")
}

// MouseOut clears the status.
func (a *timelineAxis) MouseOut() { a.v.status("") }

// MinSize is one line of tick labels.
func (a *timelineAxis) MinSize() fyne.Size { return fyne.NewSize(a.v.labelW()+200, tlAxisH) }

// CreateRenderer draws the axis.
func (a *timelineAxis) CreateRenderer() fyne.WidgetRenderer {
	r := &axisRenderer{a: a}
	r.build()
	return r
}

type axisRenderer struct {
	a      *timelineAxis
	objs   []fyne.CanvasObject
	shapes widgets.Shapes
}

func (r *axisRenderer) Layout(fyne.Size)             { r.build() }
func (r *axisRenderer) MinSize() fyne.Size           { return r.a.MinSize() }
func (r *axisRenderer) Refresh()                     { r.build(); canvas.Refresh(r.a) }
func (r *axisRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *axisRenderer) Destroy()                     {}

func (r *axisRenderer) build() {
	v := r.a.v
	col := colorsOf(r.a)
	objs := r.objs[:0]
	r.shapes.Reset()
	// text puts a label centred under x, kept inside the plot.
	text := func(s string, x, y float32, sz float32) {
		t := r.shapes.Text(s, col.dim, sz)
		w := t.MinSize().Width
		x = min(max(x-w/2, v.labelW()), r.a.Size().Width-w)
		t.Move(fyne.NewPos(x, y))
		t.Resize(t.MinSize())
		objs = append(objs, t)
	}
	fill := func(x, y, w, h float32, c color.Color) { objs = append(objs, r.shapes.Rect(x, y, w, h, c)) }
	pw := v.plotW()
	if v.hasRange && v.r1 >= v.t0 && v.r0 <= v.t1 {
		x0, x1 := max(v.labelW(), v.x(v.r0)), min(v.labelW()+pw, v.x(v.r1))
		fill(x0, 0, max(1, x1-x0), tlAxisH, col.sel)
	}
	fill(v.labelW(), 0, pw, 1, col.dim)
	unit := "time from the start" // the ticks carry their unit: s, min, h, d
	if v.abs {
		unit = time.Unix(0, v.t0).UTC().Format("2006-01-02") + " UTC"
	}
	u := r.shapes.Text(unit, col.dim, 11)
	u.Move(fyne.NewPos(4, 5))
	u.Resize(u.MinSize())
	objs = append(objs, u)
	for _, tk := range v.ticks() {
		x := v.x(tk.T)
		fill(x, 0, 1, 5, col.dim)
		text(tk.Label, x, 5, 11)
	}
	if v.hasCur && v.cursor >= v.t0 && v.cursor <= v.t1 {
		fill(v.x(v.cursor)-1, 0, 2, 8, col.err)
	}
	r.objs = objs
}
