package plot

import (
	"image"
	"image/color"
	"math"
	"sort"
	"strings"
)

// XY is a path in the plane: point i is (X[i], Y[i]), reached at time T[i]
// (ascending), e.g. a robot's position x against y. A non-finite
// coordinate is a gap.
type XY struct {
	Name  string
	T     []int64
	X, Y  []float64
	Color color.Color
	// XName and YName name the coordinates (for axes and CSV headers).
	XName, YName string
}

// JoinXY pairs x and y into a path at x's times, each point of x with the
// point of y nearest in time (JoinNearest): two fields of one topic pair
// message by message, fields of two topics by the nearest time. The path
// is named "X vs Y"; when y has no point at some of x's times, its
// coordinate is named "Y (nearest in time)", as its values are taken at
// other times than its own.
func JoinXY(x, y Series) XY {
	t, vx, vy := JoinNearest(x, y)
	yName := y.Name
	if !sameTimes(x.T, y.T) {
		yName += " (nearest in time)"
	}
	return XY{Name: x.Name + " vs " + y.Name, XName: x.Name, YName: yName, T: t, X: vx, Y: vy, Color: x.Color}
}

// sameTimes reports whether every time of a is also a time of b (both
// ascending).
func sameTimes(a, b []int64) bool {
	j := 0
	for _, t := range a {
		for j < len(b) && b[j] < t {
			j++
		}
		if j == len(b) || b[j] != t {
			return false
		}
	}
	return true
}

// Span returns the index range [i, j) of the points whose times lie in w.
func (p XY) Span(w Window) (i, j int) {
	i = sort.Search(len(p.T), func(k int) bool { return p.T[k] >= w.T0 })
	j = i + sort.Search(len(p.T)-i, func(k int) bool { return p.T[i+k] > w.T1 })
	return i, j
}

// At returns the index of the last point at or before t (the position at
// time t), or the first point when t is earlier; ok is false for an empty
// path.
func (p XY) At(t int64) (int, bool) {
	if len(p.T) == 0 {
		return 0, false
	}
	i := sort.Search(len(p.T), func(k int) bool { return p.T[k] > t })
	return max(i-1, 0), true
}

// Series returns the path's coordinates as two time series, X's then Y's,
// for CSV export.
func (p XY) Series() (x, y Series) {
	return Series{Name: p.XName, T: p.T, V: p.X}, Series{Name: p.YName, T: p.T, V: p.Y}
}

// Bounds is a rectangle in data units: [X0, X1] × [Y0, Y1].
type Bounds struct{ X0, X1, Y0, Y1 float64 }

// Valid reports whether b has a positive, finite width and height.
func (b Bounds) Valid() bool {
	return b.X1 > b.X0 && b.Y1 > b.Y0 && finite(b.X0) && finite(b.X1) && finite(b.Y0) && finite(b.Y1)
}

// XYExtent returns the bounds of the finite points of paths whose times lie
// in w; ok is false when there is none.
func XYExtent(paths []XY, w Window) (b Bounds, ok bool) {
	for _, p := range paths {
		i, j := p.Span(w)
		for k := i; k < j; k++ {
			x, y := p.X[k], p.Y[k]
			if !finite(x) || !finite(y) {
				continue
			}
			if !ok {
				b, ok = Bounds{x, x, y, y}, true
				continue
			}
			b.X0, b.X1 = math.Min(b.X0, x), math.Max(b.X1, x)
			b.Y0, b.Y1 = math.Min(b.Y0, y), math.Max(b.Y1, y)
		}
	}
	return b, ok
}

// Pad pads both ranges as PadRange does, so a flat range gets a span.
func (b Bounds) Pad() Bounds {
	b.X0, b.X1 = PadRange(b.X0, b.X1)
	b.Y0, b.Y1 = PadRange(b.Y0, b.Y1)
	return b
}

// Equal widens the narrower range of b about its centre so that one unit
// takes as many pixels on both axes of a data area w×h pixels: a circle
// stays round.
func (b Bounds) Equal(w, h float64) Bounds {
	if !(w > 0 && h > 0) || !b.Valid() {
		return b
	}
	sx, sy := (b.X1-b.X0)/w, (b.Y1-b.Y0)/h // units per pixel
	if sx > sy {
		c, half := (b.Y0+b.Y1)/2, sx*h/2
		b.Y0, b.Y1 = c-half, c+half
	} else {
		c, half := (b.X0+b.X1)/2, sy*w/2
		b.X0, b.X1 = c-half, c+half
	}
	return b
}

