package plots

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/ui/widgets"
)

// xyCanvas draws a panel's XY paths (y against x) over the points whose
// times lie in the shared time window, with each path's point at the
// link's cursor marked by a ring. Scrolling zooms both axes about the
// mouse, dragging pans, Shift+drag (or Ctrl+drag) zooms to a rectangle, a
// double tap fits and a tap picks the point under the mouse (its time
// becomes the current time, its message the selected one).
type xyCanvas struct {
	widget.BaseWidget
	series []*plotSeries
	view   plot.XYView
	win    plot.Window
	origin int64 // the time shown as 0 s
	plotPointer

	onTap func(s *plotSeries, t int64)

	r *xyRenderer
}

var (
	_ fyne.Scrollable     = (*xyCanvas)(nil)
	_ fyne.Draggable      = (*xyCanvas)(nil)
	_ fyne.Tappable       = (*xyCanvas)(nil)
	_ fyne.DoubleTappable = (*xyCanvas)(nil)
	_ desktop.Hoverable   = (*xyCanvas)(nil)
	_ desktop.Mouseable   = (*xyCanvas)(nil)
)

func newXYCanvas(origin int64, w plot.Window) *xyCanvas {
	c := &xyCanvas{origin: origin, win: w}
	c.ExtendBaseWidget(c)
	return c
}

// visible returns the paths drawn: loaded and not hidden.
func (c *xyCanvas) visible() []*plotSeries {
	var out []*plotSeries
	for _, s := range c.series {
		if s.isXY() && s.ready() && !s.hidden {
			out = append(out, s)
		}
	}
	return out
}

// visibleData is the shown paths' points, for export.
func (c *xyCanvas) visibleData() []plot.XY {
	var out []plot.XY
	for _, s := range c.visible() {
		out = append(out, s.xyData())
	}
	return out
}

// setWindow shows the points inside time window w.
func (c *xyCanvas) setWindow(w plot.Window) {
	if c.win == w {
		return
	}
	c.win = w
	c.Refresh()
}

// setCursor moves the marked points to time t.
func (c *xyCanvas) setCursor(t int64) {
	c.cursor, c.hasCursor = t, true
	c.overlay()
}

// overlay moves the marked points, crosshair and zoom rectangle without
// redrawing the paths.
func (c *xyCanvas) overlay() {
	if c.r != nil {
		c.r.overlay()
	}
}

// MinSize leaves room for the axes and a readable plot.
func (c *xyCanvas) MinSize() fyne.Size { return fyne.NewSize(pcLeft+pcRight+120, pcTop+pcBottom+90) }

// Scrolled zooms both axes about the mouse with Ctrl held; without, it
// scrolls the plots.
func (c *xyCanvas) Scrolled(ev *fyne.ScrollEvent) {
	if !c.wheelZooms(ev) {
		return
	}
	c.selected()
	c.view.ZoomAt(float64(ev.Position.X), float64(ev.Position.Y), math.Pow(1/0.85, float64(ev.Scrolled.DY)/10))
	c.Refresh()
}

// Dragged pans, or with Shift or Ctrl draws the zoom rectangle.
func (c *xyCanvas) Dragged(ev *fyne.DragEvent) {
	if c.drag(ev) {
		c.overlay()
		return
	}
	c.view.Pan(float64(ev.Dragged.DX), float64(ev.Dragged.DY))
	c.Refresh()
}

// DragEnd zooms to the rectangle or ends the pan.
func (c *xyCanvas) DragEnd() {
	if box, ok := c.endDrag(); ok {
		c.view.ZoomRect(box)
	}
	c.Refresh()
}

// DoubleTapped fits the plot to the points (and every plot to the data).
func (c *xyCanvas) DoubleTapped(*fyne.PointEvent) {
	c.view.Fit()
	c.fitted()
	c.Refresh()
}

// Tapped picks the point nearest the tap.
func (c *xyCanvas) Tapped(ev *fyne.PointEvent) {
	f := c.view.Frame
	x, y := float64(ev.Position.X), float64(ev.Position.Y)
	if !f.Contains(x, y) || c.onTap == nil {
		return
	}
	vis := c.visible()
	paths := make([]plot.XY, len(vis))
	for i, s := range vis {
		paths[i] = s.xyData()
	}
	if h, ok := plot.NearestXY(paths, c.win, f, x, y, pcPick); ok {
		c.onTap(vis[h.Series], paths[h.Series].T[h.Index])
	}
}

