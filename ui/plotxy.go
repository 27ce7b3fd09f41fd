package ui

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

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/plot"
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

	cursor    int64
	hasCursor bool
	hover     fyne.Position
	hovering  bool

	dragging bool
	boxMod   bool
	box      bool
	boxFrom  fyne.Position
	boxTo    fyne.Position

	onFit    func()
	onSelect func()
	onTap    func(s *plotSeries, t int64)

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
	if c.r != nil {
		c.r.overlay()
	}
}

// MinSize leaves room for the axes and a readable plot.
func (c *xyCanvas) MinSize() fyne.Size { return fyne.NewSize(pcLeft+pcRight+120, pcTop+pcBottom+90) }

func (c *xyCanvas) selected() {
	if c.onSelect != nil {
		c.onSelect()
	}
}

// Scrolled zooms both axes about the mouse.
func (c *xyCanvas) Scrolled(ev *fyne.ScrollEvent) {
	c.selected()
	c.view.ZoomAt(float64(ev.Position.X), float64(ev.Position.Y), math.Pow(1/0.85, float64(ev.Scrolled.DY)/10))
	c.Refresh()
}

// MouseDown notes whether a drag will pan or draw a zoom rectangle.
func (c *xyCanvas) MouseDown(ev *desktop.MouseEvent) {
	c.selected()
	c.boxMod = ev.Modifier&(fyne.KeyModifierShift|fyne.KeyModifierControl) != 0
}

// MouseUp does nothing more.
func (c *xyCanvas) MouseUp(*desktop.MouseEvent) {}

// Dragged pans, or with Shift or Ctrl draws the zoom rectangle.
func (c *xyCanvas) Dragged(ev *fyne.DragEvent) {
	if !c.dragging {
		c.dragging = true
		c.box = c.boxMod
		c.boxFrom = ev.Position.Subtract(ev.Dragged)
	}
	if c.box {
		c.boxTo = ev.Position
		if c.r != nil {
			c.r.overlay()
		}
		return
	}
	c.view.Pan(float64(ev.Dragged.DX), float64(ev.Dragged.DY))
	c.Refresh()
}

// DragEnd zooms to the rectangle or ends the pan.
func (c *xyCanvas) DragEnd() {
	c.dragging = false
	if c.box {
		c.box = false
		c.view.ZoomRect(plot.Rect{X0: float64(c.boxFrom.X), Y0: float64(c.boxFrom.Y), X1: float64(c.boxTo.X), Y1: float64(c.boxTo.Y)})
	}
	c.Refresh()
}

// DoubleTapped fits the plot to the points (and every plot to the data).
func (c *xyCanvas) DoubleTapped(*fyne.PointEvent) {
	c.view.Fit()
	if c.onFit != nil {
		c.onFit()
	}
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
	c.hover = ev.Position
	c.hovering = c.view.Frame.Contains(float64(ev.Position.X), float64(ev.Position.Y))
	if c.r != nil {
		c.r.overlay()
	}
}

// MouseOut hides the crosshair.
func (c *xyCanvas) MouseOut() {
	c.hovering = false
	if c.r != nil {
		c.r.overlay()
	}
}

// CreateRenderer draws the plot.
func (c *xyCanvas) CreateRenderer() fyne.WidgetRenderer {
	r := &xyRenderer{c: c}
	r.bg = canvas.NewRectangle(color.Transparent)
	r.raster = canvas.NewRaster(r.draw)
	r.crossX = canvas.NewRectangle(color.Transparent)
	r.crossY = canvas.NewRectangle(color.Transparent)
	r.boxRect = canvas.NewRectangle(color.Transparent)
	r.boxRect.StrokeWidth = 1
	r.readout = container.NewWithoutLayout()
	r.marks = container.NewWithoutLayout()
	c.r = r
	r.build(c.Size())
	return r
}

type xyRenderer struct {
	c       *xyCanvas
	bg      *canvas.Rectangle
	raster  *canvas.Raster
	img     *image.RGBA
	paths   []plot.XY // decimated, in logical pixels' frame
	colors  []color.RGBA
	axes    []fyne.CanvasObject
	shapes  shapes
	crossX  *canvas.Rectangle
	crossY  *canvas.Rectangle
	boxRect *canvas.Rectangle
	readout *fyne.Container
	marks   *fyne.Container // the cursor's points
	rings   []*canvas.Circle
	objs    []fyne.CanvasObject
}

func (r *xyRenderer) Layout(size fyne.Size)        { r.build(size) }
func (r *xyRenderer) MinSize() fyne.Size           { return r.c.MinSize() }
func (r *xyRenderer) Objects() []fyne.CanvasObject { return r.objs }
func (r *xyRenderer) Destroy()                     { r.c.r = nil }

func (r *xyRenderer) Refresh() {
	r.build(r.c.Size())
	canvas.Refresh(r.c)
}

// scale is the canvas' device pixels per logical pixel.
func (r *xyRenderer) scale() float64 {
	if app := fyne.CurrentApp(); app != nil {
		if cv := app.Driver().CanvasForObject(r.c); cv != nil && cv.Scale() > 0 {
			return float64(cv.Scale())
		}
	}
	return 1
}

