package plots

import (
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"

	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/ui/widgets"
)

// plotPointer is what the time-series and the XY plot canvases both keep
// of the pointer: the link's cursor, the crosshair's position and a drag
// that pans or (begun with Shift or Ctrl) draws a zoom rectangle.
type plotPointer struct {
	cursor    int64
	hasCursor bool
	hover     fyne.Position
	hovering  bool

	dragging bool
	boxMod   bool // the button went down with Shift or Ctrl
	box      bool
	boxFrom  fyne.Position
	boxTo    fyne.Position

	// onFit is told the user double-tapped to fit every plot to the data.
	onFit func()
	// onSelect is told that the user pointed at the plot (to select it).
	onSelect func()
	// onScroll is handed the wheel turned without Ctrl (it scrolls the
	// plots).
	onScroll func(ev *fyne.ScrollEvent)
}

// keyModifiers are the modifier keys held now (none where the driver
// cannot tell; tests set them).
var keyModifiers = func() fyne.KeyModifier {
	if d, ok := fyne.CurrentApp().Driver().(desktop.Driver); ok {
		return d.CurrentKeyModifiers()
	}
	return 0
}

// wheelZooms tells whether a turn of the wheel zooms the plot: with Ctrl
// (or Cmd) held, as in browsers and PlotJuggler. Without, the turn is
// handed on to scroll the plots, and wheelZooms reports false.
func (p *plotPointer) wheelZooms(ev *fyne.ScrollEvent) bool {
	if keyModifiers()&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0 {
		return true
	}
	if p.onScroll != nil {
		p.onScroll(ev)
	}
	return false
}

// selected tells the panel the user pointed at it.
func (p *plotPointer) selected() {
	if p.onSelect != nil {
		p.onSelect()
	}
}

// fitted tells the group the user asked to fit every plot to the data.
func (p *plotPointer) fitted() {
	if p.onFit != nil {
		p.onFit()
	}
}

// MouseDown notes whether a drag will pan or draw a zoom rectangle.
func (p *plotPointer) MouseDown(ev *desktop.MouseEvent) {
	p.selected()
	p.boxMod = ev.Modifier&(fyne.KeyModifierShift|fyne.KeyModifierControl) != 0
}

// MouseUp does nothing more.
func (p *plotPointer) MouseUp(*desktop.MouseEvent) {}

// drag follows a drag step and reports whether it draws the zoom rectangle
// (the caller redraws the overlay) rather than panning.
func (p *plotPointer) drag(ev *fyne.DragEvent) bool {
	if !p.dragging {
		p.dragging = true
		p.box = p.boxMod
		p.boxFrom = ev.Position.Subtract(ev.Dragged)
	}
	if p.box {
		p.boxTo = ev.Position
	}
	return p.box
}

// endDrag ends a drag and returns the zoom rectangle, if it drew one.
func (p *plotPointer) endDrag() (plot.Rect, bool) {
	p.dragging = false
	if !p.box {
		return plot.Rect{}, false
	}
	p.box = false
	return plot.Rect{X0: float64(p.boxFrom.X), Y0: float64(p.boxFrom.Y), X1: float64(p.boxTo.X), Y1: float64(p.boxTo.Y)}, true
}

// hoverAt moves the crosshair to pos, shown while pos is in frame f.
func (p *plotPointer) hoverAt(pos fyne.Position, f interface{ Contains(x, y float64) bool }) {
	p.hover = pos
	p.hovering = f.Contains(float64(pos.X), float64(pos.Y))
}

// plotChrome is what both plot renderers draw around their data: the data
// area's background, the raster of the data, the axes' grid lines and
// labels, the zoom rectangle and the crosshair's read-out box.
type plotChrome struct {
	bg      *canvas.Rectangle
	raster  *canvas.Raster
	img     *image.RGBA
	paint   func(img *image.RGBA) // draws the data into the raster's image
	axes    []fyne.CanvasObject
	shapes  widgets.Shapes // the axes' grid lines and labels
	boxRect *canvas.Rectangle
	readout *fyne.Container
	objs    []fyne.CanvasObject
}

// init makes the objects; paint draws the data at the raster's pixel size.
func (p *plotChrome) init(paint func(img *image.RGBA)) {
	p.paint = paint
	p.bg = canvas.NewRectangle(color.Transparent)
	p.raster = canvas.NewRaster(p.draw)
	p.boxRect = canvas.NewRectangle(color.Transparent)
	p.boxRect.StrokeWidth = 1
	p.readout = container.NewWithoutLayout()
}

