package scene

import (
	"image/color"
	"math"
	"slices"
)

// Scene is what is drawn at one time, in the fixed frame.
type Scene struct {
	// Frame is the fixed frame everything is in.
	Frame string
	// At is the time (receive-time nanoseconds) it was read at.
	At     int64
	Clouds []*Points
	Lines  []Line
	Tris   []Tri
	Labels []Label
	Grids  []*Grid
	// Layers says, per topic, what was drawn or why not.
	Layers []Layer
}

// Layer is one topic's part of the scene.
type Layer struct {
	Topic, Type string
	// Frame is the message's header.frame_id.
	Frame string
	// Stamp is the drawn message's receive time (0: none yet).
	Stamp int64
	// Count is how many points, markers or poses were drawn.
	Count int
	// Problem, when not "", says why the topic is not (all) drawn.
	Problem string
	// Note, when not "", says how it is drawn when not as tf2 would: a
	// message placed by an extrapolated transform (see place.go).
	Note string
	// Fields are what its points can be coloured by.
	Fields []string
	// Info is what was read of a cloud (nil for others).
	Info *CloudInfo
}

// Points is a set of points in the fixed frame, drawn Size pixels wide.
type Points struct {
	Topic string
	// X, Y, Z in the fixed frame.
	X, Y, Z []float32
	// RGBA holds each point's colour packed as R | G<<8 | B<<16 | A<<24
	// (the byte order of image.RGBA's Pix); nil draws them all in Color.
	RGBA  []uint32
	Color color.NRGBA
	Size  int
	// Source maps a point back to what it was read from, for picking
	// (nil: no field values to show).
	Source PointSource
}

// PointSource gives the field values of a drawn point.
type PointSource interface {
	// Fields returns the names and values of point i's fields.
	Fields(i int) []Field
}

// Field is one named value of a picked point.
type Field struct {
	Name  string
	Value float64
}

// Len is the number of points.
func (p *Points) Len() int { return len(p.X) }

// Line is a segment from A to B.
type Line struct {
	A, B  Vec
	Color color.NRGBA
	Width int
}

// Tri is a filled triangle.
type Tri struct {
	A, B, C Vec
	Color   color.NRGBA
}

// Label is text drawn at a point, on top of everything.
type Label struct {
	At    Vec
	Text  string
	Color color.NRGBA
}

// Pack packs c as the renderer's pixels hold it.
func Pack(c color.NRGBA) uint32 {
	return uint32(c.R) | uint32(c.G)<<8 | uint32(c.B)<<16 | uint32(c.A)<<24
}

// Bounds returns the box holding every point, line and triangle, ok false
// for an empty scene.
func (s *Scene) Bounds() (lo, hi Vec, ok bool) {
	inf := math.Inf(1)
	lo, hi = Vec{inf, inf, inf}, Vec{-inf, -inf, -inf}
	add := func(v Vec) {
		for i := range 3 {
			if math.IsNaN(v[i]) || math.IsInf(v[i], 0) {
				return
			}
		}
		for i := range 3 {
			lo[i], hi[i] = min(lo[i], v[i]), max(hi[i], v[i])
		}
	}
	for _, c := range s.Clouds {
		for i := range c.X {
			add(Vec{float64(c.X[i]), float64(c.Y[i]), float64(c.Z[i])})
		}
	}
	for _, l := range s.Lines {
		add(l.A)
		add(l.B)
	}
	for _, t := range s.Tris {
		add(t.A)
		add(t.B)
		add(t.C)
	}
	for _, g := range s.Grids {
		gw, gh := float64(g.W)*g.Res, float64(g.H)*g.Res
		for _, c := range []Vec{{0, 0, 0}, {gw, 0, 0}, {0, gh, 0}, {gw, gh, 0}} {
			add(g.Pose.Apply(c))
		}
	}
	return lo, hi, lo[0] <= hi[0]
}

// FitBounds is the box a view fits: Bounds, but of the clouds only what
// lies between their 1st and 99th percentiles on each axis (from a sample
// of at most fitSample points), so that a few stray returns far away do
// not shrink the cloud to a speck.
func (s *Scene) FitBounds() (lo, hi Vec, ok bool) {
	rest := &Scene{Lines: s.Lines, Tris: s.Tris, Grids: s.Grids}
	lo, hi, ok = rest.Bounds()
	for _, c := range s.Clouds {
		n := c.Len()
		if n == 0 {
			continue
		}
		step := max(1, n/fitSample)
		var axes [3][]float64
		for i := 0; i < n; i += step {
			v := [3]float32{c.X[i], c.Y[i], c.Z[i]}
			if !finite(float64(v[0])) || !finite(float64(v[1])) || !finite(float64(v[2])) {
				continue
			}
			for k := range 3 {
				axes[k] = append(axes[k], float64(v[k]))
			}
		}
		if len(axes[0]) == 0 {
			continue
		}
		var clo, chi Vec
		for k := range 3 {
			slices.Sort(axes[k])
			m := len(axes[k])
			clo[k], chi[k] = axes[k][m/100], axes[k][m-1-m/100]
		}
		if !ok {
			lo, hi, ok = clo, chi, true
			continue
		}
		for k := range 3 {
			lo[k], hi[k] = min(lo[k], clo[k]), max(hi[k], chi[k])
		}
	}
	return lo, hi, ok
}

// fitSample bounds the points FitBounds sorts per cloud.
const fitSample = 20000

// Count is the number of points in the scene's clouds.
func (s *Scene) Count() int {
	n := 0
	for _, c := range s.Clouds {
		n += c.Len()
	}
	return n
}
