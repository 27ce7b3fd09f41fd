package sensor

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// pointSet is what a pointView draws: points in metres seen from above
// (x to the right, y up, as rviz's top-down view), each with a colour.
type pointSet struct {
	X, Y []float32
	C    []color.NRGBA // one per point; nil draws them all in the theme's primary colour
	// Rings draws range circles about the origin (a laser scan) instead
	// of a square grid (a point cloud).
	Rings bool
	// Origin marks the sensor at 0,0.
	Origin bool
	// Limit, when above 0, is drawn as a circle of that radius about the
	// origin (a scan's range_max).
	Limit float64
}

// bounds returns the box holding every point (and the origin when it is
// marked).
func (s *pointSet) bounds() (x0, y0, x1, y1 float64, ok bool) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	if s.Origin {
		x0, y0, x1, y1 = 0, 0, 0, 0
	}
	for i := range s.X {
		x, y := float64(s.X[i]), float64(s.Y[i])
		x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
	}
	return x0, y0, x1, y1, x0 <= x1
}

// pointView is a top-down 2D scatter of a laser scan or a point cloud
// with a grid and a scale bar. Wheel zooms about the pointer, drag pans,
// + and - zoom, 0 and F fit; OnHover reports the point under the pointer
// in metres.
type pointView struct {
	widget.BaseWidget

	set *pointSet
	// ppm is view units per metre; centre is the point (metres) drawn at
	// the view's centre. fit recomputes both on resize.
	ppm    float64
	cx, cy float64
	fit    bool

	OnHover func(x, y float64, ok bool)

	hover   fyne.Position
	hovered bool
}

var (
	_ fyne.Scrollable   = (*pointView)(nil)
	_ fyne.Draggable    = (*pointView)(nil)
	_ fyne.Focusable    = (*pointView)(nil)
	_ fyne.Tappable     = (*pointView)(nil)
	_ desktop.Hoverable = (*pointView)(nil)
)

func newPointView() *pointView {
	v := &pointView{fit: true, ppm: 1}
	v.ExtendBaseWidget(v)
	return v
}

// SetPoints shows s. keep keeps the zoom and position (the next scan of
// the same sensor); otherwise the points are fitted.
func (v *pointView) SetPoints(s *pointSet, keep bool) {
	v.set = s
	if !keep {
		v.fit = true
	}
	v.Refresh()
	v.reportHover()
}

// Fit fits the points to the view and keeps them fitted on resize.
func (v *pointView) Fit() {
	v.fit = true
	v.Refresh()
}

func (v *pointView) doFit() {
	size := v.Size()
	if v.set == nil || size.Width <= 0 || size.Height <= 0 {
		return
	}
	x0, y0, x1, y1, ok := v.set.bounds()
	if !ok {
		v.cx, v.cy, v.ppm = 0, 0, 50
		return
	}
	w, h := max(x1-x0, 1e-3), max(y1-y0, 1e-3)
	v.ppm = 0.92 * min(float64(size.Width)/w, float64(size.Height)/h)
	v.cx, v.cy = (x0+x1)/2, (y0+y1)/2
}

// toView returns the view position of the point (x, y) metres.
func (v *pointView) toView(x, y float64) (float64, float64) {
	s := v.Size()
	return float64(s.Width)/2 + (x-v.cx)*v.ppm, float64(s.Height)/2 - (y-v.cy)*v.ppm
}

// Metres returns the point (metres) at view position p.
func (v *pointView) Metres(p fyne.Position) (x, y float64) {
	if v.fit {
		v.doFit()
	}
	s := v.Size()
	return v.cx + (float64(p.X)-float64(s.Width)/2)/v.ppm, v.cy - (float64(p.Y)-float64(s.Height)/2)/v.ppm
}

// ZoomAt multiplies the zoom by f keeping the point under p in place.
func (v *pointView) ZoomAt(f float64, p fyne.Position) {
	if v.fit {
		v.doFit()
	}
	x, y := v.Metres(p)
	v.ppm = min(max(v.ppm*f, 1e-3), 1e6)
	s := v.Size()
	v.cx = x - (float64(p.X)-float64(s.Width)/2)/v.ppm
	v.cy = y + (float64(p.Y)-float64(s.Height)/2)/v.ppm
	v.fit = false
	v.Refresh()
}

// ZoomBy zooms about the view's centre.
func (v *pointView) ZoomBy(f float64) {
	s := v.Size()
	v.ZoomAt(f, fyne.NewPos(s.Width/2, s.Height/2))
}

// Scrolled zooms about the pointer.
func (v *pointView) Scrolled(e *fyne.ScrollEvent) {
	if e.Scrolled.DY != 0 {
		v.ZoomAt(math.Pow(wheelStep, float64(e.Scrolled.DY)/wheelNotch), e.Position)
	}
}

