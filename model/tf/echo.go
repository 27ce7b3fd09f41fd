package tf

import (
	"fmt"
	"math"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// EchoText is a transform as tf2_echo prints it: the time (at; zero says
// the latest transforms), the translation, and the rotation as a
// quaternion and in roll, pitch and yaw, in radians and degrees.
func EchoText(at bag.Time, tr Transform) string {
	var b strings.Builder
	if !at.IsZero() {
		fmt.Fprintf(&b, "At time %d.%09d\n", at.Sec, at.NSec)
	} else {
		b.WriteString("At the latest transforms\n")
	}
	b.WriteString(EchoLines(tr))
	return b.String()
}

// EchoLines is EchoText without its time line.
func EchoLines(tr Transform) string {
	var b strings.Builder
	r, p, y := tr.RPY()
	fmt.Fprintf(&b, "- Translation: [%.3f, %.3f, %.3f]\n", tr.Translation[0], tr.Translation[1], tr.Translation[2])
	fmt.Fprintf(&b, "- Rotation: in Quaternion [%.3f, %.3f, %.3f, %.3f]\n", tr.Rotation[0], tr.Rotation[1], tr.Rotation[2], tr.Rotation[3])
	fmt.Fprintf(&b, "- Rotation: in RPY (radian) [%.3f, %.3f, %.3f]\n", r, p, y)
	deg := 180 / math.Pi
	fmt.Fprintf(&b, "- Rotation: in RPY (degree) [%.3f, %.3f, %.3f]\n", r*deg, p*deg, y*deg)
	return b.String()
}
