package scene

import (
	"image"
	"image/color"
	"math"

	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"
)

// Renderer rasterises scenes into an RGBA image with a depth buffer. It
// keeps its image and depth buffer from frame to frame: drawing a frame of
// the same size allocates nothing per point. A Renderer is not safe for
// concurrent use; the image it returns is overwritten by the next Render.
type Renderer struct {
	// Background fills the image first.
	Background color.NRGBA
	// Grid, when above 0, draws a ground grid of 2·Grid cells of GridStep
	// metres each way in the fixed frame's x-y plane, about the origin
	// (GridStep 0: a power of ten that suits the camera's distance, about
	// the target).
	Grid     int
	GridStep float64
	// PointSize, when above 0, overrides every cloud's Size.
	PointSize int

	img   *image.RGBA
	depth []float32
}

// DefaultBackground is rviz's dark grey.
var DefaultBackground = color.NRGBA{48, 48, 48, 255}

// GridColor is the ground grid's colour.
var GridColor = color.NRGBA{110, 110, 110, 255}

// Render draws s as camera c sees it on a w×h image.
func (r *Renderer) Render(s *Scene, c *Camera, w, h int) *image.RGBA {
	w, h = max(w, 1), max(h, 1)
	if r.img == nil || r.img.Rect.Dx() != w || r.img.Rect.Dy() != h {
		r.img = image.NewRGBA(image.Rect(0, 0, w, h))
		r.depth = make([]float32, w*h)
	}
	bg := r.Background
	if bg.A == 0 {
		bg = DefaultBackground
	}
	pix := r.img.Pix
	for i := 0; i < len(pix); i += 4 {
		pix[i], pix[i+1], pix[i+2], pix[i+3] = bg.R, bg.G, bg.B, 255
	}
	inf := float32(math.Inf(1))
	for i := range r.depth {
		r.depth[i] = inf
	}
	v := c.view(w, h)
	if r.Grid > 0 {
		step, ox, oy := r.GridStep, 0.0, 0.0
		if step <= 0 {
			step = math.Pow(10, math.Floor(math.Log10(max(c.Dist, 1e-3)/2)))
			ox, oy = math.Round(c.Target[0]/step)*step, math.Round(c.Target[1]/step)*step
		}
		n := float64(r.Grid) * step
		for i := -r.Grid; i <= r.Grid; i++ {
			k := float64(i) * step
			r.line(&v, Line{A: Vec{ox + k, oy - n, 0}, B: Vec{ox + k, oy + n, 0}, Color: GridColor, Width: 1})
			r.line(&v, Line{A: Vec{ox - n, oy + k, 0}, B: Vec{ox + n, oy + k, 0}, Color: GridColor, Width: 1})
		}
	}
	if s == nil {
		return r.img
	}
	for _, g := range s.Grids {
		r.texture(&v, g)
	}
	// Opaque triangles, lines and points first; then the translucent
	// triangles (a marker's color.a below 1) blended over what is nearer
	// than them, without hiding what is drawn after.
	for i := range s.Tris {
		if s.Tris[i].Color.A == 255 {
			r.tri(&v, &s.Tris[i])
		}
	}
	for i := range s.Lines {
		r.line(&v, s.Lines[i])
	}
	for _, p := range s.Clouds {
		r.points(&v, p)
	}
	for i := range s.Tris {
		if a := s.Tris[i].Color.A; a != 255 && a != 0 {
			r.tri(&v, &s.Tris[i])
		}
	}
	for _, l := range s.Labels {
		r.label(&v, l)
	}
	return r.img
}