// Dragged pans.
func (v *pointView) Dragged(e *fyne.DragEvent) {
	if v.fit {
		v.doFit()
		v.fit = false
	}
	v.cx -= float64(e.Dragged.DX) / v.ppm
	v.cy += float64(e.Dragged.DY) / v.ppm
	v.hover, v.hovered = e.Position, true
	v.Refresh()
	v.reportHover()
}

// DragEnd ends a pan.
func (v *pointView) DragEnd() {}

// Tapped takes the keyboard focus, for the zoom keys.
func (v *pointView) Tapped(*fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil {
		c.Focus(v)
	}
}

// FocusGained is part of fyne.Focusable.
func (v *pointView) FocusGained() {}

// FocusLost is part of fyne.Focusable.
func (v *pointView) FocusLost() {}

// TypedRune handles the zoom keys: + and = zoom in, - zooms out, 0 and f
// fit.
func (v *pointView) TypedRune(r rune) {
	switch r {
	case '+', '=':
		v.ZoomBy(1.25)
	case '-', '_':
		v.ZoomBy(1 / 1.25)
	case '0', 'f', 'F':
		v.Fit()
	}
}

// TypedKey is part of fyne.Focusable.
func (v *pointView) TypedKey(*fyne.KeyEvent) {}

// MouseIn is part of desktop.Hoverable.
func (v *pointView) MouseIn(e *desktop.MouseEvent) { v.MouseMoved(e) }

// MouseMoved reports the point under the pointer.
func (v *pointView) MouseMoved(e *desktop.MouseEvent) {
	v.hover, v.hovered = e.Position, true
	v.reportHover()
}

// MouseOut is part of desktop.Hoverable.
func (v *pointView) MouseOut() {
	v.hovered = false
	v.reportHover()
}

func (v *pointView) reportHover() {
	if v.OnHover == nil {
		return
	}
	if !v.hovered || v.set == nil {
		v.OnHover(0, 0, false)
		return
	}
	x, y := v.Metres(v.hover)
	v.OnHover(x, y, true)
}

// MinSize is small: the view takes what the layout gives it.
func (v *pointView) MinSize() fyne.Size { return fyne.NewSize(120, 90) }

func (v *pointView) CreateRenderer() fyne.WidgetRenderer {
	r := &pointViewRenderer{v: v}
	r.raster = canvas.NewRaster(r.draw)
	r.bar = canvas.NewRectangle(theme.Color(theme.ColorNameForeground))
	r.label = canvas.NewText("", theme.Color(theme.ColorNameForeground))
	r.label.TextSize = theme.CaptionTextSize()
	return r
}

type pointViewRenderer struct {
	v      *pointView
	raster *canvas.Raster
	bar    *canvas.Rectangle // the scale bar
	label  *canvas.Text      // its length
	step   float64           // grid spacing in metres
}

func (r *pointViewRenderer) Layout(s fyne.Size) {
	v := r.v
	r.raster.Resize(s)
	if v.fit {
		v.doFit()
	}
	// The scale bar: one grid step, bottom left.
	r.step = niceStep(80 / max(v.ppm, 1e-9))
	w := float32(r.step * v.ppm)
	pad := theme.Padding() * 2
	r.bar.Resize(fyne.NewSize(w, 2))
	r.bar.Move(fyne.NewPos(pad, s.Height-pad-2))
	r.label.Text = formatMetres(r.step)
	ls := r.label.MinSize()
	r.label.Move(fyne.NewPos(pad, s.Height-pad-4-ls.Height))
	r.label.Resize(ls)
}

func (r *pointViewRenderer) MinSize() fyne.Size { return r.v.MinSize() }

func (r *pointViewRenderer) Refresh() {
	r.Layout(r.v.Size())
	fg := theme.Color(theme.ColorNameForeground)
	r.bar.FillColor, r.label.Color = fg, fg
	r.bar.Refresh()
	r.label.Refresh()
	r.raster.Refresh()
}

func (r *pointViewRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.raster, r.bar, r.label}
}

func (r *pointViewRenderer) Destroy() {}

