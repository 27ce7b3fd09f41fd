package tf

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// FutureTolerance is how far a stamp may run ahead of its receive time
// before it is a finding (clocks of two machines differ a little).
const FutureTolerance = 0.5 // seconds

// StaleFactor and StaleMin say when a dynamic frame is stale: its latest
// transform is older than StaleFactor update periods and StaleMin seconds.
const (
	StaleFactor = 5
	StaleMin    = 1.0 // seconds
)

// maxStaticKeys bounds the static transforms remembered per frame to
// count repeats once.
const maxStaticKeys = 256

// sample is one transform of a frame.
type sample struct {
	parent          string
	stamp, received bag.Time
	tr              Transform
	suspect         string
}

// history is what the read keeps of one child frame.
type history struct {
	name                string
	static, dynamic     bool
	topic, publisher    string
	updates             uint64
	firstRecv, lastRecv bag.Time
	latest              sample // the dynamic sample stamped at or before the time
	haveLatest          bool
	lastStatic          sample // the last static sample received
	haveStatic          bool
	prev                sample // the previous dynamic sample, for repeats and parent changes
	havePrev            bool
	staticKeys          map[sample]bool
	reparents           int
	firstReparent       sample
	fromParent          string
	futures             uint64
	firstFuture         sample
}

// rejection counts the transforms of a frame tf2 would refuse.
type rejection struct {
	n     int
	first string
	at    bag.Time
}

type builder struct {
	rejected map[string]*rejection
	at       bag.Time
	bound    uint64 // at's key, or max for "latest"
	hist     map[string]*history
	tree     *Tree
	// onDynamic, when set, is given each dynamic transform kept (not a
	// repeat of the frame's previous one), in read order.
	onDynamic func(h *history, s sample)
	// parents, when not nil, gathers every parent each frame ever has
	// (static and dynamic transforms tf2 takes, repeats included).
	parents map[string]map[string]bool
}

func newBuilder(at bag.Time) *builder {
	b := &builder{at: at, bound: at.Key(), hist: map[string]*history{}, rejected: map[string]*rejection{}, tree: &Tree{At: at}}
	if at.IsZero() {
		b.bound = math.MaxUint64
	}
	return b
}

func (b *builder) message(m *bag.Message, n *rosmsg.Node) {
	arr := n.Field("transforms")
	if arr == nil || !arr.Array {
		b.undecodable(m, fmt.Errorf("no transforms array"))
		return
	}
	b.tree.Messages++
	static := IsStaticTopic(m.Conn.Topic)
	for i := 0; i < arr.Len(); i++ {
		e, ok := arr.Elem(i)
		if !ok {
			continue
		}
		s, err := decodeStamped(&e)
		if err != nil {
			b.undecodable(m, err)
			continue
		}
		b.add(m, s, static)
	}
}

// rejectReason says why tf2's setTransform would refuse s (and log
// TF_NO_FRAME_ID, TF_SELF_TRANSFORM, TF_NAN_INPUT or
// TF_DENORMALIZED_QUATERNION), or "" when it takes it.
func rejectReason(s stamped) string {
	switch {
	case s.child == "" || s.parent == "":
		return "an empty frame id"
	case s.child == s.parent:
		return "its frame is its own parent"
	}
	var n float64
	for _, v := range s.tr.Rotation {
		n += v * v
	}
	for _, v := range append(s.tr.Translation[:], s.tr.Rotation[:]...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return "a NaN or infinite value"
		}
	}
	if math.Abs(n-1) >= QuaternionTolerance {
		return fmt.Sprintf("a quaternion of squared norm %g, not 1", n)
	}
	return ""
}

// QuaternionTolerance is how far a quaternion's squared norm may be from
// 1: tf2 refuses a transform beyond it (QUATERNION_NORMALIZATION_TOLERANCE).
const QuaternionTolerance = 10e-3