// points is the fast path: one projection and one depth test per point.
func (r *Renderer) points(v *view, p *Points) {
	w, h := r.img.Rect.Dx(), r.img.Rect.Dy()
	pix, depth := r.img.Pix, r.depth
	size := p.Size
	if r.PointSize > 0 {
		size = r.PointSize
	}
	size = min(max(size, 1), 8)
	half := (size - 1) / 2
	rx, ry, rz := v.right[0], v.right[1], v.right[2]
	ux, uy, uz := v.up[0], v.up[1], v.up[2]
	fx, fy, fz := v.fwd[0], v.fwd[1], v.fwd[2]
	ox, oy, oz, f, cx, cy := v.ox, v.oy, v.oz, v.f, v.cx, v.cy
	fw, fh, fsize, fhalf := float64(w), float64(h), float64(size), float64(half)
	one := Pack(p.Color)
	xs, ys, zs := p.X, p.Y[:len(p.X)], p.Z[:len(p.X)]
	cols := p.RGBA
	if len(cols) < len(xs) {
		cols = nil
	}
	for i := range xs {
		x, y, z := float64(xs[i]), float64(ys[i]), float64(zs[i])
		zc := fx*x + fy*y + fz*z + oz
		if !(zc >= near) { // also NaN
			continue
		}
		s := f / zc
		// Off the image (or NaN) is skipped before any conversion; the
		// rest is at least -size, so int(p+size)-size is its floor.
		px := cx + (rx*x+ry*y+rz*z+ox)*s - fhalf
		py := cy - (ux*x+uy*y+uz*z+oy)*s - fhalf
		if !(px > -fsize && px < fw && py > -fsize && py < fh) {
			continue
		}
		sx, sy := int(px+fsize)-size, int(py+fsize)-size
		col := one
		if cols != nil {
			col = cols[i]
		}
		d := float32(zc)
		if size == 1 {
			if uint(sx) >= uint(w) || uint(sy) >= uint(h) {
				continue
			}
			k := sy*w + sx
			if d < depth[k] {
				depth[k] = d
				o := 4 * k
				pix[o], pix[o+1], pix[o+2], pix[o+3] = byte(col), byte(col>>8), byte(col>>16), 255
			}
			continue
		}
		for yy := max(sy, 0); yy < min(sy+size, h); yy++ {
			for xx := max(sx, 0); xx < min(sx+size, w); xx++ {
				k := yy*w + xx
				if d < depth[k] {
					depth[k] = d
					o := 4 * k
					pix[o], pix[o+1], pix[o+2], pix[o+3] = byte(col), byte(col>>8), byte(col>>16), 255
				}
			}
		}
	}
}

// plot sets pixel (x, y) to col where depth d is nearer than what is there.
func (r *Renderer) plot(x, y int, d float32, col uint32) {
	w := r.img.Rect.Dx()
	if uint(x) >= uint(w) || uint(y) >= uint(r.img.Rect.Dy()) {
		return
	}
	k := y*w + x
	if d < r.depth[k] {
		r.depth[k] = d
		o := 4 * k
		r.img.Pix[o], r.img.Pix[o+1], r.img.Pix[o+2], r.img.Pix[o+3] = byte(col), byte(col>>8), byte(col>>16), 255
	}
}

// camera returns p in camera coordinates (right, up, depth).
func (v *view) camera(p Vec) Vec {
	return Vec{v.right.Dot(p) + v.ox, v.up.Dot(p) + v.oy, v.fwd.Dot(p) + v.oz}
}

// screen projects a point in camera coordinates (depth ≥ near).
func (v *view) screen(c Vec) (x, y float64) {
	s := v.f / c[2]
	return v.cx + c[0]*s, v.cy - c[1]*s
}

// line draws a segment, cut where it passes behind the eye and to the
// image.
func (r *Renderer) line(v *view, l Line) {
	a, b := v.camera(l.A), v.camera(l.B)
	if a[2] < near && b[2] < near {
		return
	}
	// Cut at the near plane.
	if a[2] < near || b[2] < near {
		t := (near - a[2]) / (b[2] - a[2])
		m := a.Add(b.Sub(a).Scale(t))
		m[2] = near
		if a[2] < near {
			a = m
		} else {
			b = m
		}
	}
	x0, y0 := v.screen(a)
	x1, y1 := v.screen(b)
	z0, z1 := a[2], b[2]
	w, h := float64(r.img.Rect.Dx()), float64(r.img.Rect.Dy())
	// Cut to the image (Liang-Barsky), carrying the depth along.
	t0, t1 := 0.0, 1.0
	dx, dy := x1-x0, y1-y0
	for _, e := range [4][2]float64{{-dx, x0 + 2}, {dx, w + 2 - x0}, {-dy, y0 + 2}, {dy, h + 2 - y0}} {
		p, q := e[0], e[1]
		if p == 0 {
			if q < 0 {
				return
			}
			continue
		}
		t := q / p
		if p < 0 {
			t0 = max(t0, t)
		} else {
			t1 = min(t1, t)
		}
	}
	if t0 > t1 || math.IsNaN(t0) || math.IsNaN(t1) {
		return
	}
	sx, sy, sz := x0+t0*dx, y0+t0*dy, z0+t0*(z1-z0)
	ex, ey, ez := x0+t1*dx, y0+t1*dy, z0+t1*(z1-z0)
	n := int(math.Ceil(max(math.Abs(ex-sx), math.Abs(ey-sy))))
	col := Pack(l.Color)
	width := min(max(l.Width, 1), 6)
	half := (width - 1) / 2
	for i := 0; i <= n; i++ {
		t := 0.0
		if n > 0 {
			t = float64(i) / float64(n)
		}
		px, py := int(math.Floor(sx+t*(ex-sx))), int(math.Floor(sy+t*(ey-sy)))
		d := float32(sz+t*(ez-sz)) - 1e-4 // lines win ties with the surfaces they edge
		for yy := py - half; yy < py-half+width; yy++ {
			for xx := px - half; xx < px-half+width; xx++ {
				r.plot(xx, yy, d, col)
			}
		}
	}
}

