package plots

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/ui/widgets"
)

// Plot canvas geometry, in device-independent pixels.
const (
	pcLeft   = 64 // value tick labels
	pcBottom = 22 // time tick labels
	pcTop    = 8
	pcRight  = 16
	// pcPick is how near, in pixels, a tap must be to a point to pick it.
	pcPick = 8
)

// plotCanvas draws a plot's series over the shared time window: decimated
// per pixel column and rasterised into one image, with axes, grid, the
// link's cursor and a crosshair drawn as canvas objects. Ctrl+wheel zooms
// the time axis about the mouse, dragging pans, Shift+drag (or Ctrl+drag)
// zooms to a rectangle, a double tap fits and a tap picks the point under
// the mouse; the wheel alone scrolls the plots.
type plotCanvas struct {
	widget.BaseWidget
	// series are the panel's series; hidden and loading ones are skipped.
	series []*plotSeries
	// view holds the time window (set by the group), the value range and
	// the latest frame, in device-independent pixels.
	view     plot.View
	origin   int64
	absolute bool
	plotPointer

	// onWindow is told the window after the user zoomed or panned; final
	// is false while a drag goes on.
	onWindow func(w plot.Window, final bool)
	// onTap is told the picked point (s nil when none is near) and its
	// time, or the time under the tap.
	onTap func(s *plotSeries, index int, t int64)

	r *plotCanvasRenderer
}

var (
	_ fyne.Scrollable     = (*plotCanvas)(nil)
	_ fyne.Draggable      = (*plotCanvas)(nil)
	_ fyne.Tappable       = (*plotCanvas)(nil)
	_ fyne.DoubleTappable = (*plotCanvas)(nil)
	_ desktop.Hoverable   = (*plotCanvas)(nil)
	_ desktop.Mouseable   = (*plotCanvas)(nil)
)

func newPlotCanvas(origin int64, w plot.Window) *plotCanvas {
	c := &plotCanvas{origin: origin}
	c.view.Window = w
	c.ExtendBaseWidget(c)
	return c
}

// visible returns the series drawn: loaded and not hidden.
func (c *plotCanvas) visible() []*plotSeries {
	var out []*plotSeries
	for _, s := range c.series {
		if s.ready() && !s.hidden && !s.isXY() {
			out = append(out, s)
		}
	}
	return out
}

// setWindow shows time window w.
func (c *plotCanvas) setWindow(w plot.Window) {
	if c.view.Window == w {
		return
	}
	c.view.Window = w
	c.Refresh()
}

// setCursor moves the link's cursor line.
func (c *plotCanvas) setCursor(t int64) {
	c.cursor, c.hasCursor = t, true
	c.overlay()
}

// MinSize leaves room for the axes and a readable plot.
func (c *plotCanvas) MinSize() fyne.Size { return fyne.NewSize(pcLeft+pcRight+160, pcTop+pcBottom+90) }

// Scrolled zooms the time axis about the mouse with Ctrl held; without,
// it scrolls the plots.
func (c *plotCanvas) Scrolled(ev *fyne.ScrollEvent) {
	if !c.wheelZooms(ev) {
		return
	}
	c.selected()
	c.view.ZoomAt(float64(ev.Position.X), math.Pow(1/0.85, float64(ev.Scrolled.DY)/10))
	c.changed(true)
}

// Dragged pans, or with Shift or Ctrl draws the zoom rectangle.
func (c *plotCanvas) Dragged(ev *fyne.DragEvent) {
	if c.drag(ev) {
		c.overlay()
		return
	}
	c.view.Pan(float64(ev.Dragged.DX), 0)
	c.changed(false)
}

// DragEnd zooms to the rectangle or ends the pan.
func (c *plotCanvas) DragEnd() {
	if box, ok := c.endDrag(); ok {
		c.view.ZoomRect(box)
		c.Refresh()
	}
	c.changed(true)
}

// changed redraws after the user moved the view and tells the group.
func (c *plotCanvas) changed(final bool) {
	c.Refresh()
	if c.onWindow != nil {
		c.onWindow(c.view.Window, final)
	}
}

// DoubleTapped fits every plot to the data.
func (c *plotCanvas) DoubleTapped(*fyne.PointEvent) {
	c.view.Y = plot.YRange{}
	c.fitted()
	c.Refresh()
}

