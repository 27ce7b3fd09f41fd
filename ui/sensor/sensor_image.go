package sensor

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// imageView draws a picture at any zoom: it fits the picture to the view
// until the user zooms (wheel, + and -, 1 for one image pixel per screen
// pixel, 0 or F to fit again) or pans (drag). OnHover reports the image
// pixel under the pointer.
type imageView struct {
	widget.BaseWidget

	pic *image.NRGBA // nil: nothing to draw

	// zoom is view units per image pixel; origin is where the image's
	// top-left corner is in the view. fit recomputes both on resize.
	zoom   float32
	origin fyne.Position
	fit    bool

	// OnHover is called with the image pixel under the pointer (ok
	// false when the pointer left the image or the view).
	OnHover func(x, y int, ok bool)
	// OnZoom is called after the zoom changed, with the zoom in image
	// pixels per physical screen pixel inverted (1 is 1:1).
	OnZoom func(zoom float32)

	raster  *canvas.Raster
	focused bool
	hover   fyne.Position
	hovered bool
}

var (
	_ fyne.Scrollable     = (*imageView)(nil)
	_ fyne.Draggable      = (*imageView)(nil)
	_ fyne.Focusable      = (*imageView)(nil)
	_ fyne.Tappable       = (*imageView)(nil)
	_ desktop.Hoverable   = (*imageView)(nil)
	_ fyne.WidgetRenderer = (*imageViewRenderer)(nil)
)

// Zoom limits, in physical screen pixels per image pixel.
const (
	minZoom = 1.0 / 64
	maxZoom = 64
)

func newImageView() *imageView {
	v := &imageView{fit: true, zoom: 1}
	v.ExtendBaseWidget(v)
	return v
}

// SetImage shows img (nil clears). A picture of the same size keeps the
// zoom and position, so stepping through a camera's frames does not jump;
// another size is fitted.
func (v *imageView) SetImage(img image.Image) {
	var n *image.NRGBA
	if img != nil {
		n = toNRGBA(img)
	}
	if v.pic == nil || n == nil || v.pic.Rect.Size() != n.Rect.Size() {
		v.fit = true
	}
	v.pic = n
	v.Refresh()
	v.reportHover()
}

// toNRGBA returns img as an *image.NRGBA whose bounds start at 0,0.
func toNRGBA(img image.Image) *image.NRGBA {
	if n, ok := img.(*image.NRGBA); ok && n.Rect.Min == (image.Point{}) {
		return n
	}
	b := img.Bounds()
	n := image.NewNRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	draw.Draw(n, n.Rect, img, b.Min, draw.Src)
	return n
}

// scale is the canvas scale: physical pixels per view unit.
func (v *imageView) scale() float32 {
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil && c.Scale() > 0 {
		return c.Scale()
	}
	return 1
}

// Fit fits the picture to the view and keeps it fitted on resize.
func (v *imageView) Fit() {
	v.fit = true
	v.Refresh()
	v.zoomed()
}

// doFit computes the fitted zoom and origin for the current size.
func (v *imageView) doFit() {
	if v.pic == nil {
		return
	}
	s := v.Size()
	w, h := float32(v.pic.Rect.Dx()), float32(v.pic.Rect.Dy())
	if s.Width <= 0 || s.Height <= 0 || w == 0 || h == 0 {
		return
	}
	v.zoom = min(s.Width/w, s.Height/h)
	v.origin = fyne.NewPos((s.Width-w*v.zoom)/2, (s.Height-h*v.zoom)/2)
}

// ZoomAt multiplies the zoom by f keeping the image point under p (view
// coordinates) where it is.
func (v *imageView) ZoomAt(f float32, p fyne.Position) {
	if v.pic == nil {
		return
	}
	if v.fit {
		v.doFit()
	}
	sc := v.scale()
	z := min(max(v.zoom*f, minZoom/sc), maxZoom/sc)
	ix, iy := (p.X-v.origin.X)/v.zoom, (p.Y-v.origin.Y)/v.zoom
	v.zoom = z
	v.origin = fyne.NewPos(p.X-ix*z, p.Y-iy*z)
	v.fit = false
	v.Refresh()
	v.zoomed()
}

// ZoomBy zooms about the view's centre.
func (v *imageView) ZoomBy(f float32) {
	s := v.Size()
	v.ZoomAt(f, fyne.NewPos(s.Width/2, s.Height/2))
}

// OneToOne shows one image pixel per physical screen pixel, about the
// view's centre.
func (v *imageView) OneToOne() {
	if v.pic == nil {
		return
	}
	if v.fit {
		v.doFit()
	}
	sc := v.scale()
	c := v.Size()
	px, py := c.Width/2, c.Height/2
	ix, iy := (px-v.origin.X)/v.zoom, (py-v.origin.Y)/v.zoom
	v.zoom = 1 / sc // exactly, not a product of factors
	// Whole physical pixels, so that 1:1 is crisp.
	round := func(f float32) float32 { return float32(math.Round(float64(f*sc))) / sc }
	v.origin = fyne.NewPos(round(px-ix*v.zoom), round(py-iy*v.zoom))
	v.fit = false
	v.Refresh()
	v.zoomed()
}