// build settles the bounds and frame, decimates the paths to the device
// pixels and lays out axes and overlays.
func (r *xyRenderer) build(size fyne.Size) {
	c := r.c
	th := c.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	dim := th.Color(theme.ColorNamePlaceHolder, variant)
	grid := th.Color(theme.ColorNameSeparator, variant)
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
	k := r.scale()
	df := plot.XYFrame{Data: plot.Rect{X1: data.Dx() * k, Y1: data.Dy() * k}, B: b}
	r.paths, r.colors = r.paths[:0], r.colors[:0]
	for i, s := range vis {
		s.decXY = plot.DecimateXY(s.decXY, all[i], c.win, df)
		r.paths = append(r.paths, s.decXY)
		r.colors = append(r.colors, s.color)
	}

	r.bg.FillColor = th.Color(theme.ColorNameInputBackground, variant)
	place(r.bg, float32(data.X0), float32(data.Y0), float32(data.Dx()), float32(data.Dy()))
	r.shapes.reset()
	rect := func(x, y, w, h float32, col color.Color) { r.axes = append(r.axes, r.shapes.rect(x, y, w, h, col)) }
	text := func(s string, x, y float32, align fyne.TextAlign) {
		t := r.shapes.text(s, dim, 11)
		sz := t.MinSize()
		switch align {
		case fyne.TextAlignTrailing:
			x -= sz.Width
		case fyne.TextAlignCenter:
			x -= sz.Width / 2
		}
		place(t, x, y, sz.Width, sz.Height)
		r.axes = append(r.axes, t)
	}
	for _, tk := range plot.ValueTicks(b.X0, b.X1, max(2, int(data.Dx()/90))) {
		x := float32(f.X(tk.Value))
		rect(x, float32(data.Y0), 1, float32(data.Dy()), grid)
		text(tk.Label, x, float32(data.Y1)+3, fyne.TextAlignCenter)
	}
	for _, tk := range plot.ValueTicks(b.Y0, b.Y1, max(2, int(data.Dy()/40))) {
		y := float32(f.Y(tk.Value))
		rect(float32(data.X0), y, float32(data.Dx()), 1, grid)
		text(tk.Label, float32(data.X0)-4, y-7, fyne.TextAlignTrailing)
	}
	place(r.raster, float32(data.X0), float32(data.Y0), float32(data.Dx()), float32(data.Dy()))
	r.raster.Refresh()
	r.objs = append([]fyne.CanvasObject{r.bg}, r.axes...)
	r.objs = append(r.objs, r.raster, r.marks, r.crossX, r.crossY, r.boxRect, r.readout)
	r.overlay()
}

// draw rasterises the decimated paths at the raster's pixel size.
func (r *xyRenderer) draw(w, h int) image.Image {
	if w <= 0 || h <= 0 {
		return image.NewRGBA(image.Rect(0, 0, 1, 1))
	}
	if r.img == nil || r.img.Rect.Dx() != w || r.img.Rect.Dy() != h {
		r.img = image.NewRGBA(image.Rect(0, 0, w, h))
	}
	f := r.c.view.Frame
	pf := plot.XYFrame{Width: w, Height: h, Data: plot.Rect{X1: float64(w), Y1: float64(h)}, B: f.B}
	lw := 1
	if f.Valid() {
		lw = max(1, int(math.Round(float64(w)/f.Data.Dx())))
	}
	plot.RasterizeXY(r.img, pf, r.paths, r.colors, lw)
	return r.img
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
		fg := withAlpha(th.Color(theme.ColorNameForeground, variant), 140)
		r.crossX.FillColor, r.crossY.FillColor = fg, fg
		place(r.crossX, c.hover.X, float32(f.Data.Y0), 1, float32(f.Data.Dy()))
		place(r.crossY, float32(f.Data.X0), c.hover.Y, float32(f.Data.Dx()), 1)
		r.crossX.Show()
		r.crossY.Show()
		r.placeReadout()
	}
	if c.box {
		primary := th.Color(theme.ColorNamePrimary, variant)
		r.boxRect.FillColor = withAlpha(primary, 40)
		r.boxRect.StrokeColor = primary
		x0, x1 := min(c.boxFrom.X, c.boxTo.X), max(c.boxFrom.X, c.boxTo.X)
		y0, y1 := min(c.boxFrom.Y, c.boxTo.Y), max(c.boxFrom.Y, c.boxTo.Y)
		place(r.boxRect, x0, y0, x1-x0, y1-y0)
		r.boxRect.Show()
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
		return fmt.Sprintf("%s    x = %s, y = %s", model.RelTimeN(p.T[h.Index]-c.origin, 6), valueText(p.X[h.Index]), valueText(p.Y[h.Index]))
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
	bg := canvas.NewRectangle(th.Color(theme.ColorNameOverlayBackground, variant))
	bg.StrokeColor = th.Color(theme.ColorNameSeparator, variant)
	bg.StrokeWidth = 1
	bg.CornerRadius = 3
	x := c.hover.X + 8
	if x+ms.Width+2*pad > float32(f.Data.X1) {
		x = c.hover.X - 8 - ms.Width - 2*pad
	}
	y := c.hover.Y + 8
	if y+ms.Height+2*pad > float32(f.Data.Y1) {
		y = c.hover.Y - 8 - ms.Height - 2*pad
	}
	place(bg, x, y, ms.Width+2*pad, ms.Height+2*pad)
	place(t, x+pad, y+pad, ms.Width, ms.Height)
	r.readout.Objects = []fyne.CanvasObject{bg, t}
	r.readout.Show()
}