// Tapped picks the point nearest the tap, or just the time under it.
func (c *plotCanvas) Tapped(ev *fyne.PointEvent) {
	f := c.view.Frame
	x, y := float64(ev.Position.X), float64(ev.Position.Y)
	if !f.Contains(x, y) || c.onTap == nil {
		return
	}
	vis := c.visible()
	data := make([]plot.Series, len(vis))
	for i, s := range vis {
		data[i] = s.data()
	}
	if h, ok := plot.Nearest(data, f, x, y, pcPick); ok {
		i := h.Index
		if vis[h.Series].ms == nil {
			i = -1 // a derived point: found again by its time
		}
		c.onTap(vis[h.Series], i, data[h.Series].Time(h.Index))
		return
	}
	c.onTap(nil, 0, f.Time(x))
}

// MouseIn starts the crosshair.
func (c *plotCanvas) MouseIn(ev *desktop.MouseEvent) { c.MouseMoved(ev) }

// MouseMoved moves the crosshair and reads out each series at its time.
func (c *plotCanvas) MouseMoved(ev *desktop.MouseEvent) {
	c.hoverAt(ev.Position, c.view.Frame)
	c.overlay()
}

// MouseOut hides the crosshair.
func (c *plotCanvas) MouseOut() {
	c.hovering = false
	c.overlay()
}

// readout is the crosshair's time and the value of each shown series
// there, as one line (the box beside the crosshair shows the same).
func (c *plotCanvas) readout() string {
	if !c.hovering {
		return ""
	}
	t := c.view.Frame.Time(float64(c.hover.X))
	parts := []string{c.timeText(t)}
	for _, s := range c.visible() {
		d := s.data()
		if i, ok := d.At(t); ok {
			parts = append(parts, fmt.Sprintf("%s = %s", s.name(), valueText(d.V[i])))
		}
	}
	return strings.Join(parts, "    ")
}

// timeText formats t as the axis does: seconds from the origin or UTC.
func (c *plotCanvas) timeText(t int64) string {
	if c.absolute {
		return time.Unix(0, t).UTC().Format("15:04:05.000000") + " UTC"
	}
	return human.RelTimeN(t-c.origin, 6)
}

func valueText(v float64) string {
	if !finiteF(v) {
		return fmt.Sprint(v)
	}
	return fmt.Sprintf("%.6g", v)
}

// overlay moves the cursor, crosshair and zoom rectangle without redrawing
// the data.
func (c *plotCanvas) overlay() {
	if c.r != nil {
		c.r.overlay()
	}
}

// CreateRenderer draws the plot.
func (c *plotCanvas) CreateRenderer() fyne.WidgetRenderer {
	r := &plotCanvasRenderer{c: c}
	r.init(r.paint)
	r.cursor = canvas.NewRectangle(color.Transparent)
	r.cross = canvas.NewRectangle(color.Transparent)
	c.r = r
	r.build(c.Size())
	return r
}

// plotCanvasRenderer draws a plotCanvas; its read-out is the crosshair's
// box: the time, then each series' value in its colour.
type plotCanvasRenderer struct {
	c *plotCanvas
	plotChrome
	lines  []plotLine
	cursor *canvas.Rectangle
	cross  *canvas.Rectangle
}

func (r *plotCanvasRenderer) Layout(size fyne.Size) { r.build(size) }
func (r *plotCanvasRenderer) MinSize() fyne.Size    { return r.c.MinSize() }
func (r *plotCanvasRenderer) Destroy()              { r.c.r = nil }

func (r *plotCanvasRenderer) Refresh() {
	r.build(r.c.Size())
	canvas.Refresh(r.c)
}

// build decimates the shown series to the data area's pixel columns,
// settles the value range and frame, and lays out axes and overlays.
func (r *plotCanvasRenderer) build(size fyne.Size) {
	c := r.c
	th := c.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	data := plot.Rect{X0: pcLeft, Y0: pcTop, X1: float64(size.Width - pcRight), Y1: float64(size.Height - pcBottom)}
	r.axes = r.axes[:0]
	r.lines = r.lines[:0]
	if data.Dx() < 8 || data.Dy() < 8 || c.view.Window.Duration() <= 0 {
		c.view.Frame = plot.Frame{}
		r.objs = []fyne.CanvasObject{}
		return
	}
	cols := max(1, int(data.Dx()*float64(canvasScale(r.c))))
	w := c.view.Window
	for _, s := range c.visible() {
		s.dec = plot.Decimate(s.dec, s.data(), w, cols)
		r.lines = append(r.lines, plotLine{S: s.dec, C: s.color})
	}
	y0, y1 := c.view.Y.Min, c.view.Y.Max
	if !c.view.Y.Fixed || !(y1 > y0) {
		y0, y1 = autoRange(valueRange(r.lines, w))
	}
	f := plot.Frame{Width: int(size.Width), Height: int(size.Height), Data: data, Window: w, Y0: y0, Y1: y1, Origin: c.origin}
	c.view.Frame = f

	line, text := r.startAxes(th, variant, data)
	for _, tk := range plot.TimeTicks(w, c.origin, c.absolute, max(2, int(data.Dx()/110))) {
		x := float32(f.X(tk.T))
		line(x, float32(data.Y0), 1, float32(data.Dy()))
		text(tk.Label, x, float32(data.Y1)+3, fyne.TextAlignCenter)
	}
	if c.absolute {
		text("UTC", float32(data.X0)-4, float32(data.Y1)+3, fyne.TextAlignTrailing)
	}
	for _, tk := range plot.ValueTicks(y0, y1, max(2, int(data.Dy()/40))) {
		y := float32(f.Y(tk.Value))
		line(float32(data.X0), y, float32(data.Dx()), 1)
		text(tk.Label, float32(data.X0)-4, y-7, fyne.TextAlignTrailing)
	}
	r.finishAxes(data, r.cursor, r.cross, r.boxRect, r.readout)
	r.overlay()
}

