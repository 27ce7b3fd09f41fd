package plot

import (
	"image"
	"math"
)

// Rect is a rectangle in pixels, y growing downwards, with fractional edges.
type Rect struct{ X0, Y0, X1, Y1 float64 }

// Image returns r rounded to whole pixels.
func (r Rect) Image() image.Rectangle {
	return image.Rect(int(math.Round(r.X0)), int(math.Round(r.Y0)), int(math.Round(r.X1)), int(math.Round(r.Y1)))
}

// Dx returns the width; Dy the height.
func (r Rect) Dx() float64 { return r.X1 - r.X0 }

// Dy returns the height.
func (r Rect) Dy() float64 { return r.Y1 - r.Y0 }

// Frame says how a rendered plot maps data to pixels: Window spans the data
// rectangle from its left to its right edge, [Y0, Y1] from its bottom to its
// top. The zero Frame (from a plot too small to draw) maps nothing.
type Frame struct {
	Width, Height int  // image size in pixels
	Data          Rect // the data area in pixels
	Window        Window
	Y0, Y1        float64
	// Origin is the time shown as 0 on a relative time axis.
	Origin int64
}

// Valid reports whether the frame has a data area.
func (f Frame) Valid() bool {
	return f.Data.Dx() > 0 && f.Data.Dy() > 0 && f.Window.T1 > f.Window.T0 && f.Y1 > f.Y0
}

// X returns the horizontal pixel position of time t.
func (f Frame) X(t int64) float64 {
	return f.Data.X0 + float64(t-f.Window.T0)/float64(f.Window.Duration())*f.Data.Dx()
}

// Y returns the vertical pixel position of value v.
func (f Frame) Y(v float64) float64 {
	return f.Data.Y1 - (v-f.Y0)/(f.Y1-f.Y0)*f.Data.Dy()
}

// Time returns the time at horizontal pixel position x (not clamped).
func (f Frame) Time(x float64) int64 {
	return f.Window.T0 + int64(math.Round((x-f.Data.X0)/f.Data.Dx()*float64(f.Window.Duration())))
}

// Value returns the value at vertical pixel position y (not clamped).
func (f Frame) Value(y float64) float64 {
	return f.Y0 + (f.Data.Y1-y)/f.Data.Dy()*(f.Y1-f.Y0)
}

// Contains reports whether pixel (x, y) lies in the data area.
func (f Frame) Contains(x, y float64) bool {
	return x >= f.Data.X0 && x <= f.Data.X1 && y >= f.Data.Y0 && y <= f.Data.Y1
}
