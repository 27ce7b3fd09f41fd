package scene

import (
	"image/color"
	"math"
	"testing"
)

// TestProject places known points by hand: the camera's image of the
// target is the image's centre, and a point one metre right (up) of the
// target at distance d falls focal/d pixels right (up) of it.
func TestProject(t *testing.T) {
	const w, h = 200, 100
	f := 50 / math.Tan(math.Pi/8) // focal length in pixels for FovY 45°, 100 px high
	top := DefaultCamera()
	top.Top()
	side := DefaultCamera()
	side.Side()
	for _, tc := range []struct {
		name   string
		cam    Camera
		p      Vec
		x, y   float64
		depth  float64
		behind bool
	}{
		{"top: the target", top, Vec{0, 0, 0}, 100, 50, 10, false},
		{"top: x is up the image", top, Vec{1, 0, 0}, 100, 50 - f/10, 10, false},
		{"top: y is left", top, Vec{0, 1, 0}, 100 - f/10, 50, 10, false},
		{"top: z nearer", top, Vec{0, 0, 5}, 100, 50, 5, false},
		{"side: x right", side, Vec{1, 0, 0}, 100 + f/10, 50, 10, false},
		{"side: z up", side, Vec{0, 0, 2}, 100, 50 - 2*f/10, 10, false},
		{"side: behind the eye", side, Vec{0, -11, 0}, 0, 0, 0, true},
		{"moved target", Camera{Target: Vec{5, 5, 0}, Yaw: math.Pi, Pitch: MaxPitch, Dist: 4, FovY: math.Pi / 4}, Vec{5, 5, 0}, 100, 50, 4, false},
	} {
		x, y, d, ok := tc.cam.Project(tc.p, w, h)
		if ok == tc.behind {
			t.Errorf("%s: ok %v", tc.name, ok)
			continue
		}
		if ok && (math.Abs(x-tc.x) > 1e-9 || math.Abs(y-tc.y) > 1e-9 || math.Abs(d-tc.depth) > 1e-9) {
			t.Errorf("%s: (%g, %g) depth %g, want (%g, %g) depth %g", tc.name, x, y, d, tc.x, tc.y, tc.depth)
		}
	}
}

// TestCameraMoves checks orbit, pan and zoom by what the user sees: a pan
// moves the target's image with the pointer, an orbit keeps the target in
// the centre and turns the view, a zoom keeps the target and changes the
// distance within its limits; Ray through a pixel passes through the
// points that project there.
func TestCameraMoves(t *testing.T) {
	const w, h = 640, 400
	for _, tc := range []struct {
		name   string
		move   func(c *Camera)
		target Vec // where the old target must project after the move: offset from the centre
		dx, dy float64
		dist   float64
	}{
		{"pan right and down", func(c *Camera) { c.Pan(30, 20, h) }, Vec{}, 30, 20, 10},
		{"orbit", func(c *Camera) { c.Orbit(100, -40) }, Vec{}, 0, 0, 10},
		{"zoom in", func(c *Camera) { c.Zoom(0.5) }, Vec{}, 0, 0, 5},
		{"zoom limit", func(c *Camera) { c.Zoom(1e-9) }, Vec{}, 0, 0, MinDist},
		{"zoom out limit", func(c *Camera) { c.Zoom(1e12) }, Vec{}, 0, 0, MaxDist},
		{"bad zoom ignored", func(c *Camera) { c.Zoom(math.Inf(1)); c.Zoom(-1) }, Vec{}, 0, 0, 10},
	} {
		c := DefaultCamera()
		old := c.Target
		tc.move(&c)
		x, y, _, ok := c.Project(old, w, h)
		if !ok || math.Abs(x-w/2-tc.dx) > 1e-6 || math.Abs(y-h/2-tc.dy) > 1e-6 {
			t.Errorf("%s: the old target at (%g, %g), want (%g, %g) from the centre", tc.name, x-w/2, y-h/2, tc.dx, tc.dy)
		}
		if math.Abs(c.Dist-tc.dist) > 1e-9 {
			t.Errorf("%s: distance %g, want %g", tc.name, c.Dist, tc.dist)
		}
	}
	// Orbiting far down stops at straight down; the view stays defined.
	c := DefaultCamera()
	c.Orbit(0, 1e6)
	if c.Pitch != MaxPitch {
		t.Errorf("pitch %g, want %g", c.Pitch, MaxPitch)
	}
	if _, _, _, ok := c.Project(Vec{1, 1, 0}, w, h); !ok {
		t.Error("straight down: a point on the ground does not project")
	}
	// A dragged orbit turns the scene: a point right of the target moves.
	c = DefaultCamera()
	x0, _, _, _ := c.Project(Vec{0, 1, 0}, w, h)
	c.Orbit(50, 0)
	if x1, _, _, _ := c.Project(Vec{0, 1, 0}, w, h); math.Abs(x1-x0) < 5 {
		t.Errorf("orbit moved (0,1,0) from x %g to %g", x0, x1)
	}
	// Ray.
	c = DefaultCamera()
	c.Orbit(33, 12)
	for _, p := range []Vec{{1, 2, 3}, {-4, 0.5, 0}} {
		x, y, d, _ := c.Project(p, w, h)
		eye, dir := c.Ray(x, y, w, h)
		q := eye.Add(dir.Scale(p.Sub(eye).Norm()))
		if !near3(q, p, 1e-9) || d <= 0 {
			t.Errorf("ray through %v's pixel reaches %v", p, q)
		}
	}
	// Fit frames a box.
	c = DefaultCamera()
	c.Fit(Vec{-1, -1, -1}, Vec{3, 1, 1}, w, h)
	fitted := c.Dist
	for _, p := range []Vec{{-1, -1, -1}, {3, 1, 1}, {3, -1, 1}} {
		if x, y, _, ok := c.Project(p, w, h); !ok || x < 0 || x > w || y < 0 || y > h {
			t.Errorf("fit: %v at (%g, %g) is off the image", p, x, y)
		}
	}
	// and no nearer would do: 5% nearer, a corner leaves the image.
	c.Dist = fitted * 0.95
	off := false
	for k := range 8 {
		p := Vec{-1, -1, -1}
		for i, hi := range []float64{3, 1, 1} {
			if k>>i&1 == 1 {
				p[i] = hi
			}
		}
		if x, y, _, ok := c.Project(p, w, h); !ok || x < 0.03*w || x > 0.97*w || y < 0.03*h || y > 0.97*h {
			off = true
		}
	}
	if !off {
		t.Errorf("fit: at %g every corner is still on the image: the fit at %g is too far", c.Dist, fitted)
	}
}

