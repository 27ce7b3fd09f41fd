package scene

import (
	"context"
	"fmt"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/internal/typed"
	"github.com/bagscope/bagscope/model/tf"
)

// A message is placed as tf2 places it (lookupTransform(fixed, frame,
// header.stamp)): with the transforms at its own stamp, taken from the
// transform history (on each frame the latest transform stamped at or
// before it). A stamp outside the history is extrapolated, and said so:
// before a chain frame's first transform, the message is placed with the
// tree at the current time; after a chain frame's last one, with its
// last. Without a history (or a stamp), the tree at the current time
// places it, as before.

// maxStampTrees bounds the trees one load looks up by stamp (each a
// search per frame, and a read of the recording for frames the history
// gave up for memory); past it, messages are placed with the tree at the
// current time, and their layer says so.
const maxStampTrees = 256

// placer places one load's messages, keeping the trees it looked up by
// stamp (a marker array's markers and a topic's messages share stamps).
type placer struct {
	ctx    context.Context
	in     Input
	fixed  string
	trees  map[bag.Time]*tf.Tree
	latest *tf.Tree // each frame's last transform, for the extrapolation check
}

func newPlacer(ctx context.Context, in Input, fixed string) *placer {
	return &placer{ctx: ctx, in: in, fixed: fixed, trees: map[bag.Time]*tf.Tree{}}
}

// headerStamp is a message's header.stamp (zero: none).
func headerStamp(root *rosmsg.Node) bag.Time {
	if root == nil {
		return bag.Time{}
	}
	h := root.Field("header")
	if h == nil {
		return bag.Time{}
	}
	t, _ := typed.StampOf(h.Field("stamp"))
	return t
}

// treeAt is the tree at stamp, from the history (nil when it cannot be
// read there).
func (p *placer) treeAt(stamp bag.Time) (*tf.Tree, bool) {
	if t, ok := p.trees[stamp]; ok {
		return t, true
	}
	if len(p.trees) >= maxStampTrees {
		return nil, false
	}
	t, err := p.in.History.TreeAt(p.ctx, stamp)
	if err != nil {
		t = nil
	}
	p.trees[stamp] = t
	return t, true
}

// place returns the pose of frame in the fixed frame for a message
// stamped stamp, and a note ("" or why it is extrapolated).
func (p *placer) place(frame string, stamp bag.Time) (Pose, string, error) {
	if p.in.History == nil || stamp.IsZero() || tf.StripSlash(frame) == tf.StripSlash(p.fixed) {
		pose, err := FramePose(p.in.Tree, p.fixed, frame)
		return pose, "", err
	}
	tr, ok := p.treeAt(stamp)
	if !ok {
		pose, err := FramePose(p.in.Tree, p.fixed, frame)
		return pose, fmt.Sprintf("placed with the transforms at the current time: more than %d stamps in one scene", maxStampTrees), err
	}
	var err error
	if tr != nil {
		var pose Pose
		if pose, err = FramePose(tr, p.fixed, frame); err == nil {
			if f := p.after(tr, frame, stamp); f != "" {
				return pose, fmt.Sprintf("extrapolated: stamped %s after %s's last transform; placed with its last", stamp.String(), f), nil
			}
			return pose, "", nil
		}
	}
	// Outside the history (before a chain frame's first transform, or a
	// frame unknown at the stamp): the tree at the current time.
	pose, err2 := FramePose(p.in.Tree, p.fixed, frame)
	if err2 != nil {
		if err != nil {
			return Pose{}, "", err
		}
		return Pose{}, "", err2
	}
	return pose, fmt.Sprintf("extrapolated: no transform at its stamp %s; placed with the transforms at the current time", stamp.String()), nil
}

// after returns a dynamic frame of the chains from frame and the fixed
// frame to their root in tr whose last transform of the whole history is
// stamped before stamp ("" when none).
func (p *placer) after(tr *tf.Tree, frame string, stamp bag.Time) string {
	if p.latest == nil {
		t, err := p.in.History.TreeAt(p.ctx, bag.Time{})
		if err != nil || t == nil {
			return ""
		}
		p.latest = t
	}
	for _, start := range []string{frame, p.fixed} {
		name := tf.StripSlash(start)
		for range 1024 {
			f := tr.Frames[name]
			if f == nil || f.Root || f.Parent == "" {
				break
			}
			if !f.Static {
				if l := p.latest.Frames[name]; l != nil && l.Stamp.Key() < stamp.Key() {
					return name
				}
			}
			name = f.Parent
		}
	}
	return ""
}
