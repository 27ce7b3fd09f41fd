package plot

import (
	"image"
	"image/color"
	"testing"
)

// TestSuspectPointsDrawnHollow: a point read from a suspect message
// survives decimation however many points share its column, and is drawn
// hollow: a ring in the line's colour around a transparent hole, where an
// ordinary point of the same line is filled.
func TestSuspectPointsDrawnHollow(t *testing.T) {
	const n = 100000
	s := Series{T: make([]int64, n), V: make([]float64, n)}
	for i := range s.T {
		s.T[i] = int64(i) * 1000
	}
	suspect := n / 4
	s.SuspectT, s.SuspectV = []int64{s.T[suspect]}, []float64{0}
	w := Window{T0: 0, T1: s.T[n-1]}
	const width, height = 200, 100
	dec := Decimate(Series{}, s, w, width)
	if len(dec.T) >= n || len(dec.SuspectT) != 1 || dec.SuspectT[0] != s.T[suspect] {
		t.Fatalf("decimated to %d points, suspect %v, want the suspect point kept", len(dec.T), dec.SuspectT)
	}
	if out := Decimate(Series{}, s, Window{T0: s.T[suspect+1], T1: s.T[n-1]}, width); len(out.SuspectT) != 0 {
		t.Errorf("a window without the suspect point keeps %v", out.SuspectT)
	}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	f := Frame{Width: width, Height: height, Data: Rect{X1: width, Y1: height}, Window: w, Y0: -1, Y1: 1}
	red := color.RGBA{R: 255, A: 255}
	Rasterize(img, f, []Line{{S: dec, C: red}}, 1)
	at := func(x, y float64) color.RGBA { return img.RGBAAt(int(x), int(y)) }
	x, y := f.X(s.T[suspect]), f.Y(0)
	if c := at(x, y); c.A != 0 {
		t.Errorf("the suspect point's centre is %v, want transparent (hollow)", c)
	}
	if c := at(x, y-4); c != red {
		t.Errorf("the suspect point's ring is %v, want the line's colour", c)
	}
	if c := at(f.X(s.T[n*3/4]), y); c != red {
		t.Errorf("an ordinary point of the line is %v, want filled", c)
	}
}