// TestRender draws known primitives and reads the pixels back: a point
// lands on its projected pixel, a nearer point hides a farther one on the
// same pixel whatever the order, lines and triangles fill what they
// cover, and a second frame of the same size allocates nothing.
func TestRender(t *testing.T) {
	const w, h = 120, 80
	c := DefaultCamera()
	c.Top()
	red, blue := color.NRGBA{255, 0, 0, 255}, color.NRGBA{0, 0, 255, 255}
	at := func(r *Renderer, s *Scene, p Vec) color.RGBA {
		img := r.Render(s, &c, w, h)
		x, y, _, _ := c.Project(p, w, h)
		return img.RGBAAt(int(math.Floor(x)), int(math.Floor(y)))
	}
	pts := func(z ...float32) *Points {
		p := &Points{Size: 1, Color: red}
		for range z {
			p.X, p.Y = append(p.X, 0), append(p.Y, 0) // on the view's axis: one pixel at any height
		}
		p.Z = z
		p.RGBA = []uint32{Pack(red), Pack(blue)}[:len(z)]
		return p
	}
	var r Renderer
	for _, tc := range []struct {
		name string
		s    *Scene
		p    Vec
		want color.RGBA
	}{
		{"a point", &Scene{Clouds: []*Points{{X: []float32{1}, Y: []float32{1}, Z: []float32{0}, Size: 1, Color: red}}}, Vec{1, 1, 0}, color.RGBA{255, 0, 0, 255}},
		{"nearer first", &Scene{Clouds: []*Points{pts(2, 0)}}, Vec{0, 0, 0}, color.RGBA{255, 0, 0, 255}},
		{"nearer second", &Scene{Clouds: []*Points{pts(0, 2)}}, Vec{0, 0, 0}, color.RGBA{0, 0, 255, 255}},
		{"background", &Scene{}, Vec{1, 1, 0}, color.RGBA{48, 48, 48, 255}},
		{"a line's middle", &Scene{Lines: []Line{{A: Vec{-2, 0, 0}, B: Vec{2, 0, 0}, Color: red}}}, Vec{0.5, 0, 0}, color.RGBA{255, 0, 0, 255}},
		{"a line through the eye", &Scene{Lines: []Line{{A: Vec{0.5, 0, -5}, B: Vec{0.5, 0, 50}, Color: red}}}, Vec{0.5, 0, 0}, color.RGBA{255, 0, 0, 255}},
		{"a triangle", &Scene{Tris: []Tri{{A: Vec{0, 0, 0}, B: Vec{2, 0, 0}, C: Vec{0, 2, 0}, Color: blue}}}, Vec{0.5, 0.5, 0}, color.RGBA{0, 0, 255, 255}},
		{"a point above a triangle", &Scene{Tris: []Tri{{A: Vec{0, 0, 0}, B: Vec{2, 0, 0}, C: Vec{0, 2, 0}, Color: blue}},
			Clouds: []*Points{{X: []float32{0.5}, Y: []float32{0.5}, Z: []float32{0.1}, Size: 1, Color: red}}}, Vec{0.5, 0.5, 0.1}, color.RGBA{255, 0, 0, 255}},
		{"a point under a triangle", &Scene{Tris: []Tri{{A: Vec{0, 0, 0}, B: Vec{2, 0, 0}, C: Vec{0, 2, 0}, Color: blue}},
			Clouds: []*Points{{X: []float32{0.5}, Y: []float32{0.5}, Z: []float32{-0.1}, Size: 1, Color: red}}}, Vec{0.5, 0.5, -0.1}, color.RGBA{0, 0, 255, 255}},
	} {
		if got := at(&r, tc.s, tc.p); got != tc.want {
			t.Errorf("%s: pixel %v, want %v", tc.name, got, tc.want)
		}
	}
	// NaN and far-off points are skipped, not drawn at a wrapped pixel.
	nan := float32(math.NaN())
	img := r.Render(&Scene{Clouds: []*Points{{X: []float32{nan, 1e30, -1e30}, Y: []float32{0, 1e30, 0}, Z: []float32{0, 0, 1e30}, Size: 3, Color: red}}}, &c, w, h)
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i] == 255 {
			t.Fatalf("a NaN or far point was drawn at pixel %d", i/4)
		}
	}
	// No allocation per frame, whatever the number of points.
	big := &Points{Size: 2, Color: red}
	for i := range 10000 {
		big.X = append(big.X, float32(i%100)/10)
		big.Y = append(big.Y, float32(i/100)/10)
		big.Z = append(big.Z, 0)
	}
	s := &Scene{Clouds: []*Points{big}}
	r.Render(s, &c, w, h)
	if a := testing.AllocsPerRun(5, func() { r.Render(s, &c, w, h) }); a != 0 {
		t.Errorf("%g allocations per frame, want 0", a)
	}
}

