package plot

import "math"

// MinWindow is the narrowest time window a View zooms to, in nanoseconds.
const MinWindow = 1000

// View is the interactive state of one plot: the visible time window, the
// value range and the frame of the latest rendering, which maps pixels to
// data. It is plain data; a GUI keeps one per plot panel, calls its methods
// from input events and renders with Window and Y. It is not safe for
// concurrent use.
type View struct {
	// Window is the visible time window.
	Window Window
	// Y is the value range: automatic or fixed.
	Y YRange
	// Full is the extent of the data, which Fit shows.
	Full Window
	// Frame is the frame of the latest rendering (from Render); pixel
	// positions are interpreted through it.
	Frame Frame
}

// NewView returns a view showing all of full with an automatic value range.
func NewView(full Window) *View {
	v := &View{Full: full}
	v.Fit()
	return v
}

// Fit shows the full extent with an automatic value range.
func (v *View) Fit() {
	v.Window = v.Full
	v.Y = YRange{}
}

// SetWindow shows window w (e.g. from a linked timeline or another plot),
// keeping the value range setting.
func (v *View) SetWindow(w Window) {
	if w.T1-w.T0 < MinWindow {
		c := w.T0 + (w.T1-w.T0)/2
		w = Window{c - MinWindow/2, c + MinWindow/2}
	}
	v.Window = w
}

// ZoomAt zooms the time axis by factor about horizontal pixel x: factor 2
// shows half the time span, with the time under x staying under x.
func (v *View) ZoomAt(x, factor float64) {
	if !(factor > 0) || !v.Frame.Valid() {
		return
	}
	c := v.Frame.Time(x)
	span := float64(v.Window.Duration()) / factor
	left := (x - v.Frame.Data.X0) / v.Frame.Data.Dx()
	t0 := c - int64(math.Round(left*span))
	v.SetWindow(Window{t0, t0 + int64(math.Round(span))})
}

// ZoomValueAt zooms the value axis by factor about vertical pixel y; the
// value range becomes fixed.
func (v *View) ZoomValueAt(y, factor float64) {
	if !(factor > 0) || !v.Frame.Valid() {
		return
	}
	f := v.Frame
	c := f.Value(y)
	lo, hi := c-(c-f.Y0)/factor, c+(f.Y1-c)/factor
	if hi > lo {
		v.Y = YRange{Fixed: true, Min: lo, Max: hi}
	}
}

// ZoomRect shows the data under pixel rectangle r (a rubber-band zoom):
// its time span, and its value span as a fixed range when r is taller than
// a few pixels.
func (v *View) ZoomRect(r Rect) {
	f := v.Frame
	if !f.Valid() {
		return
	}
	if r.X1 < r.X0 {
		r.X0, r.X1 = r.X1, r.X0
	}
	if r.Y1 < r.Y0 {
		r.Y0, r.Y1 = r.Y1, r.Y0
	}
	if r.Dx() >= 3 {
		v.SetWindow(Window{f.Time(r.X0), f.Time(r.X1)})
	}
	if r.Dy() >= 3 {
		v.Y = YRange{Fixed: true, Min: f.Value(r.Y1), Max: f.Value(r.Y0)}
	}
}

// Pan moves the view by a drag of (dx, dy) pixels: the data follows the
// pointer. A vertical move fixes the value range.
func (v *View) Pan(dx, dy float64) {
	f := v.Frame
	if !f.Valid() {
		return
	}
	dt := int64(math.Round(dx / f.Data.Dx() * float64(v.Window.Duration())))
	v.Window = Window{v.Window.T0 - dt, v.Window.T1 - dt}
	if dy != 0 {
		dv := dy / f.Data.Dy() * (f.Y1 - f.Y0)
		v.Y = YRange{Fixed: true, Min: f.Y0 + dv, Max: f.Y1 + dv}
	}
}

// Hit is a data point found under the pointer.
type Hit struct {
	Series, Index int     // which series (position in the slice) and point
	Dist          float64 // distance from the pointer in pixels
}

// Nearest returns the finite point of series closest to pixel (x, y) in
// frame f, within radius pixels. The GUI maps the hit to a message with the
// model's extraction result.
func Nearest(series []Series, f Frame, x, y, radius float64) (Hit, bool) {
	if !f.Valid() {
		return Hit{}, false
	}
	best := Hit{Dist: math.Inf(1)}
	w := Window{f.Time(x - radius), f.Time(x + radius)}
	for k, s := range series {
		i, j := s.Span(w)
		for ; i < j; i++ {
			v := s.V[i]
			if !finite(v) {
				continue
			}
			d := math.Hypot(f.X(s.Time(i))-x, f.Y(v)-y)
			if d < best.Dist {
				best = Hit{Series: k, Index: i, Dist: d}
			}
		}
	}
	return best, best.Dist <= radius
}

// At returns the index of the point of s nearest in time to t (for a
// crosshair read-out); ok is false for an empty series.
func (s Series) At(t int64) (i int, ok bool) {
	n := s.Len()
	if n == 0 {
		return 0, false
	}
	i, _ = s.Span(Window{t, t})
	switch {
	case i == n:
		return i - 1, true
	case i > 0 && t-s.Time(i-1) <= s.Time(i)-t:
		return i - 1, true
	}
	return i, true
}
