package scene

import (
	"image/color"

	"github.com/bagscope/bagscope/model/tf"
)

// Axis colours: x red, y green, z blue, as rviz draws them; the line
// from a frame to its parent.
var (
	AxisX      = color.NRGBA{230, 40, 40, 255}
	AxisY      = color.NRGBA{40, 220, 40, 255}
	AxisZ      = color.NRGBA{50, 90, 255, 255}
	ParentLine = color.NRGBA{220, 200, 60, 255}
)

// FramePose is where frame is in the fixed frame at the tree's time: the
// transform tf2's lookupTransform(fixed, frame) gives, as a matrix.
func FramePose(tree *tf.Tree, fixed, frame string) (Pose, error) {
	fixed, frame = tf.StripSlash(fixed), tf.StripSlash(frame)
	if fixed == frame {
		return IdentityPose, nil
	}
	if tree == nil {
		return Pose{}, errNoTree(frame, fixed)
	}
	t, err := tree.Lookup(fixed, frame)
	if err != nil {
		return Pose{}, err
	}
	return PoseOf(t), nil
}

type noTreeError struct{ frame, fixed string }

func (e noTreeError) Error() string {
	return "no transform from " + e.frame + " to " + e.fixed + ": the recording has no /tf"
}

func errNoTree(frame, fixed string) error { return noTreeError{frame, fixed} }

// AddAxes draws each frame of tree connected to fixed as three axes of
// length size metres with its name, and a line to its parent. It returns
// the frames drawn.
func (s *Scene) AddAxes(tree *tf.Tree, fixed string, size float64) int {
	if tree == nil {
		return 0
	}
	n := 0
	first := len(s.Labels)
	for _, name := range tree.Names() {
		p, err := FramePose(tree, fixed, name)
		if err != nil {
			continue
		}
		n++
		o := p.T
		s.Lines = append(s.Lines,
			Line{A: o, B: p.Apply(Vec{size, 0, 0}), Color: AxisX, Width: 2},
			Line{A: o, B: p.Apply(Vec{0, size, 0}), Color: AxisY, Width: 2},
			Line{A: o, B: p.Apply(Vec{0, 0, size}), Color: AxisZ, Width: 2})
		// Frames at one place (map and odom at the start) share a label.
		shared := false
		for i := first; i < len(s.Labels); i++ {
			if s.Labels[i].At.Sub(o).Norm() < 1e-6 {
				s.Labels[i].Text += ", " + name
				shared = true
				break
			}
		}
		if !shared {
			s.Labels = append(s.Labels, Label{At: o, Text: name})
		}
		if f := tree.Frames[name]; f != nil && !f.Root && f.Parent != "" {
			if pp, err := FramePose(tree, fixed, f.Parent); err == nil {
				s.Lines = append(s.Lines, Line{A: o, B: pp.T, Color: ParentLine, Width: 1})
			}
		}
	}
	return n
}