// MouseIn starts the crosshair.
func (c *xyCanvas) MouseIn(ev *desktop.MouseEvent) { c.MouseMoved(ev) }

// MouseMoved moves the crosshair.
func (c *xyCanvas) MouseMoved(ev *desktop.MouseEvent) {
	c.hoverAt(ev.Position, c.view.Frame)
	c.overlay()
}

// MouseOut hides the crosshair.
func (c *xyCanvas) MouseOut() {
	c.hovering = false
	c.overlay()
}

// CreateRenderer draws the plot.
func (c *xyCanvas) CreateRenderer() fyne.WidgetRenderer {
	r := &xyRenderer{c: c}
	r.init(r.paint)
	r.crossX = canvas.NewRectangle(color.Transparent)
	r.crossY = canvas.NewRectangle(color.Transparent)
	r.marks = container.NewWithoutLayout()
	c.r = r
	r.build(c.Size())
	return r
}

type xyRenderer struct {
	c *xyCanvas
	plotChrome
	paths  []plot.XY // decimated, in logical pixels' frame
	colors []color.RGBA
	crossX *canvas.Rectangle
	crossY *canvas.Rectangle
	marks  *fyne.Container // the cursor's points
	rings  []*canvas.Circle
}

func (r *xyRenderer) Layout(size fyne.Size) { r.build(size) }
func (r *xyRenderer) MinSize() fyne.Size    { return r.c.MinSize() }
func (r *xyRenderer) Destroy()              { r.c.r = nil }

func (r *xyRenderer) Refresh() {
	r.build(r.c.Size())
	canvas.Refresh(r.c)
}

// build settles the bounds and frame, decimates the paths to the device
// pixels and lays out axes and overlays.
func (r *xyRenderer) build(size fyne.Size) {
	c := r.c
	th := c.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	data := plot.Rect{X0: pcLeft, Y0: pcTop, X1: float64(size.Width - pcRight), Y1: float64(size.Height - pcBottom)}
	r.axes = r.axes[:0]
	if data.Dx() < 8 || data.Dy() < 8 {
		c.view.Frame = plot.XYFrame{}
		r.objs = []fyne.CanvasObject{}
		return
	}
	vis := c.visible()
	all := make([]plot.XY, len(vis))
	for i, s := range vis {
		all[i] = s.xyData()
	}
	b := c.view.Bounds(all, c.win, data.Dx(), data.Dy())
	f := plot.XYFrame{Width: int(size.Width), Height: int(size.Height), Data: data, B: b}
	c.view.Frame = f
	// Decimate at device pixels, where the raster draws.
	k := float64(canvasScale(r.c))
	df := plot.XYFrame{Data: plot.Rect{X1: data.Dx() * k, Y1: data.Dy() * k}, B: b}
	r.paths, r.colors = r.paths[:0], r.colors[:0]
	for i, s := range vis {
		s.decXY = plot.DecimateXY(s.decXY, all[i], c.win, df)
		r.paths = append(r.paths, s.decXY)
		r.colors = append(r.colors, s.color)
	}

	line, text := r.startAxes(th, variant, data)
	for _, tk := range plot.ValueTicks(b.X0, b.X1, max(2, int(data.Dx()/90))) {
		x := float32(f.X(tk.Value))
		line(x, float32(data.Y0), 1, float32(data.Dy()))
		text(tk.Label, x, float32(data.Y1)+3, fyne.TextAlignCenter)
	}
	for _, tk := range plot.ValueTicks(b.Y0, b.Y1, max(2, int(data.Dy()/40))) {
		y := float32(f.Y(tk.Value))
		line(float32(data.X0), y, float32(data.Dx()), 1)
		text(tk.Label, float32(data.X0)-4, y-7, fyne.TextAlignTrailing)
	}
	r.finishAxes(data, r.marks, r.crossX, r.crossY, r.boxRect, r.readout)
	r.overlay()
}

