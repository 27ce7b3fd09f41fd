package plot

import (
	"image"
	"image/color"
	"math"
	"testing"
)

// circle is n points around a circle of radius r centred at (cx, cy), one
// turn per period points, 10 ms apart.
func circle(n, period int, r, cx, cy float64) XY {
	p := XY{Name: "circle", XName: "x", YName: "y", T: make([]int64, n), X: make([]float64, n), Y: make([]float64, n)}
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(period)
		p.T[i] = t0 + int64(i)*1e7
		p.X[i], p.Y[i] = cx+r*math.Cos(a), cy+r*math.Sin(a)
	}
	return p
}

func TestJoinXY(t *testing.T) {
	x := Series{Name: "/odom.x", T: secs(0, 1, 2), V: []float64{0, 1, 2}}
	tests := []struct {
		name  string
		y     Series
		wantY []float64
		yName string
	}{
		{"one topic: message by message", Series{Name: "/odom.y", T: x.T, V: []float64{5, 6, 7}}, []float64{5, 6, 7}, "/odom.y"},
		{"two topics: nearest time", Series{Name: "/gps.y", T: secs(0.2, 1.9), V: []float64{8, 9}}, []float64{8, 8, 9}, "/gps.y (nearest in time)"},
		{"y has more points", Series{Name: "/odom.y", T: secs(0, 0.5, 1, 2), V: []float64{5, 0, 6, 7}}, []float64{5, 6, 7}, "/odom.y"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := JoinXY(x, tc.y)
			if p.Name != "/odom.x vs "+tc.y.Name || p.XName != "/odom.x" || p.YName != tc.yName {
				t.Errorf("names %q %q %q", p.Name, p.XName, p.YName)
			}
			if !sameValues(p.X, x.V, 0) || !sameValues(p.Y, tc.wantY, 0) {
				t.Errorf("X %v Y %v, want Y %v", p.X, p.Y, tc.wantY)
			}
		})
	}
}

func TestBoundsEqual(t *testing.T) {
	tests := []struct {
		name string
		b    Bounds
		w, h float64
		want Bounds
	}{
		{"wide data, square area: y widens", Bounds{0, 10, 0, 2}, 100, 100, Bounds{0, 10, -4, 6}},
		{"tall data, wide area: x widens", Bounds{0, 1, 0, 1}, 200, 100, Bounds{-0.5, 1.5, 0, 1}},
		{"already equal", Bounds{0, 2, 0, 1}, 200, 100, Bounds{0, 2, 0, 1}},
		{"no area: unchanged", Bounds{0, 2, 0, 1}, 0, 100, Bounds{0, 2, 0, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.b.Equal(tc.w, tc.h)
			if got != tc.want {
				t.Errorf("got %+v, want %+v", got, tc.want)
			}
			if tc.w > 0 && math.Abs((got.X1-got.X0)/tc.w-(got.Y1-got.Y0)/tc.h) > 1e-12 {
				t.Error("units per pixel differ")
			}
		})
	}
}

// near reports whether every painted pixel of a has a painted pixel of b
// within one pixel.
func near(a, b *image.RGBA) bool {
	W, H := a.Rect.Dx(), a.Rect.Dy()
	for y := range H {
		for x := range W {
			if a.RGBAAt(x, y).A == 0 {
				continue
			}
			ok := false
			for dy := -1; dy <= 1 && !ok; dy++ {
				for dx := -1; dx <= 1 && !ok; dx++ {
					ok = b.RGBAAt(x+dx, y+dy).A != 0
				}
			}
			if !ok {
				return false
			}
		}
	}
	return true
}