func (b *builder) add(m *bag.Message, s stamped, static bool) {
	if why := rejectReason(s); why != "" {
		r := b.rejected[s.child]
		if r == nil {
			r = &rejection{first: why, at: m.Time}
			b.rejected[s.child] = r
		}
		r.n++
		return
	}
	if b.parents != nil {
		ps := b.parents[s.child]
		if ps == nil {
			ps = map[string]bool{}
			b.parents[s.child] = ps
		}
		ps[s.parent] = true
	}
	h := b.hist[s.child]
	if h == nil {
		h = &history{name: s.child, topic: m.Conn.Topic, publisher: m.Conn.CallerID}
		b.hist[s.child] = h
	}
	smp := sample{parent: s.parent, stamp: s.stamp, received: m.Time, tr: s.tr, suspect: m.Suspect}
	key := smp
	key.received, key.suspect = bag.Time{}, ""
	if static {
		if h.staticKeys[key] {
			return // a repeat (transient-local /tf_static in each file of a split set)
		}
		if h.staticKeys == nil {
			h.staticKeys = map[sample]bool{}
		}
		if len(h.staticKeys) < maxStaticKeys {
			h.staticKeys[key] = true
		}
		if h.haveStatic && h.lastStatic.parent != s.parent {
			h.reparent(smp)
		}
		h.static, h.lastStatic, h.haveStatic = true, smp, true
	} else {
		if h.havePrev {
			p := h.prev
			p.received, p.suspect = bag.Time{}, ""
			if p == key {
				return // the same transform again
			}
			if h.prev.parent != s.parent {
				h.reparent(smp)
			}
		}
		h.dynamic, h.prev, h.havePrev = true, smp, true
		if b.onDynamic != nil {
			b.onDynamic(h, smp)
		}
		if s.stamp.Key() <= b.bound && (!h.haveLatest || !s.stamp.Before(h.latest.stamp)) {
			h.latest, h.haveLatest = smp, true
		}
		if s.stamp.Sub(m.Time) > FutureTolerance {
			if h.futures == 0 {
				h.firstFuture = smp
			}
			h.futures++
		}
	}
	if h.updates == 0 {
		h.firstRecv = m.Time
	}
	h.lastRecv = m.Time
	h.updates++
	b.tree.Transforms++
}

func (h *history) reparent(s sample) {
	if h.reparents == 0 {
		h.firstReparent = s
		h.fromParent = h.prev.parent
		if h.haveStatic && !h.havePrev {
			h.fromParent = h.lastStatic.parent
		}
	}
	h.reparents++
}

// current is the frame's transform at the time: its dynamic sample at or
// before the time, else its static one.
func (h *history) current() (sample, bool) {
	if h.haveLatest {
		return h.latest, true
	}
	if h.haveStatic {
		return h.lastStatic, true
	}
	return sample{}, false
}

func (b *builder) finish(st bag.Storage) *Tree {
	return b.finishEnd(storageEnd(st))
}

// storageEnd is the recording's end, or zero without a summary.
func storageEnd(st bag.Storage) bag.Time {
	if sum, _ := st.Summary(); sum != nil {
		return sum.End
	}
	return bag.Time{}
}

