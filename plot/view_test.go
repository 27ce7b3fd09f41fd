package plot

import (
	"image/color"
	"math"
	"testing"
)

// TestFrameMapsPixels draws a horizontal and a vertical line and checks
// that the frame puts them where they are drawn, and that pixel and data
// positions map back and forth.
func TestFrameMapsPixels(t *testing.T) {
	w := Window{t0, t0 + 10e9}
	h := Series{Name: "h", T: []int64{t0, t0 + 10e9}, V: []float64{3, 3}}
	v := Series{Name: "v", T: []int64{t0 + 4e9, t0 + 4e9}, V: []float64{-10, 10}}
	img, f := Render([]Series{h, v}, w, YRange{Fixed: true, Min: 0, Max: 5}, 640, 400, Options{Origin: t0})
	if !f.Valid() {
		t.Fatalf("frame %+v", f)
	}
	near := func(x, y int, want color.RGBA) bool {
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				c := img.RGBAAt(x+dx, y+dy)
				// Antialiased: within 80 of the colour in every channel.
				if absDiff(c.R, want.R) < 80 && absDiff(c.G, want.G) < 80 && absDiff(c.B, want.B) < 80 {
					return true
				}
			}
		}
		return false
	}
	y3 := int(f.Y(3))
	for _, x := range []int{int(f.Data.X0) + 30, int(f.Data.X1) - 30} {
		if !near(x, y3, PaletteColor(0)) {
			t.Errorf("no horizontal line at (%d, %d): %v", x, y3, img.RGBAAt(x, y3))
		}
	}
	x4 := int(f.X(t0 + 4e9))
	if !near(x4, int(f.Data.Y0)+20, PaletteColor(1)) {
		t.Errorf("no vertical line at x=%d", x4)
	}
	if got := f.Time(f.X(t0 + 1234567890)); math.Abs(float64(got-(t0+1234567890))) > 1 {
		t.Errorf("time round trip: %d", got-t0)
	}
	if got := f.Value(f.Y(1.25)); math.Abs(got-1.25) > 1e-12 {
		t.Errorf("value round trip: %v", got)
	}
}

func TestRenderTinySizes(t *testing.T) {
	s := []Series{sampled("s", 100, 1, math.Sin)}
	for _, sz := range [][2]int{{0, 0}, {0, 100}, {100, 0}, {-5, 10}, {1, 1}, {47, 300}, {MinSize, MinSize}, {200, 150}} {
		img, f := Render(s, Window{t0, t0 + 1e9}, YRange{}, sz[0], sz[1], Options{})
		if img.Bounds().Dx() != max(sz[0], 0) || img.Bounds().Dy() != max(sz[1], 0) {
			t.Errorf("%v: image %v", sz, img.Bounds())
		}
		if sz[0] < MinSize || sz[1] < MinSize || sz[0] >= 200 {
			if want := sz[0] >= MinSize && sz[1] >= MinSize; want != f.Valid() {
				t.Errorf("%v: frame valid = %v", sz, f.Valid())
			}
		}
		if false {
			t.Errorf("%v: frame valid = %v", sz, f.Valid())
		}
		if _, _, err := RenderSVG(s, Window{t0, t0 + 1e9}, YRange{}, sz[0], sz[1], Options{}); (err != nil) != (sz[0] <= 0 || sz[1] <= 0) {
			t.Errorf("%v: svg err %v", sz, err)
		}
	}
}

func TestView(t *testing.T) {
	full := Window{t0, t0 + 100e9}
	frame := Frame{Width: 1100, Height: 600, Data: Rect{X0: 100, Y0: 50, X1: 1100, Y1: 550}, Y0: -1, Y1: 1}
	tests := []struct {
		name  string
		do    func(v *View)
		want  Window
		wantY YRange
	}{
		{"fit", func(v *View) { v.Fit() }, full, YRange{}},
		{"zoom in at the centre", func(v *View) { v.ZoomAt(600, 2) }, Window{t0 + 25e9, t0 + 75e9}, YRange{}},
		{"zoom in at the left edge keeps it", func(v *View) { v.ZoomAt(100, 4) }, Window{t0, t0 + 25e9}, YRange{}},
		{"zoom out about a point", func(v *View) { v.ZoomAt(350, 0.5) }, Window{t0 - 25e9, t0 + 175e9}, YRange{}},
		{"pan right by 100 px moves data right", func(v *View) { v.Pan(100, 0) }, Window{t0 - 10e9, t0 + 90e9}, YRange{}},
		{"pan down fixes y", func(v *View) { v.Pan(0, 250) }, full, YRange{Fixed: true, Min: 0, Max: 2}},
		{"rectangle", func(v *View) { v.ZoomRect(Rect{X0: 600, Y0: 300, X1: 200, Y1: 50}) }, Window{t0 + 10e9, t0 + 50e9}, YRange{Fixed: true, Min: 0, Max: 1}},
		{"value zoom", func(v *View) { v.ZoomValueAt(300, 2) }, full, YRange{Fixed: true, Min: -0.5, Max: 0.5}},
		{"zoom stops at MinWindow", func(v *View) { v.ZoomAt(600, 1e15) }, Window{t0 + 50e9 - MinWindow/2, t0 + 50e9 + MinWindow/2}, YRange{}},
		{"fit after zoom", func(v *View) { v.ZoomAt(600, 3); v.ZoomValueAt(300, 2); v.Fit() }, full, YRange{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v := NewView(full)
			f := frame
			f.Window = v.Window
			v.Frame = f
			tc.do(v)
			if v.Window != tc.want || v.Y != tc.wantY {
				t.Fatalf("window [%d, %d] y %+v; want [%d, %d] y %+v", v.Window.T0-t0, v.Window.T1-t0, v.Y, tc.want.T0-t0, tc.want.T1-t0, tc.wantY)
			}
		})
	}
}

func TestNearest(t *testing.T) {
	a := Series{T: []int64{t0, t0 + 1e9, t0 + 2e9, t0 + 3e9}, V: []float64{0, 1, math.NaN(), 0}}
	b := Series{T: []int64{t0 + 1e9, t0 + 1e9 + 1}, V: []float64{-1, 0.9}}
	f := Frame{Width: 400, Height: 300, Data: Rect{0, 0, 300, 200}, Window: Window{t0, t0 + 3e9}, Y0: -1, Y1: 1}
	tests := []struct {
		name   string
		x, y   float64
		want   Hit
		wantOK bool
	}{
		{"on a point", f.X(t0 + 1e9), f.Y(1), Hit{Series: 0, Index: 1}, true},
		{"the other series", f.X(t0 + 1e9), f.Y(-1) - 2, Hit{Series: 1, Index: 0, Dist: 2}, true},
		{"equal-time neighbour", f.X(t0 + 1e9), f.Y(0.9), Hit{Series: 1, Index: 1}, true},
		{"NaN is not a point", f.X(t0 + 2e9), f.Y(0), Hit{}, false},
		{"too far", f.X(t0+3e9) - 20, f.Y(0), Hit{}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := Nearest([]Series{a, b}, f, tc.x, tc.y, 8)
			if ok != tc.wantOK || (ok && (got.Series != tc.want.Series || got.Index != tc.want.Index || math.Abs(got.Dist-tc.want.Dist) > 0.01)) {
				t.Fatalf("got %+v %v, want %+v %v", got, ok, tc.want, tc.wantOK)
			}
		})
	}
	if i, _ := a.At(t0 + 1.4e9); i != 1 {
		t.Errorf("At = %d", i)
	}
	if i, _ := a.At(t0 + 9e9); i != 3 {
		t.Errorf("At after the end = %d", i)
	}
}