// TestDecimateXYDrawsTheSame rasterises a slow path of many points (four
// turns of a circle), in full and decimated: the images must agree to
// within a pixel, from far fewer points, and a gap must stay a gap.
func TestDecimateXYDrawsTheSame(t *testing.T) {
	p := circle(200_000, 50_000, 1, 0, 0)
	for i := 150_000; i < 150_100; i++ {
		p.X[i] = math.NaN()
	}
	w := Window{p.T[0], p.T[len(p.T)-1]}
	tests := []struct {
		name    string
		w       Window
		b       Bounds
		maxKept int
	}{
		{"whole", w, Bounds{-1.1, 1.1, -1.1, 1.1}, 20_000},
		// Zoomed in, a pixel holds about four points.
		{"zoomed into an arc", w, Bounds{0.9, 1.05, -0.1, 0.2}, 60_000},
		{"part of the time", Window{p.T[1000], p.T[17000]}, Bounds{-1.1, 1.1, -1.1, 1.1}, 1000},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			const W, H = 300, 200
			f := XYFrame{Width: W, Height: H, Data: Rect{X1: W, Y1: H}, B: tc.b}
			i, j := p.Span(tc.w)
			full := XY{T: p.T[i:j], X: p.X[i:j], Y: p.Y[i:j]}
			dec := DecimateXY(XY{}, p, tc.w, f)
			a, b := image.NewRGBA(image.Rect(0, 0, W, H)), image.NewRGBA(image.Rect(0, 0, W, H))
			col := []color.RGBA{{0, 0, 255, 255}}
			RasterizeXY(a, f, []XY{full}, col, 1)
			RasterizeXY(b, f, []XY{dec}, col, 1)
			if !near(a, b) || !near(b, a) {
				t.Error("the decimated path draws more than a pixel away from the full one")
			}
			if len(dec.T) > tc.maxKept {
				t.Errorf("%d of %d points kept, want at most %d", len(dec.T), j-i, tc.maxKept)
			}
			painted := 0
			for k := 3; k < len(a.Pix); k += 4 {
				if a.Pix[k] != 0 {
					painted++
				}
			}
			if painted < 100 {
				t.Errorf("%d pixels drawn", painted)
			}
		})
	}
	gaps := 0
	for _, x := range DecimateXY(XY{}, p, w, XYFrame{Data: Rect{X1: 300, Y1: 200}, B: Bounds{-1.1, 1.1, -1.1, 1.1}}).X {
		if math.IsNaN(x) {
			gaps++
		}
	}
	if gaps != 1 {
		t.Errorf("%d gaps, want 1", gaps)
	}
}

func TestXYViewAndNearest(t *testing.T) {
	p := circle(1000, 1000, 2, 10, -5)
	w := Window{p.T[0], p.T[len(p.T)-1]}
	v := XYView{}
	b := v.Bounds([]XY{p}, w, 400, 200)
	if b.X0 > 8 || b.X1 < 12 || b.Y0 > -7 || b.Y1 < -3 {
		t.Errorf("fitted bounds %+v do not hold the circle", b)
	}
	v.Equal = true
	b = v.Bounds([]XY{p}, w, 400, 200)
	if math.Abs((b.X1-b.X0)/400-(b.Y1-b.Y0)/200) > 1e-12 {
		t.Errorf("equal bounds %+v are not equal on 400×200", b)
	}
	v.Frame = XYFrame{Data: Rect{X0: 50, Y0: 10, X1: 450, Y1: 210}, B: b}
	// The point (12, -5) sits at angle 0: index 0.
	px, py := v.Frame.X(12), v.Frame.Y(-5)
	if h, ok := NearestXY([]XY{p}, w, v.Frame, px+2, py, 8); !ok || h.Index != 0 && h.Index != 999 {
		t.Errorf("nearest %+v %v", h, ok)
	}
	if _, ok := NearestXY([]XY{p}, w, v.Frame, v.Frame.X(10), v.Frame.Y(-5), 8); ok {
		t.Error("a point is near the centre of the circle")
	}
	v.ZoomAt(px, py, 2)
	v.Frame.B = v.B
	if !v.Fixed || math.Abs(v.Frame.X(12)-px) > 1e-9 || math.Abs(v.Frame.Y(-5)-py) > 1e-9 {
		t.Errorf("zoom moved the point under the pointer: %+v", v.B)
	}
	if got := v.B.X1 - v.B.X0; math.Abs(got-(b.X1-b.X0)/2) > 1e-9 {
		t.Errorf("zoom by 2 spans %v", got)
	}
	before := v.B
	v.Pan(40, -20)
	if dx := (v.B.X0 - before.X0) / (before.X1 - before.X0) * 400; math.Abs(dx+40) > 1e-9 {
		t.Errorf("pan by 40 px moved x by %v px", dx)
	}
	v.Fit()
	if v.Fixed {
		t.Error("Fit kept fixed bounds")
	}
	if i, ok := p.At(p.T[10] + 5e6); !ok || i != 10 {
		t.Errorf("At between points 10 and 11: %d", i)
	}
}