// finishEnd builds the tree from what was read; end is the recording's
// end, the time ages are measured from when the tree is each frame's
// latest. It only reads b.hist and b.rejected.
func (b *builder) finishEnd(end bag.Time) *Tree {
	t := b.tree
	t.Frames = map[string]*Frame{}
	// The time the ages are measured from: At, or the recording's end.
	ref := b.at
	if ref.IsZero() {
		ref = end
	}
	names := make([]string, 0, len(b.hist))
	for n := range b.hist {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		h := b.hist[name]
		if h.static && h.dynamic {
			t.Findings = append(t.Findings, Finding{Kind: KindMixed, Frame: name,
				Message: fmt.Sprintf("%s is set by static and by dynamic transforms (%s)", name, h.topic)})
		}
		if h.reparents > 0 {
			t.Findings = append(t.Findings, Finding{Kind: KindReparented, Frame: name, Time: h.firstReparent.received,
				Message: fmt.Sprintf("%s changed parent from %s to %s (stamp %s; %s in all)", name, h.fromParent, h.firstReparent.parent, h.firstReparent.stamp, count(h.reparents, "change"))})
		}
		if h.futures > 0 {
			t.Findings = append(t.Findings, Finding{Kind: KindFuture, Frame: name, Time: h.firstFuture.received,
				Message: fmt.Sprintf("%s: %d transforms stamped ahead of their receive time by more than %gs (the first by %.3fs, received %s)",
					name, h.futures, FutureTolerance, h.firstFuture.stamp.Sub(h.firstFuture.received), h.firstFuture.received)})
		}
		s, ok := h.current()
		if !ok {
			t.Later = append(t.Later, name)
			continue
		}
		f := &Frame{Name: name, Parent: s.parent, Static: !h.haveLatest, Topic: h.topic, Publisher: h.publisher,
			Updates: h.updates, Transform: s.tr, Stamp: s.stamp, Received: s.received, Suspect: s.suspect}
		if h.haveLatest {
			if span := h.lastRecv.Sub(h.firstRecv); h.updates > 1 && span > 0 {
				f.RateHz = float64(h.updates-1) / span
			}
			f.Age = ref.Sub(s.stamp)
			limit := StaleMin
			if f.RateHz > 0 {
				limit = math.Max(limit, StaleFactor/f.RateHz)
			}
			if f.Age > limit {
				f.Stale = true
				t.Findings = append(t.Findings, Finding{Kind: KindStale, Frame: name, Time: s.stamp,
					Message: fmt.Sprintf("%s is stale: its latest transform is %.3fs old (stamp %s), over %.3fs", name, f.Age, s.stamp, limit)})
			}
		}
		if s.suspect != "" {
			t.Findings = append(t.Findings, Finding{Kind: KindSuspect, Frame: name, Time: s.received,
				Message: fmt.Sprintf("%s: its transform at the time comes from a damaged unit (%s)", name, s.suspect)})
		}
		t.Frames[name] = f
	}
	rej := make([]string, 0, len(b.rejected))
	for n := range b.rejected {
		rej = append(rej, n)
	}
	sort.Strings(rej)
	for _, n := range rej {
		r := b.rejected[n]
		t.Findings = append(t.Findings, Finding{Kind: KindRejected, Frame: n, Time: r.at,
			Message: fmt.Sprintf("%q: %s refused as tf2 refuses them (the first, received %s, has %s)", n, count(r.n, "transform"), r.at, r.first)})
	}
	// Parents that are not children themselves are roots. A frame with no
	// transform of its own yet may already be in the map as a root made
	// for its children: it has no parent to join.
	for _, name := range names {
		f := t.Frames[name]
		if f == nil || f.Root {
			continue
		}
		p := t.Frames[f.Parent]
		if p == nil {
			p = &Frame{Name: f.Parent, Root: true}
			t.Frames[f.Parent] = p
		}
		p.Children = append(p.Children, name)
	}
	for _, f := range t.Frames {
		sort.Strings(f.Children)
		if f.Root {
			t.Roots = append(t.Roots, f.Name)
		}
	}
	sort.Strings(t.Roots)
	if len(t.Roots) > 1 {
		t.Findings = append(t.Findings, Finding{Kind: KindRoots,
			Message: fmt.Sprintf("the tree has %d roots (%s): frames under different roots cannot be looked up in each other", len(t.Roots), strings.Join(t.Roots, ", "))})
	}
	for _, loop := range loops(t) {
		t.Findings = append(t.Findings, Finding{Kind: KindLoop, Frame: loop[0],
			Message: fmt.Sprintf("the frames %s form a loop: each is the parent of the next", strings.Join(append(loop, loop[0]), " → "))})
	}
	return t
}

// loops finds the cycles of parent links, each from its smallest name.
func loops(t *Tree) [][]string {
	var out [][]string
	state := map[string]int{} // 1: on the current path, 2: done
	for _, start := range t.Names() {
		var path []string
		n, cycled := start, false
		for n != "" {
			if state[n] == 1 {
				cycled = true
				break
			}
			if state[n] == 2 {
				break
			}
			state[n] = 1
			path = append(path, n)
			f := t.Frames[n]
			if f == nil || f.Root {
				break
			}
			n = f.Parent
		}
		if cycled {
			i := indexOf(path, n)
			cyc := append([]string(nil), path[i:]...)
			// Start the loop at its smallest name, for a stable order.
			m := 0
			for j := range cyc {
				if cyc[j] < cyc[m] {
					m = j
				}
			}
			out = append(out, append(cyc[m:], cyc[:m]...))
		}
		for _, p := range path {
			state[p] = 2
		}
	}
	return out
}

func indexOf(s []string, x string) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
