package plot

import (
	"math"
	"testing"
)

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