// Zoom returns physical screen pixels per image pixel.
func (v *imageView) Zoom() float32 {
	if v.fit {
		v.doFit()
	}
	return v.zoom * v.scale()
}

func (v *imageView) zoomed() {
	if v.OnZoom != nil {
		v.OnZoom(v.Zoom())
	}
}

// Pixel returns the image pixel at view position p.
func (v *imageView) Pixel(p fyne.Position) (x, y int, ok bool) {
	if v.pic == nil {
		return 0, 0, false
	}
	if v.fit {
		v.doFit()
	}
	fx, fy := (p.X-v.origin.X)/v.zoom, (p.Y-v.origin.Y)/v.zoom
	x, y = int(math.Floor(float64(fx))), int(math.Floor(float64(fy)))
	return x, y, x >= 0 && y >= 0 && x < v.pic.Rect.Dx() && y < v.pic.Rect.Dy()
}

// One wheel notch (a scroll of wheelNotch, as GLFW reports it under X11)
// zooms by wheelStep; trackpads' smaller scrolls zoom less.
const (
	wheelNotch = 25
	wheelStep  = 1.2
)

// Scrolled zooms about the pointer: one wheel notch is 1.2×.
func (v *imageView) Scrolled(e *fyne.ScrollEvent) {
	if e.Scrolled.DY == 0 {
		return
	}
	v.ZoomAt(float32(math.Pow(wheelStep, float64(e.Scrolled.DY)/wheelNotch)), e.Position)
}

// Dragged pans.
func (v *imageView) Dragged(e *fyne.DragEvent) {
	if v.pic == nil {
		return
	}
	if v.fit {
		v.doFit()
		v.fit = false
	}
	v.origin = v.origin.Add(e.Dragged)
	v.hover, v.hovered = e.Position, true
	v.Refresh()
	v.reportHover()
}

// DragEnd ends a pan.
func (v *imageView) DragEnd() {}

// Tapped takes the keyboard focus, for the zoom keys.
func (v *imageView) Tapped(*fyne.PointEvent) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil {
		c.Focus(v)
	}
}

// FocusGained is part of fyne.Focusable.
func (v *imageView) FocusGained() { v.focused = true }

// FocusLost is part of fyne.Focusable.
func (v *imageView) FocusLost() { v.focused = false }

// TypedRune handles the zoom keys: + and = zoom in, - zooms out, 1 shows
// 1:1, 0 and f fit.
func (v *imageView) TypedRune(r rune) {
	switch r {
	case '+', '=':
		v.ZoomBy(1.25)
	case '-', '_':
		v.ZoomBy(1 / 1.25)
	case '1':
		v.OneToOne()
	case '0', 'f', 'F':
		v.Fit()
	}
}

// TypedKey pans with the arrow keys.
func (v *imageView) TypedKey(e *fyne.KeyEvent) {
	step := float32(40)
	var d fyne.Delta
	switch e.Name {
	case fyne.KeyLeft:
		d.DX = step
	case fyne.KeyRight:
		d.DX = -step
	case fyne.KeyUp:
		d.DY = step
	case fyne.KeyDown:
		d.DY = -step
	default:
		return
	}
	v.Dragged(&fyne.DragEvent{Dragged: d, PointEvent: fyne.PointEvent{Position: v.hover}})
}

// MouseIn is part of desktop.Hoverable.
func (v *imageView) MouseIn(e *desktop.MouseEvent) { v.MouseMoved(e) }

// MouseMoved reports the pixel under the pointer.
func (v *imageView) MouseMoved(e *desktop.MouseEvent) {
	v.hover, v.hovered = e.Position, true
	v.reportHover()
}

// MouseOut is part of desktop.Hoverable.
func (v *imageView) MouseOut() {
	v.hovered = false
	v.reportHover()
}

func (v *imageView) reportHover() {
	if v.OnHover == nil {
		return
	}
	if !v.hovered {
		v.OnHover(0, 0, false)
		return
	}
	v.OnHover(v.Pixel(v.hover))
}

// MinSize is small: the view takes what the layout gives it.
func (v *imageView) MinSize() fyne.Size { return fyne.NewSize(120, 90) }

func (v *imageView) CreateRenderer() fyne.WidgetRenderer {
	r := &imageViewRenderer{v: v}
	r.raster = canvas.NewRaster(r.draw)
	r.raster.ScaleMode = canvas.ImageScalePixels
	v.raster = r.raster
	return r
}

type imageViewRenderer struct {
	v      *imageView
	raster *canvas.Raster
}

func (r *imageViewRenderer) Layout(s fyne.Size) {
	r.raster.Resize(s)
	r.raster.Move(fyne.Position{})
	if r.v.fit {
		r.v.doFit()
	}
}