func TestPick(t *testing.T) {
	const w, h = 200, 100
	c := DefaultCamera()
	c.Top()
	s := &Scene{Clouds: []*Points{
		{X: []float32{0, 1}, Y: []float32{0, 0}, Z: []float32{0, 0}},
		{X: []float32{0}, Y: []float32{0}, Z: []float32{2}},
	}}
	for _, tc := range []struct {
		name         string
		p            Vec
		cloud, point int
		ok           bool
	}{
		{"the nearer of two on one pixel", Vec{0, 0, 0}, 1, 0, true},
		{"a lone point", Vec{1, 0, 0}, 0, 1, true},
		{"nothing near", Vec{-3, -3, 0}, 0, 0, false},
	} {
		x, y, _, _ := c.Project(tc.p, w, h)
		ci, pi, ok := Pick(s, &c, w, h, x+1, y-1, 4)
		if ok != tc.ok || ok && (ci != tc.cloud || pi != tc.point) {
			t.Errorf("%s: %d %d %v, want %d %d %v", tc.name, ci, pi, ok, tc.cloud, tc.point, tc.ok)
		}
	}
}

// TestFitBounds: a few stray points far away are left out of the box a
// view fits; lines and the bulk of a cloud are in it.
func TestFitBounds(t *testing.T) {
	p := &Points{}
	for i := range 1000 {
		p.X = append(p.X, float32(i%10))
		p.Y = append(p.Y, float32(i/100))
		p.Z = append(p.Z, 0)
	}
	p.X[500], p.Y[500], p.Z[500] = 1000, -1000, 500 // one stray return
	s := &Scene{Clouds: []*Points{p}, Lines: []Line{{A: Vec{-5, 0, 0}, B: Vec{0, 0, 1}}}}
	lo, hi, ok := s.FitBounds()
	if !ok || !near3(lo, Vec{-5, 0, 0}, 0) || !near3(hi, Vec{9, 9, 1}, 0) {
		t.Errorf("fit box %v..%v, want (-5, 0, 0)..(9, 9, 1)", lo, hi)
	}
	if lo, hi, _ := s.Bounds(); hi[0] != 1000 || lo[1] != -1000 {
		t.Errorf("Bounds %v..%v lost the stray point", lo, hi)
	}
}
