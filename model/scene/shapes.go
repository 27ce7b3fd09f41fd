package scene

import (
	"image/color"
	"math"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/tf"
)

// vecOf reads a geometry_msgs/Point or Vector3 (x, y, z); ok false when a
// field is missing or not finite.
func vecOf(n *rosmsg.Node) (Vec, bool) {
	if n == nil {
		return Vec{}, false
	}
	var v Vec
	for i, name := range []string{"x", "y", "z"} {
		f := n.Field(name)
		if f == nil {
			return Vec{}, false
		}
		x, ok := f.Float64()
		if !ok || !finite(x) {
			return Vec{}, false
		}
		v[i] = x
	}
	return v, true
}

// poseOf reads a geometry_msgs/Pose (position, orientation) as a Pose; a
// zero quaternion reads as no rotation.
func poseOf(n *rosmsg.Node) (Pose, bool) {
	if n == nil {
		return Pose{}, false
	}
	p, ok := vecOf(n.Field("position"))
	o := n.Field("orientation")
	if !ok || o == nil {
		return Pose{}, false
	}
	var q [4]float64
	for i, name := range []string{"x", "y", "z", "w"} {
		f := o.Field(name)
		if f == nil {
			return Pose{}, false
		}
		v, ok := f.Float64()
		if !ok || !finite(v) {
			return Pose{}, false
		}
		q[i] = v
	}
	return PoseOf(tf.Transform{Translation: p, Rotation: q}), true
}

// colorOf reads a std_msgs/ColorRGBA (floats 0..1).
func colorOf(n *rosmsg.Node) (color.NRGBA, bool) {
	if n == nil {
		return color.NRGBA{}, false
	}
	var c [4]uint8
	for i, name := range []string{"r", "g", "b", "a"} {
		f := n.Field(name)
		if f == nil {
			return color.NRGBA{}, false
		}
		v, _ := f.Float64()
		c[i] = uint8(math.Round(min(max(v, 0), 1) * 255))
	}
	return color.NRGBA{c[0], c[1], c[2], c[3]}, true
}

// addBox adds the 12 triangles of a box of size s centred on p's origin.
func (s *Scene) addBox(p Pose, size Vec, c color.NRGBA) {
	var v [8]Vec
	for k := range 8 {
		q := Vec{-size[0] / 2, -size[1] / 2, -size[2] / 2}
		for i := range 3 {
			if k>>i&1 == 1 {
				q[i] = size[i] / 2
			}
		}
		v[k] = p.Apply(q)
	}
	for _, f := range [6][4]int{{0, 1, 3, 2}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 3, 7, 6}, {0, 2, 6, 4}, {1, 3, 7, 5}} {
		s.Tris = append(s.Tris, Tri{A: v[f[0]], B: v[f[1]], C: v[f[2]], Color: c}, Tri{A: v[f[0]], B: v[f[2]], C: v[f[3]], Color: c})
	}
}

// addSphere adds an ellipsoid of diameters size about p's origin, 12
// segments round and 8 high.
func (s *Scene) addSphere(p Pose, size Vec, c color.NRGBA) {
	const seg, rings = 12, 8
	at := func(i, j int) Vec {
		th := math.Pi * float64(j) / rings
		ph := 2 * math.Pi * float64(i) / seg
		return p.Apply(Vec{size[0] / 2 * math.Sin(th) * math.Cos(ph), size[1] / 2 * math.Sin(th) * math.Sin(ph), size[2] / 2 * math.Cos(th)})
	}
	for j := range rings {
		for i := range seg {
			a, b, cc, d := at(i, j), at(i+1, j), at(i+1, j+1), at(i, j+1)
			if j > 0 {
				s.Tris = append(s.Tris, Tri{A: a, B: b, C: cc, Color: c})
			}
			if j < rings-1 {
				s.Tris = append(s.Tris, Tri{A: a, B: cc, C: d, Color: c})
			}
		}
	}
}

// addCylinder adds a cylinder along p's z axis, of diameters size x, y
// and height size z, centred on its origin.
func (s *Scene) addCylinder(p Pose, size Vec, c color.NRGBA) {
	const seg = 16
	at := func(i int, z float64) Vec {
		ph := 2 * math.Pi * float64(i) / seg
		return p.Apply(Vec{size[0] / 2 * math.Cos(ph), size[1] / 2 * math.Sin(ph), z})
	}
	top, bot := p.Apply(Vec{0, 0, size[2] / 2}), p.Apply(Vec{0, 0, -size[2] / 2})
	for i := range seg {
		a, b := at(i, -size[2]/2), at(i+1, -size[2]/2)
		a2, b2 := at(i, size[2]/2), at(i+1, size[2]/2)
		s.Tris = append(s.Tris, Tri{A: a, B: b, C: b2, Color: c}, Tri{A: a, B: b2, C: a2, Color: c},
			Tri{A: bot, B: a, C: b, Color: c}, Tri{A: top, B: a2, C: b2, Color: c})
	}
}

// addArrow adds an arrow from a to b: a shaft line and a head of two
// crossed triangles, head long and wide.
func (s *Scene) addArrow(a, b Vec, width, head float64, c color.NRGBA) {
	d := b.Sub(a)
	n := d.Norm()
	if n == 0 || !finite(n) {
		return
	}
	u := d.Scale(1 / n)
	head = min(head, n)
	base := b.Sub(u.Scale(head))
	s.Lines = append(s.Lines, Line{A: a, B: base, Color: c, Width: 3})
	// Two directions across the arrow.
	side := u.Cross(Vec{0, 0, 1})
	if side.Norm() < 1e-6 {
		side = u.Cross(Vec{1, 0, 0})
	}
	side = side.Unit()
	up := u.Cross(side).Unit()
	w := max(width, head/2) / 2
	for _, e := range []Vec{side, up} {
		s.Tris = append(s.Tris, Tri{A: base.Add(e.Scale(w)), B: base.Sub(e.Scale(w)), C: b, Color: c})
	}
}