// draw renders the grid and the points at w×h physical pixels.
func (r *pointViewRenderer) draw(w, h int) image.Image {
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	fillNRGBA(out, theme.Color(theme.ColorNameInputBackground))
	v := r.v
	size := v.Size()
	if v.set == nil || w <= 0 || h <= 0 || size.Width <= 0 {
		return out
	}
	if v.fit {
		v.doFit()
	}
	sc := float64(w) / float64(size.Width)
	grid := color.NRGBAModel.Convert(theme.Color(theme.ColorNameSeparator)).(color.NRGBA)
	axis := color.NRGBAModel.Convert(theme.Color(theme.ColorNameDisabled)).(color.NRGBA)
	step := niceStep(80 / max(v.ppm, 1e-9))
	ox, oy := v.toView(0, 0)
	ox, oy = ox*sc, oy*sc
	ppm := v.ppm * sc
	if v.set.Rings {
		// Range rings about the sensor, every grid step.
		far := 0.0
		for _, c := range [][2]float64{{0, 0}, {float64(w), 0}, {0, float64(h)}, {float64(w), float64(h)}} {
			far = max(far, math.Hypot(c[0]-ox, c[1]-oy))
		}
		if n := far / (step * ppm); n < 400 {
			for k := 1; float64(k) <= n+1; k++ {
				drawCircle(out, ox, oy, float64(k)*step*ppm, grid)
			}
		}
	} else {
		x0, y0 := v.Metres(fyne.NewPos(0, 0))
		for gx := math.Ceil(x0/step) * step; ; gx += step {
			px, _ := v.toView(gx, 0)
			if px*sc >= float64(w) {
				break
			}
			vline(out, int(px*sc), grid)
		}
		for gy := math.Floor(y0/step) * step; ; gy -= step {
			_, py := v.toView(0, gy)
			if py*sc >= float64(h) {
				break
			}
			hline(out, int(py*sc), grid)
		}
	}
	if v.set.Limit > 0 {
		lim := color.NRGBAModel.Convert(theme.Color(theme.ColorNameWarning)).(color.NRGBA)
		drawCircle(out, ox, oy, v.set.Limit*ppm, lim)
	}
	// Axes through the origin.
	vline(out, int(ox), axis)
	hline(out, int(oy), axis)

	fg := color.NRGBAModel.Convert(theme.Color(theme.ColorNamePrimary)).(color.NRGBA)
	dot := max(2, int(math.Round(sc*2)))
	for i := range v.set.X {
		px, py := v.toView(float64(v.set.X[i]), float64(v.set.Y[i]))
		c := fg
		if v.set.C != nil {
			c = v.set.C[i]
		}
		fillBox(out, int(px*sc)-dot/2, int(py*sc)-dot/2, dot, c)
	}
	if v.set.Origin {
		// The sensor: a small cross.
		s := int(6 * sc)
		for d := -s; d <= s; d++ {
			fillBox(out, int(ox)+d, int(oy), 1, axis)
			fillBox(out, int(ox), int(oy)+d, 1, axis)
		}
	}
	return out
}

// fillBox fills the n×n square at x, y, clipped.
func fillBox(img *image.NRGBA, x, y, n int, c color.NRGBA) {
	b := img.Rect
	for j := max(y, 0); j < min(y+n, b.Dy()); j++ {
		row := img.Pix[j*img.Stride:]
		for i := max(x, 0); i < min(x+n, b.Dx()); i++ {
			row[4*i], row[4*i+1], row[4*i+2], row[4*i+3] = c.R, c.G, c.B, 255
		}
	}
}

func vline(img *image.NRGBA, x int, c color.NRGBA) {
	if x >= 0 && x < img.Rect.Dx() {
		for y := 0; y < img.Rect.Dy(); y++ {
			img.SetNRGBA(x, y, c)
		}
	}
}

func hline(img *image.NRGBA, y int, c color.NRGBA) {
	if y >= 0 && y < img.Rect.Dy() {
		for x := 0; x < img.Rect.Dx(); x++ {
			img.SetNRGBA(x, y, c)
		}
	}
}

// drawCircle draws a one-pixel circle of radius r about cx, cy.
func drawCircle(img *image.NRGBA, cx, cy, r float64, c color.NRGBA) {
	n := int(2*math.Pi*r) + 8
	n = min(n, 20000)
	for k := 0; k < n; k++ {
		a := 2 * math.Pi * float64(k) / float64(n)
		x, y := int(cx+r*math.Cos(a)), int(cy+r*math.Sin(a))
		if image.Pt(x, y).In(img.Rect) {
			img.SetNRGBA(x, y, c)
		}
	}
}

// niceStep returns the 1, 2 or 5 × 10^k at or above d.
func niceStep(d float64) float64 {
	if !(d > 0) || math.IsInf(d, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(d)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= d {
			return m * p
		}
	}
	return 10 * p
}

// formatMetres writes a grid step: "50 cm", "2 m", "1 km", "5 mm".
func formatMetres(m float64) string {
	switch {
	case m >= 1000:
		return strconv.FormatFloat(m/1000, 'g', 4, 64) + " km"
	case m >= 1:
		return strconv.FormatFloat(m, 'g', 4, 64) + " m"
	case m >= 0.01:
		return strconv.FormatFloat(m*100, 'g', 4, 64) + " cm"
	}
	return fmt.Sprintf("%g mm", m*1000)
}
