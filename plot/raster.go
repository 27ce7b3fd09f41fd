package plot

import (
	"image"
	"image/color"
	"math"
)

// Line is one decimated series to rasterise, in its colour.
type Line struct {
	S Series
	C color.RGBA
}

// Rasterize clears img and draws lines into it through frame f, whose data
// rectangle is in img's pixels: the fast in-window path, without axes or
// anti-aliasing. Consecutive finite points are joined; a NaN point (a gap
// from Decimate) breaks the line, and a point alone between gaps is drawn as
// a dot. Each segment becomes one vertical span per pixel column it
// crosses, lw pixels wide, so the cost is the number of points plus the
// columns, whatever the zoom. A suspect point (Series.SuspectT) is drawn
// hollow, on top.
func Rasterize(img *image.RGBA, f Frame, lines []Line, lw int) {
	clear(img.Pix)
	if !f.Valid() {
		return
	}
	r := rasterizer{img: img, w: img.Rect.Dx(), h: img.Rect.Dy(), lw: max(1, lw)}
	for _, l := range lines {
		r.c = l.C
		r.path(len(l.S.T), func(i int) (float64, float64, bool) {
			v := l.S.V[i]
			return f.X(l.S.T[i]), f.Y(v), finite(v)
		})
	}
	// Suspect points on top of every line: hollow, so they show as
	// marked where the lines run through them.
	for _, l := range lines {
		r.c = l.C
		for i, t := range l.S.SuspectT {
			if v := l.S.SuspectV[i]; finite(v) {
				r.ring(f.X(t), f.Y(v))
			}
		}
	}
}

// ring draws a hollow point at (x, y): a ring in the line's colour around
// a transparent hole, so the background shows through it.
func (r *rasterizer) ring(x, y float64) {
	outer := float64(r.lw) + 3
	inner := outer - 1.6
	x0, x1 := max(int(math.Floor(x-outer)), 0), min(int(math.Ceil(x+outer)), r.w-1)
	y0, y1 := max(int(math.Floor(y-outer)), 0), min(int(math.Ceil(y+outer)), r.h-1)
	pix, stride := r.img.Pix, r.img.Stride
	for py := y0; py <= y1; py++ {
		for px := x0; px <= x1; px++ {
			d := math.Hypot(float64(px)+0.5-x, float64(py)+0.5-y)
			off := py*stride + px*4
			switch {
			case d <= inner:
				pix[off], pix[off+1], pix[off+2], pix[off+3] = 0, 0, 0, 0
			case d <= outer:
				pix[off], pix[off+1], pix[off+2], pix[off+3] = r.c.R, r.c.G, r.c.B, r.c.A
			}
		}
	}
}

type rasterizer struct {
	img  *image.RGBA
	w, h int
	lw   int
	c    color.RGBA
}

// path draws the polyline of n points, pt giving each point's pixel
// position and whether it is drawn (false breaks the line).
func (r *rasterizer) path(n int, pt func(i int) (x, y float64, ok bool)) {
	have := false
	var px, py float64
	for i := 0; i < n; i++ {
		x, y, ok := pt(i)
		if !ok {
			have = false
			continue
		}
		if have {
			if px <= x {
				r.segment(px, py, x, y)
			} else {
				r.segment(x, y, px, py)
			}
		} else if i+1 == n {
			r.dot(x, y)
		} else if _, _, next := pt(i + 1); !next {
			r.dot(x, y)
		}
		px, py, have = x, y, true
	}
}

// segment draws the line from (x0, y0) to (x1, y1), x0 <= x1.
func (r *rasterizer) segment(x0, y0, x1, y1 float64) {
	if x1 < 0 || x0 >= float64(r.w) {
		return
	}
	if x1-x0 < 1e-9 {
		r.span(int(math.Floor(x0)), y0, y1)
		return
	}
	slope := (y1 - y0) / (x1 - x0)
	c0 := max(int(math.Floor(max(x0, 0))), 0)
	c1 := min(int(math.Floor(min(x1, float64(r.w)))), r.w-1)
	for cx := c0; cx <= c1; cx++ {
		xa, xb := max(float64(cx), x0), min(float64(cx+1), x1)
		r.span(cx, y0+(xa-x0)*slope, y0+(xb-x0)*slope)
	}
}

// dot draws a lone point as a small square.
func (r *rasterizer) dot(x, y float64) {
	cx := int(math.Floor(x))
	for dx := -r.lw; dx <= r.lw; dx++ {
		r.span(cx+dx, y-float64(r.lw), y+float64(r.lw))
	}
}

// span fills column cx (and lw-1 more to its right) from ya to yb.
func (r *rasterizer) span(cx int, ya, yb float64) {
	if ya > yb {
		ya, yb = yb, ya
	}
	half := float64(r.lw-1) / 2
	ya, yb = ya-half, yb+half
	if yb < 0 || ya >= float64(r.h) || cx < 0 || cx >= r.w {
		return
	}
	y0 := max(int(math.Floor(ya)), 0)
	y1 := min(int(math.Floor(yb)), r.h-1)
	pix, stride := r.img.Pix, r.img.Stride
	for x := cx; x < min(cx+r.lw, r.w); x++ {
		off := y0*stride + x*4
		for y := y0; y <= y1; y++ {
			pix[off], pix[off+1], pix[off+2], pix[off+3] = r.c.R, r.c.G, r.c.B, r.c.A
			off += stride
		}
	}
}

// ValueRange returns the smallest and largest finite value of lines at
// times inside w, or, when no point lies inside, of all their points (the
// neighbours Decimate keeps outside the window); ok is false when there is
// none.
func ValueRange(lines []Line, w Window) (lo, hi float64, ok bool) {
	scan := func(inside bool) {
		for _, l := range lines {
			for i, v := range l.S.V {
				if !finite(v) || inside && !w.Contains(l.S.T[i]) {
					continue
				}
				if !ok || v < lo {
					lo = v
				}
				if !ok || v > hi {
					hi = v
				}
				ok = true
			}
		}
	}
	scan(true)
	if !ok {
		scan(false)
	}
	return lo, hi, ok
}

// AutoRange pads [lo, hi] by 5% on each side (PadRange); an empty range
// (ok false) becomes [-1, 1].
func AutoRange(lo, hi float64, ok bool) (float64, float64) {
	if !ok {
		return -1, 1
	}
	return PadRange(lo, hi)
}