// paint rasterises the decimated paths at the raster's pixel size.
func (r *xyRenderer) paint(img *image.RGBA) {
	w, h := img.Rect.Dx(), img.Rect.Dy()
	f := r.c.view.Frame
	pf := plot.XYFrame{Width: w, Height: h, Data: plot.Rect{X1: float64(w), Y1: float64(h)}, B: f.B}
	plot.RasterizeXY(img, pf, r.paths, r.colors, lineWidth(w, f.Valid(), f.Data.Dx()))
}

// overlay places the cursor's points, the crosshair with its read-out and
// the zoom rectangle.
func (r *xyRenderer) overlay() {
	c := r.c
	f := c.view.Frame
	th := c.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	r.crossX.Hide()
	r.crossY.Hide()
	r.boxRect.Hide()
	r.readout.Hide()
	r.marks.Objects = r.marks.Objects[:0]
	if !f.Valid() {
		return
	}
	if c.hasCursor {
		bg := th.Color(theme.ColorNameBackground, variant)
		n := 0
		for _, s := range c.visible() {
			p := s.xyData()
			i, ok := p.At(c.cursor)
			if !ok || !c.win.Contains(p.T[i]) || !finiteF(p.X[i]) || !finiteF(p.Y[i]) {
				continue
			}
			x, y := float32(f.X(p.X[i])), float32(f.Y(p.Y[i]))
			if !f.Contains(float64(x), float64(y)) {
				continue
			}
			// The rings are reused: playback moves them every frame, and
			// Fyne caches every object it has drawn for a minute.
			if n == len(r.rings) {
				r.rings = append(r.rings, canvas.NewCircle(bg))
			}
			ring := r.rings[n]
			n++
			ring.FillColor = bg
			ring.StrokeColor = s.color
			ring.StrokeWidth = 3
			const d = 13
			place(ring, x-d/2, y-d/2, d, d)
			r.marks.Objects = append(r.marks.Objects, ring)
		}
	}
	if c.hovering && !c.box {
		fg := widgets.WithAlpha(th.Color(theme.ColorNameForeground, variant), 140)
		r.crossX.FillColor, r.crossY.FillColor = fg, fg
		place(r.crossX, c.hover.X, float32(f.Data.Y0), 1, float32(f.Data.Dy()))
		place(r.crossY, float32(f.Data.X0), c.hover.Y, float32(f.Data.Dx()), 1)
		r.crossX.Show()
		r.crossY.Show()
		r.placeReadout()
	}
	if c.box {
		r.placeBox(&c.plotPointer, th, variant)
	}
	for _, o := range []fyne.CanvasObject{r.marks, r.crossX, r.crossY, r.boxRect, r.readout} {
		canvas.Refresh(o)
	}
}

// readoutText is the coordinates of the point nearest the pointer (within
// a few pixels) with its time, or else the pointer's coordinates.
func (c *xyCanvas) readoutText() string {
	f := c.view.Frame
	x, y := float64(c.hover.X), float64(c.hover.Y)
	vis := c.visible()
	paths := make([]plot.XY, len(vis))
	for i, s := range vis {
		paths[i] = s.xyData()
	}
	if h, ok := plot.NearestXY(paths, c.win, f, x, y, 2*pcPick); ok {
		p := paths[h.Series]
		return fmt.Sprintf("%s    x = %s, y = %s", human.RelTimeN(p.T[h.Index]-c.origin, 6), valueText(p.X[h.Index]), valueText(p.Y[h.Index]))
	}
	return fmt.Sprintf("x = %s, y = %s", valueText(f.ValueX(x)), valueText(f.ValueY(y)))
}

// placeReadout shows the pointer's coordinates beside the crosshair.
func (r *xyRenderer) placeReadout() {
	c := r.c
	f := c.view.Frame
	th := c.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	t := canvas.NewText(c.readoutText(), th.Color(theme.ColorNameForeground, variant))
	t.TextSize = th.Size(theme.SizeNameText)
	ms := t.MinSize()
	const pad = 6
	bg := readoutBackground(th, variant)
	x := beside(c.hover.X, ms.Width, pad, float32(f.Data.X1))
	y := beside(c.hover.Y, ms.Height, pad, float32(f.Data.Y1))
	place(bg, x, y, ms.Width+2*pad, ms.Height+2*pad)
	place(t, x+pad, y+pad, ms.Width, ms.Height)
	r.readout.Objects = []fyne.CanvasObject{bg, t}
	r.readout.Show()
}