func (p *plotChrome) Objects() []fyne.CanvasObject { return p.objs }

// draw paints into an image of the raster's pixel size, reused while the
// size holds.
func (p *plotChrome) draw(w, h int) image.Image {
	if w <= 0 || h <= 0 {
		return image.NewRGBA(image.Rect(0, 0, 1, 1))
	}
	if p.img == nil || p.img.Rect.Dx() != w || p.img.Rect.Dy() != h {
		p.img = image.NewRGBA(image.Rect(0, 0, w, h))
	}
	p.paint(p.img)
	return p.img
}

// lineWidth is the raster's line width in device pixels for an image w
// pixels wide over a data area dataW logical pixels wide (valid when the
// frame is).
func lineWidth(w int, valid bool, dataW float64) int {
	if !valid {
		return 1
	}
	return max(1, int(math.Round(float64(w)/dataW)))
}

// startAxes fills the data area's background and returns how to add a
// grid line and a tick label to the axes.
func (p *plotChrome) startAxes(th fyne.Theme, variant fyne.ThemeVariant, data plot.Rect) (line func(x, y, w, h float32), text func(s string, x, y float32, align fyne.TextAlign)) {
	dim := th.Color(theme.ColorNamePlaceHolder, variant)
	grid := th.Color(theme.ColorNameSeparator, variant)
	p.axes = p.axes[:0]
	p.bg.FillColor = th.Color(theme.ColorNameInputBackground, variant)
	place(p.bg, float32(data.X0), float32(data.Y0), float32(data.Dx()), float32(data.Dy()))
	p.shapes.Reset()
	line = func(x, y, w, h float32) { p.axes = append(p.axes, p.shapes.Rect(x, y, w, h, grid)) }
	text = func(s string, x, y float32, align fyne.TextAlign) {
		t := p.shapes.Text(s, dim, 11)
		sz := t.MinSize()
		switch align {
		case fyne.TextAlignTrailing:
			x -= sz.Width
		case fyne.TextAlignCenter:
			x -= sz.Width / 2
		}
		place(t, x, y, sz.Width, sz.Height)
		p.axes = append(p.axes, t)
	}
	return line, text
}

// finishAxes places the raster over the data area and stacks the objects:
// the background, the axes, the raster, then the overlays.
func (p *plotChrome) finishAxes(data plot.Rect, overlays ...fyne.CanvasObject) {
	place(p.raster, float32(data.X0), float32(data.Y0), float32(data.Dx()), float32(data.Dy()))
	p.raster.Refresh()
	p.objs = append([]fyne.CanvasObject{p.bg}, p.axes...)
	p.objs = append(p.objs, p.raster)
	p.objs = append(p.objs, overlays...)
}

// placeBox shows the zoom rectangle q is drawing.
func (p *plotChrome) placeBox(q *plotPointer, th fyne.Theme, variant fyne.ThemeVariant) {
	primary := th.Color(theme.ColorNamePrimary, variant)
	p.boxRect.FillColor = widgets.WithAlpha(primary, 40)
	p.boxRect.StrokeColor = primary
	x0, x1 := min(q.boxFrom.X, q.boxTo.X), max(q.boxFrom.X, q.boxTo.X)
	y0, y1 := min(q.boxFrom.Y, q.boxTo.Y), max(q.boxFrom.Y, q.boxTo.Y)
	place(p.boxRect, x0, y0, x1-x0, y1-y0)
	p.boxRect.Show()
}

// readoutBackground is the opaque box behind the crosshair's read-out.
func readoutBackground(th fyne.Theme, variant fyne.ThemeVariant) *canvas.Rectangle {
	bg := canvas.NewRectangle(th.Color(theme.ColorNameOverlayBackground, variant))
	bg.StrokeColor = th.Color(theme.ColorNameSeparator, variant)
	bg.StrokeWidth = 1
	bg.CornerRadius = 3
	return bg
}

// beside is where a read-out w wide plus padding pad each side starts
// along an axis: just after the pointer at, or before it when it would pass
// end.
func beside(at, w, pad, end float32) float32 {
	x := at + 8
	if x+w+2*pad > end {
		x = at - 8 - w - 2*pad
	}
	return x
}

// canvasScale is the device pixels per logical pixel of o's canvas.
func canvasScale(o fyne.CanvasObject) float32 {
	if app := fyne.CurrentApp(); app != nil {
		if cv := app.Driver().CanvasForObject(o); cv != nil && cv.Scale() > 0 {
			return cv.Scale()
		}
	}
	return 1
}