func (r *imageViewRenderer) MinSize() fyne.Size           { return r.v.MinSize() }
func (r *imageViewRenderer) Refresh()                     { r.Layout(r.v.Size()); r.raster.Refresh() }
func (r *imageViewRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.raster} }
func (r *imageViewRenderer) Destroy()                     {}

// draw renders the visible part of the picture at w×h physical pixels:
// nearest pixel when zoomed in, the mean of up to 4×4 samples per screen
// pixel when zoomed out, so a fitted camera frame does not shimmer.
func (r *imageViewRenderer) draw(w, h int) image.Image {
	out := image.NewNRGBA(image.Rect(0, 0, w, h))
	v := r.v
	bg := theme.Color(theme.ColorNameInputBackground)
	fillNRGBA(out, bg)
	pic := v.pic
	if pic == nil || w <= 0 || h <= 0 {
		return out
	}
	if v.fit {
		v.doFit()
	}
	size := v.Size()
	if size.Width <= 0 {
		return out
	}
	sc := float64(w) / float64(size.Width) // physical pixels per view unit
	zoom := float64(v.zoom) * sc           // physical pixels per image pixel
	ox, oy := float64(v.origin.X)*sc, float64(v.origin.Y)*sc
	pw, ph := pic.Rect.Dx(), pic.Rect.Dy()
	// The screen rectangle the image covers.
	x0, y0 := max(0, int(math.Floor(ox))), max(0, int(math.Floor(oy)))
	x1, y1 := min(w, int(math.Ceil(ox+float64(pw)*zoom))), min(h, int(math.Ceil(oy+float64(ph)*zoom)))
	sub := 1
	if zoom < 1 {
		sub = min(4, int(math.Ceil(1/zoom)))
	}
	// The image column and row of each sub-sample of each screen column
	// and row (-1 outside the image), computed once per frame.
	index := func(p0, p1, n int, o float64) []int32 {
		t := make([]int32, (p1-p0)*sub)
		for p := p0; p < p1; p++ {
			for i := 0; i < sub; i++ {
				v := int(math.Floor((float64(p) + (float64(i)+0.5)/float64(sub) - o) / zoom))
				if v < 0 || v >= n {
					v = -1
				}
				t[(p-p0)*sub+i] = int32(v)
			}
		}
		return t
	}
	if x1 <= x0 || y1 <= y0 {
		return out
	}
	xs, ys := index(x0, x1, pw, ox), index(y0, y1, ph, oy)
	for py := y0; py < y1; py++ {
		row := out.Pix[py*out.Stride:]
		yrow := ys[(py-y0)*sub : (py-y0+1)*sub]
		if sub == 1 {
			// Nearest pixel.
			if yrow[0] < 0 {
				continue
			}
			src := pic.Pix[int(yrow[0])*pic.Stride:]
			for px := x0; px < x1; px++ {
				ix := xs[px-x0]
				if ix < 0 {
					continue
				}
				s := src[4*ix : 4*ix+4]
				putPixel(row[4*px:4*px+4], int(s[0]), int(s[1]), int(s[2]), int(s[3]))
			}
			continue
		}
		for px := x0; px < x1; px++ {
			xcol := xs[(px-x0)*sub : (px-x0+1)*sub]
			var sr, sg, sb, sa, n int
			for _, iy := range yrow {
				if iy < 0 {
					continue
				}
				src := pic.Pix[int(iy)*pic.Stride:]
				for _, ix := range xcol {
					if ix < 0 {
						continue
					}
					s := src[4*ix : 4*ix+4]
					sr, sg, sb, sa = sr+int(s[0]), sg+int(s[1]), sb+int(s[2]), sa+int(s[3])
					n++
				}
			}
			if n > 0 {
				putPixel(row[4*px:4*px+4], sr/n, sg/n, sb/n, sa/n)
			}
		}
	}
	return out
}

// putPixel writes an image pixel over the background in d: opaque as it
// is, translucent (NaN in a float image is transparent) blended.
func putPixel(d []byte, r, g, b, a int) {
	if a == 255 {
		d[0], d[1], d[2], d[3] = uint8(r), uint8(g), uint8(b), 255
		return
	}
	blend := func(c int, bg uint8) uint8 { return uint8((c*a + int(bg)*(255-a)) / 255) }
	d[0], d[1], d[2], d[3] = blend(r, d[0]), blend(g, d[1]), blend(b, d[2]), 255
}

// fillNRGBA fills img with c.
func fillNRGBA(img *image.NRGBA, c color.Color) {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	if len(img.Pix) < 4 {
		return
	}
	img.Pix[0], img.Pix[1], img.Pix[2], img.Pix[3] = n.R, n.G, n.B, 255
	for filled := 4; filled < len(img.Pix); filled *= 2 {
		copy(img.Pix[filled:], img.Pix[:filled])
	}
}
