package tf

import (
	"sort"

	"github.com/bagscope/bagscope/bag"
)

// Tree is the transform tree at one time.
type Tree struct {
	// At is the time the tree is read at; zero means each frame's latest.
	At bag.Time
	// Frames holds every frame named at the time (children and the roots
	// they hang from), by name.
	Frames map[string]*Frame
	// Roots are the frames without a parent at the time, sorted.
	Roots []string
	// Later lists frames whose first transform is stamped after At.
	Later []string
	// Findings are the problems found, in a stable order.
	Findings []Finding
	// Messages counts the transform messages read, Transforms the
	// transforms they held (repeats of a split recording counted once).
	Messages, Transforms uint64
	// Undecodable counts messages that could not be read as transforms.
	Undecodable      uint64
	FirstUndecodable string
}

// Frame is one frame of the tree at the tree's time.
type Frame struct {
	Name string
	// Parent is the frame this one hangs from at the time; "" for a root.
	Parent string
	// Children are the frames that hang from this one, sorted.
	Children []string
	// Static is true for a frame set by a static transform topic.
	Static bool
	// Topic and Publisher say where the frame's transforms came from
	// (Publisher: the ROS 1 caller id; "" where the recording does not
	// keep it).
	Topic, Publisher string
	// Updates counts the frame's transforms over the whole recording.
	Updates uint64
	// RateHz is the dynamic frame's update rate over its span.
	RateHz float64
	// Transform maps the frame's points into its parent's at the time.
	Transform Transform
	// Stamp is the header.stamp of that transform, Received its receive
	// time.
	Stamp, Received bag.Time
	// Age is seconds from Stamp to the tree's time (dynamic frames).
	Age float64
	// Stale is true when Age is well past the frame's update period.
	Stale bool
	// Suspect, when not "", says the transform came from a damaged unit.
	Suspect string
	// Root is true for a frame that only appears as a parent.
	Root bool
}

// Finding is one problem of the tree.
type Finding struct {
	// Kind is one of the Kind constants.
	Kind  string
	Frame string
	// Time is when it was seen (a stamp or a receive time, as Message
	// says); zero when it is about the tree at its time.
	Time    bag.Time
	Message string
}

// Kinds of Finding.
const (
	KindStale      = "stale"
	KindReparented = "reparented"
	KindRoots      = "several-roots"
	KindLoop       = "loop"
	KindFuture     = "future-stamp"
	KindMixed      = "static-and-dynamic"
	KindSuspect    = "suspect"
	KindRejected   = "rejected"
)

// Names returns the frames' names, sorted.
func (t *Tree) Names() []string {
	out := make([]string, 0, len(t.Frames))
	for n := range t.Frames {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Depth-first order of the tree: each root, then its children, with
// their depth. Frames in a loop (not reachable from a root) come last at
// depth 0.
func (t *Tree) Walk(visit func(f *Frame, depth int)) {
	seen := map[string]bool{}
	var walk func(name string, depth int)
	walk = func(name string, depth int) {
		if seen[name] {
			return
		}
		seen[name] = true
		f := t.Frames[name]
		visit(f, depth)
		for _, c := range f.Children {
			walk(c, depth+1)
		}
	}
	for _, r := range t.Roots {
		walk(r, 0)
	}
	for _, n := range t.Names() {
		walk(n, 0)
	}
}