// tri fills a triangle, dropped when a corner is behind the eye.
func (r *Renderer) tri(v *view, t *Tri) {
	a, b, c := v.camera(t.A), v.camera(t.B), v.camera(t.C)
	if a[2] < near || b[2] < near || c[2] < near {
		return
	}
	ax, ay := v.screen(a)
	bx, by := v.screen(b)
	cx, cy := v.screen(c)
	area := (bx-ax)*(cy-ay) - (by-ay)*(cx-ax)
	if area == 0 || math.IsNaN(area) {
		return
	}
	w, h := r.img.Rect.Dx(), r.img.Rect.Dy()
	x0 := max(int(math.Floor(min(ax, bx, cx))), 0)
	x1 := min(int(math.Ceil(max(ax, bx, cx))), w-1)
	y0 := max(int(math.Floor(min(ay, by, cy))), 0)
	y1 := min(int(math.Ceil(max(ay, by, cy))), h-1)
	sc := shade(t)
	col := Pack(sc)
	alpha := sc.A
	for y := y0; y <= y1; y++ {
		py := float64(y) + 0.5
		for x := x0; x <= x1; x++ {
			px := float64(x) + 0.5
			wa := ((bx-px)*(cy-py) - (by-py)*(cx-px)) / area
			wb := ((cx-px)*(ay-py) - (cy-py)*(ax-px)) / area
			wc := 1 - wa - wb
			if wa < 0 || wb < 0 || wc < 0 {
				continue
			}
			d := float32(wa*a[2] + wb*b[2] + wc*c[2])
			if alpha == 255 {
				r.plot(x, y, d, col)
			} else {
				r.blend(x, y, d, sc)
			}
		}
	}
}

// blend mixes col over pixel (x, y) by its alpha where depth d is nearer
// than what is there, leaving the depth as it is (translucent).
func (r *Renderer) blend(x, y int, d float32, col color.NRGBA) {
	w := r.img.Rect.Dx()
	if uint(x) >= uint(w) || uint(y) >= uint(r.img.Rect.Dy()) {
		return
	}
	k := y*w + x
	if d >= r.depth[k] {
		return
	}
	o := 4 * k
	a := uint32(col.A)
	px := r.img.Pix[o : o+3 : o+3]
	px[0] = byte((uint32(col.R)*a + uint32(px[0])*(255-a) + 127) / 255)
	px[1] = byte((uint32(col.G)*a + uint32(px[1])*(255-a) + 127) / 255)
	px[2] = byte((uint32(col.B)*a + uint32(px[2])*(255-a) + 127) / 255)
}

// shade darkens a triangle by how far its normal turns from the fixed
// frame's z axis, so that the faces of a box differ.
func shade(t *Tri) color.NRGBA {
	n := t.B.Sub(t.A).Cross(t.C.Sub(t.A)).Unit()
	k := 0.6 + 0.4*math.Abs(n[2])
	c := t.Color
	return color.NRGBA{uint8(float64(c.R) * k), uint8(float64(c.G) * k), uint8(float64(c.B) * k), c.A}
}

// label draws text just right of its point, over everything.
func (r *Renderer) label(v *view, l Label) {
	c := v.camera(l.At)
	if c[2] < near {
		return
	}
	x, y := v.screen(c)
	if x < -1000 || y < -100 || x > float64(r.img.Rect.Dx()) || y > float64(r.img.Rect.Dy())+20 {
		return
	}
	col := l.Color
	if col.A == 0 {
		col = color.NRGBA{230, 230, 230, 255}
	}
	d := font.Drawer{Dst: r.img, Src: image.NewUniform(col), Face: basicfont.Face7x13,
		Dot: fixed.P(int(x)+4, int(y)-3)}
	d.DrawString(l.Text)
}

// Pick returns the cloud and point nearest the pixel (x, y) of a w×h
// image within radius pixels, the nearest to the eye among equally near
// ones; ok false when none is.
func Pick(s *Scene, c *Camera, w, h int, x, y, radius float64) (cloud, point int, ok bool) {
	if s == nil {
		return 0, 0, false
	}
	v := c.view(w, h)
	best, bestZ := radius*radius, math.Inf(1)
	for ci, p := range s.Clouds {
		for i := range p.X {
			sx, sy, z, in := v.project(Vec{float64(p.X[i]), float64(p.Y[i]), float64(p.Z[i])})
			if !in {
				continue
			}
			d := (sx-x)*(sx-x) + (sy-y)*(sy-y)
			if d < best || d == best && z < bestZ {
				best, bestZ, cloud, point, ok = d, z, ci, i, true
			}
		}
	}
	return cloud, point, ok
}
