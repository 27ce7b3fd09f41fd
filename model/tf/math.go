package tf

import "math"

// Transform is a rigid transform: a translation and a unit quaternion
// (x, y, z, w), mapping points of a child frame into its parent.
type Transform struct {
	Translation [3]float64
	Rotation    [4]float64
}

// Identity is the transform that changes nothing.
var Identity = Transform{Rotation: [4]float64{0, 0, 0, 1}}

// Mul composes a and b: (a*b)(p) = a(b(p)).
func Mul(a, b Transform) Transform {
	return Transform{
		Translation: add(a.Translation, rotate(a.Rotation, b.Translation)),
		Rotation:    qmul(a.Rotation, b.Rotation),
	}
}

// Inverse is the transform that undoes t.
func (t Transform) Inverse() Transform {
	q := conj(t.Rotation)
	p := rotate(q, t.Translation)
	return Transform{Translation: [3]float64{-p[0], -p[1], -p[2]}, Rotation: q}
}

// RPY is the rotation as roll, pitch and yaw in radians, as tf2's
// Matrix3x3::getRPY gives them (tf2_echo prints these).
func (t Transform) RPY() (roll, pitch, yaw float64) {
	x, y, z, w := t.Rotation[0], t.Rotation[1], t.Rotation[2], t.Rotation[3]
	// The rotation matrix's elements getRPY reads (tf2 normalises by the
	// squared norm, so non-unit quaternions give the same angles).
	d := x*x + y*y + z*z + w*w
	s := 2 / d
	xs, ys, zs := x*s, y*s, z*s
	wx, wy, wz := w*xs, w*ys, w*zs
	xx, xy, xz := x*xs, x*ys, x*zs
	yy, yz, zz := y*ys, y*zs, z*zs
	m00, m10, m20 := 1-(yy+zz), xy+wz, xz-wy
	m21, m22 := yz+wx, 1-(xx+yy)
	m01, m02 := xy-wz, xz+wy
	if math.Abs(m20) >= 1 {
		yaw = 0
		if m20 < 0 {
			pitch = math.Pi / 2
			roll = math.Atan2(m01, m02)
		} else {
			pitch = -math.Pi / 2
			roll = math.Atan2(-m01, -m02)
		}
		return roll, pitch, yaw
	}
	pitch = -math.Asin(m20)
	c := math.Cos(pitch)
	roll = math.Atan2(m21/c, m22/c)
	yaw = math.Atan2(m10/c, m00/c)
	return roll, pitch, yaw
}

func add(a, b [3]float64) [3]float64 { return [3]float64{a[0] + b[0], a[1] + b[1], a[2] + b[2]} }

func qmul(a, b [4]float64) [4]float64 {
	ax, ay, az, aw := a[0], a[1], a[2], a[3]
	bx, by, bz, bw := b[0], b[1], b[2], b[3]
	return [4]float64{
		aw*bx + ax*bw + ay*bz - az*by,
		aw*by - ax*bz + ay*bw + az*bx,
		aw*bz + ax*by - ay*bx + az*bw,
		aw*bw - ax*bx - ay*by - az*bz,
	}
}

func conj(q [4]float64) [4]float64 { return [4]float64{-q[0], -q[1], -q[2], q[3]} }

// rotate applies q to v (q v q*), for a unit q.
func rotate(q [4]float64, v [3]float64) [3]float64 {
	r := qmul(qmul(q, [4]float64{v[0], v[1], v[2], 0}), conj(q))
	return [3]float64{r[0], r[1], r[2]}
}