// paint rasterises the decimated lines at the raster's pixel size.
func (r *plotCanvasRenderer) paint(img *image.RGBA) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	f := r.c.view.Frame
	pf := plot.Frame{Width: w, Height: h, Data: plot.Rect{X1: float64(w), Y1: float64(h)}, Window: f.Window, Y0: f.Y0, Y1: f.Y1}
	rasterize(img, pf, r.lines, lineWidth(w, f.Valid(), f.Data.Dx()))
}

// overlay places the cursor line, the crosshair and the zoom rectangle.
func (r *plotCanvasRenderer) overlay() {
	c := r.c
	f := c.view.Frame
	th := c.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	r.cursor.Hide()
	r.cross.Hide()
	r.boxRect.Hide()
	r.readout.Hide()
	if !f.Valid() {
		return
	}
	top, h := float32(f.Data.Y0), float32(f.Data.Dy())
	if c.hasCursor && f.Window.Contains(c.cursor) {
		r.cursor.FillColor = th.Color(theme.ColorNameError, variant)
		place(r.cursor, float32(f.X(c.cursor))-1, top, 2, h)
		r.cursor.Show()
	}
	if c.hovering && !c.box {
		r.cross.FillColor = widgets.WithAlpha(th.Color(theme.ColorNameForeground, variant), 140)
		place(r.cross, c.hover.X, top, 1, h)
		r.cross.Show()
		r.placeReadout()
	}
	if c.box {
		r.placeBox(&c.plotPointer, th, variant)
	}
	for _, o := range []fyne.CanvasObject{r.cursor, r.cross, r.boxRect, r.readout} {
		canvas.Refresh(o)
	}
}

// placeReadout fills the crosshair's box and puts it beside the
// crosshair, on the side with room.
func (r *plotCanvasRenderer) placeReadout() {
	c := r.c
	f := c.view.Frame
	th := c.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	t := f.Time(float64(c.hover.X))
	// The text in the theme's foreground at the theme's text size on an
	// opaque box, so it reads over any line; each series' colour is a
	// swatch beside its value, as a dark blue line would not read as text.
	fg := th.Color(theme.ColorNameForeground, variant)
	lines := []*canvas.Text{canvas.NewText(c.timeText(t), fg)}
	swatches := []*canvas.Rectangle{nil}
	for _, s := range c.visible() {
		d := s.data()
		if i, ok := d.At(t); ok {
			lines = append(lines, canvas.NewText(fmt.Sprintf("%s = %s", s.name(), valueText(d.V[i])), fg))
			swatches = append(swatches, canvas.NewRectangle(s.color))
		}
	}
	const pad = 6
	size := th.Size(theme.SizeNameText)
	sw := size * 0.8 // a swatch's side
	var w, h float32
	for _, l := range lines {
		l.TextSize = size
		ms := l.MinSize()
		w = max(w, ms.Width+sw+pad)
		h += ms.Height
	}
	bg := readoutBackground(th, variant)
	objs := []fyne.CanvasObject{bg}
	x := beside(c.hover.X, w, pad, float32(f.Data.X1))
	y := float32(f.Data.Y0) + 4
	place(bg, x, y, w+2*pad, h+2*pad)
	for i, l := range lines {
		ms := l.MinSize()
		if s := swatches[i]; s != nil {
			place(s, x+pad, y+pad+(ms.Height-sw)/2, sw, sw)
			objs = append(objs, s)
		}
		place(l, x+pad+sw+pad, y+pad, ms.Width, ms.Height)
		y += ms.Height
		objs = append(objs, l)
	}
	r.readout.Objects = objs
	r.readout.Show()
}

// place moves and sizes o.
func place(o fyne.CanvasObject, x, y, w, h float32) {
	o.Move(fyne.NewPos(x, y))
	o.Resize(fyne.NewSize(w, h))
}
