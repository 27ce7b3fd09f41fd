package scene

import (
	"math"

	"github.com/bagscope/bagscope/model/tf"
)

// Vec is a point or a direction in metres.
type Vec [3]float64

// Add returns v+w.
func (v Vec) Add(w Vec) Vec { return Vec{v[0] + w[0], v[1] + w[1], v[2] + w[2]} }

// Sub returns v-w.
func (v Vec) Sub(w Vec) Vec { return Vec{v[0] - w[0], v[1] - w[1], v[2] - w[2]} }

// Scale returns v·s.
func (v Vec) Scale(s float64) Vec { return Vec{v[0] * s, v[1] * s, v[2] * s} }

// Dot is the dot product.
func (v Vec) Dot(w Vec) float64 { return v[0]*w[0] + v[1]*w[1] + v[2]*w[2] }

// Cross is the cross product v×w.
func (v Vec) Cross(w Vec) Vec {
	return Vec{v[1]*w[2] - v[2]*w[1], v[2]*w[0] - v[0]*w[2], v[0]*w[1] - v[1]*w[0]}
}

// Norm is the length of v.
func (v Vec) Norm() float64 { return math.Sqrt(v.Dot(v)) }

// Unit is v scaled to length 1 (v itself when it is zero).
func (v Vec) Unit() Vec {
	n := v.Norm()
	if n == 0 {
		return v
	}
	return v.Scale(1 / n)
}

// Pose is a rigid transform as a rotation matrix and a translation: it maps
// points of a frame into another (p' = R·p + T). A matrix rather than a
// quaternion, as the renderer applies it to every point of a cloud.
type Pose struct {
	R [3][3]float64
	T Vec
}

// IdentityPose changes nothing.
var IdentityPose = Pose{R: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}}

// PoseOf is the matrix form of t. Its quaternion is normalised first (tf2
// accepts quaternions a little off unit length).
func PoseOf(t tf.Transform) Pose {
	x, y, z, w := t.Rotation[0], t.Rotation[1], t.Rotation[2], t.Rotation[3]
	n := math.Sqrt(x*x + y*y + z*z + w*w)
	if n == 0 {
		return Pose{R: IdentityPose.R, T: Vec(t.Translation)}
	}
	x, y, z, w = x/n, y/n, z/n, w/n
	return Pose{
		R: [3][3]float64{
			{1 - 2*(y*y+z*z), 2 * (x*y - z*w), 2 * (x*z + y*w)},
			{2 * (x*y + z*w), 1 - 2*(x*x+z*z), 2 * (y*z - x*w)},
			{2 * (x*z - y*w), 2 * (y*z + x*w), 1 - 2*(x*x+y*y)},
		},
		T: Vec(t.Translation),
	}
}

// Apply maps p.
func (p Pose) Apply(v Vec) Vec {
	return Vec{
		p.R[0][0]*v[0] + p.R[0][1]*v[1] + p.R[0][2]*v[2] + p.T[0],
		p.R[1][0]*v[0] + p.R[1][1]*v[1] + p.R[1][2]*v[2] + p.T[1],
		p.R[2][0]*v[0] + p.R[2][1]*v[1] + p.R[2][2]*v[2] + p.T[2],
	}
}

// Rotate applies only the rotation (a direction).
func (p Pose) Rotate(v Vec) Vec {
	return Vec{
		p.R[0][0]*v[0] + p.R[0][1]*v[1] + p.R[0][2]*v[2],
		p.R[1][0]*v[0] + p.R[1][1]*v[1] + p.R[1][2]*v[2],
		p.R[2][0]*v[0] + p.R[2][1]*v[1] + p.R[2][2]*v[2],
	}
}

// Compose is the pose that applies q, then p: p.Compose(q)(v) = p(q(v)).
func (p Pose) Compose(q Pose) Pose {
	var out Pose
	for i := range 3 {
		for j := range 3 {
			out.R[i][j] = p.R[i][0]*q.R[0][j] + p.R[i][1]*q.R[1][j] + p.R[i][2]*q.R[2][j]
		}
	}
	out.T = p.Apply(q.T)
	return out
}