// XYFrame says how a rendered XY plot maps data to pixels: B spans the data
// rectangle, X from its left to its right edge, Y from its bottom to its
// top.
type XYFrame struct {
	Width, Height int
	Data          Rect
	B             Bounds
}

// Valid reports whether the frame has a data area.
func (f XYFrame) Valid() bool { return f.Data.Dx() > 0 && f.Data.Dy() > 0 && f.B.Valid() }

// X returns the horizontal pixel position of x.
func (f XYFrame) X(x float64) float64 {
	return f.Data.X0 + (x-f.B.X0)/(f.B.X1-f.B.X0)*f.Data.Dx()
}

// Y returns the vertical pixel position of y.
func (f XYFrame) Y(y float64) float64 {
	return f.Data.Y1 - (y-f.B.Y0)/(f.B.Y1-f.B.Y0)*f.Data.Dy()
}

// ValueX returns the x value at horizontal pixel position px.
func (f XYFrame) ValueX(px float64) float64 {
	return f.B.X0 + (px-f.Data.X0)/f.Data.Dx()*(f.B.X1-f.B.X0)
}

// ValueY returns the y value at vertical pixel position py.
func (f XYFrame) ValueY(py float64) float64 {
	return f.B.Y0 + (f.Data.Y1-py)/f.Data.Dy()*(f.B.Y1-f.B.Y0)
}

// Contains reports whether pixel (x, y) lies in the data area.
func (f XYFrame) Contains(x, y float64) bool {
	return x >= f.Data.X0 && x <= f.Data.X1 && y >= f.Data.Y0 && y <= f.Data.Y1
}

// DecimateXY returns the points of p in window w that draw the same path
// through frame f to within a pixel: a point that falls in the same pixel
// as the last one kept is dropped, unless it is the last before a gap or
// the end, so a slow path of millions of points draws from a few per
// pixel it crosses. A gap becomes one point with NaN coordinates. The
// result reuses dst's slices.
func DecimateXY(dst XY, p XY, w Window, f XYFrame) XY {
	out := XY{Name: p.Name, XName: p.XName, YName: p.YName, Color: p.Color, T: dst.T[:0], X: dst.X[:0], Y: dst.Y[:0]}
	i0, i1 := p.Span(w)
	kx, ky := f.Data.Dx()/(f.B.X1-f.B.X0), f.Data.Dy()/(f.B.Y1-f.B.Y0)
	const none = math.MinInt
	lastX, lastY := none, none // the pixel of the last kept point
	pending := -1              // a dropped point to keep if a gap or the end follows
	emit := func(k int) {
		out.T = append(out.T, p.T[k])
		out.X = append(out.X, p.X[k])
		out.Y = append(out.Y, p.Y[k])
	}
	for k := i0; k < i1; k++ {
		x, y := p.X[k], p.Y[k]
		if !finite(x) || !finite(y) {
			if pending >= 0 {
				emit(pending)
				pending = -1
			}
			if n := len(out.X); n > 0 && !math.IsNaN(out.X[n-1]) {
				out.T = append(out.T, p.T[k])
				out.X = append(out.X, math.NaN())
				out.Y = append(out.Y, math.NaN())
			}
			lastX, lastY = none, none
			continue
		}
		px, py := int(math.Floor((x-f.B.X0)*kx)), int(math.Floor((y-f.B.Y0)*ky))
		if px == lastX && py == lastY {
			pending = k
			continue
		}
		pending = -1
		emit(k)
		lastX, lastY = px, py
	}
	if pending >= 0 {
		emit(pending)
	}
	return out
}

// RasterizeXY clears img and draws paths into it through frame f, whose
// data rectangle is in img's pixels, lw pixels wide; a lone point between
// gaps is a dot.
func RasterizeXY(img *image.RGBA, f XYFrame, paths []XY, colors []color.RGBA, lw int) {
	clear(img.Pix)
	if !f.Valid() {
		return
	}
	r := rasterizer{img: img, w: img.Rect.Dx(), h: img.Rect.Dy(), lw: max(1, lw)}
	for i, p := range paths {
		r.c = colors[i]
		r.path(len(p.T), func(k int) (float64, float64, bool) {
			x, y := p.X[k], p.Y[k]
			return f.X(x), f.Y(y), finite(x) && finite(y)
		})
	}
}

