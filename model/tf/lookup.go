package tf

import (
	"fmt"
	"strings"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// Lookup returns the transform that maps points of frame source into
// frame target at the tree's time, as tf2's lookupTransform(target,
// source, time) gives it: the chain of each frame up to their common
// root, composed.
func (t *Tree) Lookup(target, source string) (Transform, error) {
	target, source = StripSlash(target), StripSlash(source)
	for _, f := range []string{target, source} {
		if t.Frames[f] == nil {
			return Transform{}, t.unknown(f)
		}
	}
	rootT, inT, err := t.toRoot(target)
	if err != nil {
		return Transform{}, err
	}
	rootS, inS, err := t.toRoot(source)
	if err != nil {
		return Transform{}, err
	}
	if rootT != rootS {
		return Transform{}, fmt.Errorf("%s and %s are not connected: %s hangs from %s, %s from %s", target, source, target, rootT, source, rootS)
	}
	return Mul(inT.Inverse(), inS), nil
}

// toRoot composes the frame's chain up to its root: the transform mapping
// its points into the root's.
func (t *Tree) toRoot(name string) (string, Transform, error) {
	tr := Identity
	seen := map[string]bool{}
	for {
		f := t.Frames[name]
		if f == nil || f.Root {
			return name, tr, nil
		}
		if seen[name] {
			return "", Transform{}, fmt.Errorf("%s is in a loop of parents", name)
		}
		seen[name] = true
		tr = Mul(f.Transform, tr)
		name = f.Parent
	}
}

func (t *Tree) unknown(frame string) error {
	names := t.Names()
	msg := fmt.Sprintf("no frame %q at this time", frame)
	for _, l := range t.Later {
		if l == frame {
			return fmt.Errorf("%s: its first transform is stamped later", msg)
		}
	}
	if s := rosmsg.SuggestPaths(frame, names); len(s) > 0 {
		msg += fmt.Sprintf(" (did you mean %s?)", s[0])
	}
	if len(names) <= 30 {
		msg += "; the frames are " + strings.Join(names, ", ")
	} else {
		msg += fmt.Sprintf("; %d frames", len(names))
	}
	return fmt.Errorf("%s", msg)
}
