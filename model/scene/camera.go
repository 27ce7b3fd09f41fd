package scene

import "math"

// Camera looks at Target from Dist metres away, from the direction Yaw
// (about the fixed frame's z axis, from x towards y) and Pitch (above the
// x-y plane), as rviz's orbit view does: z is up. Perspective with a
// vertical field of view FovY (radians).
type Camera struct {
	Target     Vec
	Yaw, Pitch float64
	Dist       float64
	FovY       float64
}

// Camera limits.
const (
	MinDist  = 0.01
	MaxDist  = 1e5
	MaxPitch = math.Pi / 2 // straight down (the top view) is allowed
	// OrbitRate is radians per pixel dragged.
	OrbitRate = 0.008
	near      = 1e-3 // metres in front of the eye a point must be
)

// DefaultCamera looks at the origin from 10 m, from behind x and above, as
// rviz starts.
func DefaultCamera() Camera {
	return Camera{Yaw: math.Pi + math.Pi/4, Pitch: math.Pi / 5, Dist: 10, FovY: math.Pi / 4}
}

// Eye is where the camera is.
func (c *Camera) Eye() Vec {
	cp := math.Cos(c.Pitch)
	dir := Vec{cp * math.Cos(c.Yaw), cp * math.Sin(c.Yaw), math.Sin(c.Pitch)}
	return c.Target.Add(dir.Scale(c.Dist))
}

// Basis returns the camera's right, up and forward unit vectors. Right is
// taken from the yaw alone, so looking straight down (the top view) is
// as well defined as any other direction.
func (c *Camera) Basis() (right, up, fwd Vec) {
	fwd = c.Target.Sub(c.Eye()).Unit()
	right = Vec{-math.Sin(c.Yaw), math.Cos(c.Yaw), 0}
	up = right.Cross(fwd)
	return right, up, fwd
}

// focal is the distance in pixels from the eye to an image h pixels high.
func (c *Camera) focal(h int) float64 {
	return float64(h) / 2 / math.Tan(c.FovY/2)
}

// Project returns where p falls on a w×h image (x right, y down, pixels
// from the top left corner) and its depth along the view; ok is false for
// a point behind the eye.
func (c *Camera) Project(p Vec, w, h int) (x, y, depth float64, ok bool) {
	v := c.view(w, h)
	return v.project(p)
}

// Orbit turns the camera about its target by a drag of dx, dy pixels:
// right turns it left about z, down lifts it.
func (c *Camera) Orbit(dx, dy float64) {
	c.Yaw -= dx * OrbitRate
	c.Yaw = math.Mod(c.Yaw, 2*math.Pi)
	c.Pitch = min(max(c.Pitch+dy*OrbitRate, -MaxPitch), MaxPitch)
}

// Pan moves the target (and the camera) by a drag of dx, dy pixels on an
// image h pixels high, so that the point under the pointer at the
// target's distance follows the pointer.
func (c *Camera) Pan(dx, dy float64, h int) {
	right, up, _ := c.Basis()
	m := c.Dist / c.focal(h) // metres per pixel at the target
	c.Target = c.Target.Add(right.Scale(-dx * m)).Add(up.Scale(dy * m))
}

// Zoom moves the camera f times its distance from the target (f < 1
// nearer).
func (c *Camera) Zoom(f float64) {
	if f > 0 && !math.IsInf(f, 0) {
		c.Dist = min(max(c.Dist*f, MinDist), MaxDist)
	}
}

// Top looks straight down on the target, x up the image (rviz's
// top-down view).
func (c *Camera) Top() {
	c.Yaw, c.Pitch = math.Pi, MaxPitch
}

// Side looks along y at the target from the side (-y), level.
func (c *Camera) Side() {
	c.Yaw, c.Pitch = -math.Pi/2, 0
}

// Fit aims at the middle of the box lo..hi and comes as near as keeps
// the box's corners on a w×h image.
func (c *Camera) Fit(lo, hi Vec, w, h int) {
	if !(lo[0] <= hi[0] && lo[1] <= hi[1] && lo[2] <= hi[2]) {
		return
	}
	c.Target = lo.Add(hi).Scale(0.5)
	r := max(hi.Sub(lo).Norm()/2, 0.5)
	// The sphere about the box fits from this distance whatever the view.
	c.Dist = min(max(r/math.Sin(c.FovY/2), MinDist), MaxDist)
	inside := func() bool {
		for k := range 8 {
			p := Vec{lo[0], lo[1], lo[2]}
			for i := range 3 {
				if k>>i&1 == 1 {
					p[i] = hi[i]
				}
			}
			x, y, _, ok := c.Project(p, w, h)
			if !ok || x < 0.03*float64(w) || x > 0.97*float64(w) || y < 0.03*float64(h) || y > 0.97*float64(h) {
				return false
			}
		}
		return true
	}
	for range 40 {
		d := c.Dist
		c.Dist = max(d*0.95, MinDist)
		if !inside() {
			c.Dist = d
			return
		}
	}
}

// view is the camera fixed for one image: projection without trigonometry
// per point.
type view struct {
	right, up, fwd Vec
	eye            Vec
	// ox, oy, oz are -eye·right, -eye·up, -eye·fwd: a point's camera
	// coordinates are right·p+ox, up·p+oy, fwd·p+oz.
	ox, oy, oz float64
	f          float64
	cx, cy     float64
}

func (c *Camera) view(w, h int) view {
	r, u, f := c.Basis()
	e := c.Eye()
	return view{right: r, up: u, fwd: f, eye: e, ox: -e.Dot(r), oy: -e.Dot(u), oz: -e.Dot(f),
		f: c.focal(h), cx: float64(w) / 2, cy: float64(h) / 2}
}

func (v *view) project(p Vec) (x, y, depth float64, ok bool) {
	z := v.fwd.Dot(p) + v.oz
	if z < near {
		return 0, 0, z, false
	}
	s := v.f / z
	return v.cx + (v.right.Dot(p)+v.ox)*s, v.cy - (v.up.Dot(p)+v.oy)*s, z, true
}

// Ray returns the eye and the unit direction through pixel (x, y) of a
// w×h image.
func (c *Camera) Ray(x, y float64, w, h int) (Vec, Vec) {
	v := c.view(w, h)
	d := v.fwd.Scale(v.f).Add(v.right.Scale(x - v.cx)).Add(v.up.Scale(v.cy - y))
	return v.eye, d.Unit()
}