// NearestXY returns the finite point of paths (among those with times in
// w) closest to pixel (x, y) in frame f, within radius pixels.
func NearestXY(paths []XY, w Window, f XYFrame, x, y, radius float64) (Hit, bool) {
	if !f.Valid() {
		return Hit{}, false
	}
	best := Hit{Dist: math.Inf(1)}
	for k, p := range paths {
		i, j := p.Span(w)
		for ; i < j; i++ {
			if !finite(p.X[i]) || !finite(p.Y[i]) {
				continue
			}
			if d := math.Hypot(f.X(p.X[i])-x, f.Y(p.Y[i])-y); d < best.Dist {
				best = Hit{Series: k, Index: i, Dist: d}
			}
		}
	}
	return best, best.Dist <= radius
}

// XYView is the interactive state of an XY plot: automatic bounds (the
// extent of the points in the time window, padded) until the user zooms or
// pans, then fixed ones; Equal keeps one unit the same length on both axes.
type XYView struct {
	// Fixed bounds, when Fixed; else the extent is shown.
	Fixed bool
	B     Bounds
	Equal bool
	// Frame is the frame of the latest drawing.
	Frame XYFrame
}

// Bounds returns what the view shows for paths in window w in a data area
// of w×h pixels.
func (v *XYView) Bounds(paths []XY, win Window, w, h float64) Bounds {
	b := v.B
	if !v.Fixed || !b.Valid() {
		var ok bool
		if b, ok = XYExtent(paths, win); ok {
			b = b.Pad()
		} else {
			b = Bounds{-1, 1, -1, 1}
		}
	}
	if v.Equal {
		b = b.Equal(w, h)
	}
	return b
}

// ZoomAt zooms both axes by factor about pixel (x, y): factor 2 shows half
// the span, the point under the pointer staying under it.
func (v *XYView) ZoomAt(x, y, factor float64) {
	f := v.Frame
	if !(factor > 0) || !f.Valid() {
		return
	}
	cx, cy := f.ValueX(x), f.ValueY(y)
	b := f.B
	v.B = Bounds{cx - (cx-b.X0)/factor, cx + (b.X1-cx)/factor, cy - (cy-b.Y0)/factor, cy + (b.Y1-cy)/factor}
	v.Fixed = v.B.Valid()
}

// Pan moves the data with a drag of (dx, dy) pixels.
func (v *XYView) Pan(dx, dy float64) {
	f := v.Frame
	if !f.Valid() {
		return
	}
	ux := dx / f.Data.Dx() * (f.B.X1 - f.B.X0)
	uy := dy / f.Data.Dy() * (f.B.Y1 - f.B.Y0)
	v.B = Bounds{f.B.X0 - ux, f.B.X1 - ux, f.B.Y0 + uy, f.B.Y1 + uy}
	v.Fixed = true
}

// ZoomRect shows the data under pixel rectangle r.
func (v *XYView) ZoomRect(r Rect) {
	f := v.Frame
	if !f.Valid() {
		return
	}
	if r.X1 < r.X0 {
		r.X0, r.X1 = r.X1, r.X0
	}
	if r.Y1 < r.Y0 {
		r.Y0, r.Y1 = r.Y1, r.Y0
	}
	if r.Dx() < 3 || r.Dy() < 3 {
		return
	}
	v.B = Bounds{f.ValueX(r.X0), f.ValueX(r.X1), f.ValueY(r.Y1), f.ValueY(r.Y0)}
	v.Fixed = v.B.Valid()
}

// Fit returns to automatic bounds.
func (v *XYView) Fit() { v.Fixed = false }

// EqualAxes guesses whether the coordinates of an XY path share their
// units, as a position's x and y do: both are fields of one parent
// (".position.x" and ".position.y") and neither is derived. The window's
// Plots view and the plot command turn on equal axes by this rule.
func EqualAxes(x, y *Expr) bool {
	if !x.IsLeaf() || !y.IsLeaf() {
		return false
	}
	parent := func(p string) string {
		if i := strings.LastIndexByte(p, '.'); i >= 0 {
			return p[:i]
		}
		return p
	}
	return parent(x.Path) == parent(y.Path)
}
