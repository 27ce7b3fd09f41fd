package ui

import (
	"image"
	"image/color"
	"math"

	"github.com/bagscope/bagscope/plot"
)

// plotLine is one decimated series to rasterise, in its colour.
type plotLine struct {
	s plot.Series
	c color.RGBA
}

// rasterize clears img and draws lines into it through frame f, whose data
// rectangle is in img's pixels. Consecutive finite points are joined; a NaN
// point (a gap from plot.Decimate) breaks the line, and a point alone
// between gaps is drawn as a dot. Each segment becomes one vertical span per
// pixel column it crosses, lw pixels wide, so the cost is the number of
// points plus the columns, whatever the zoom.
func rasterize(img *image.RGBA, f plot.Frame, lines []plotLine, lw int) {
	clear(img.Pix)
	if !f.Valid() {
		return
	}
	r := rasterizer{img: img, w: img.Rect.Dx(), h: img.Rect.Dy(), lw: max(1, lw)}
	for _, l := range lines {
		r.c = l.c
		r.series(f, l.s)
	}
}

type rasterizer struct {
	img  *image.RGBA
	w, h int
	lw   int
	c    color.RGBA
}

func finiteF(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

func (r *rasterizer) series(f plot.Frame, s plot.Series) {
	n := len(s.T)
	have := false
	var px, py float64
	for i := 0; i < n; i++ {
		v := s.V[i]
		if !finiteF(v) {
			have = false
			continue
		}
		x, y := f.X(s.T[i]), f.Y(v)
		if have {
			r.segment(px, py, x, y)
		} else if i+1 == n || !finiteF(s.V[i+1]) {
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

// valueRange returns the smallest and largest finite value of lines at
// times inside w, or, when no point lies inside, of all their points (the
// neighbours Decimate keeps outside the window); ok is false when there is
// none.
func valueRange(lines []plotLine, w plot.Window) (lo, hi float64, ok bool) {
	scan := func(inside bool) {
		for _, l := range lines {
			for i, v := range l.s.V {
				if !finiteF(v) || inside && !w.Contains(l.s.T[i]) {
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

// autoRange pads [lo, hi] by 5% on each side; a flat or empty range gets a
// span around its value.
func autoRange(lo, hi float64, ok bool) (float64, float64) {
	if !ok {
		return -1, 1
	}
	return plot.PadRange(lo, hi)
}
