package tf

import (
	"context"
	"math"
	"sort"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/internal/typed"
)

// DefaultHistorySamples bounds the dynamic transforms a History holds
// (80 bytes each: about 80 MiB).
const DefaultHistorySamples = 1 << 20

// HistoryOptions tune BuildHistory.
type HistoryOptions struct {
	Options
	// MaxSamples bounds the dynamic transforms held over all frames
	// (DefaultHistorySamples when 0). Past it, the frame holding the most
	// gives its transforms up: a tree at a time then reads that frame's
	// transforms from a window of the recording around the time (see
	// History.Windowed).
	MaxSamples int
}

// History is the transform history of a recording, read once: for each
// frame, its dynamic transforms in stamp order (time, parent, transform,
// receive time, damage), its static transform kept once, and everything
// the tree says of the whole recording (publisher, rate, parent changes,
// future stamps, refused transforms). TreeAt gives the tree at any time
// without reading the recording again: a binary search per frame. A frame
// past the memory bound is read from a window around the time instead.
//
// A History does not change once built; it is safe for concurrent use.
type History struct {
	st       bag.Storage
	ids      []uint32
	end      bag.Time
	base     *builder // the read at "latest": every frame's history
	frames   map[string]*frameSamples
	parents  []string // the parent names samples refer to, by index
	parentIx map[string]int32
	suspects []string // the damage reasons samples refer to; [0] is ""
	suspIx   map[string]int32
	held     int
	max      int
	windowed []string
}

// frameSamples are one frame's dynamic transforms.
type frameSamples struct {
	samples []histSample // by stamp; equal stamps in read order
	// windowed says the samples were given up for memory: the frame is
	// read from a window of the recording.
	windowed bool
	n        int
	// first and last are the earliest and latest stamps; lagMin and
	// lagMax bound receive time minus stamp (nanoseconds), which is what
	// a window read needs to find every transform stamped in a span.
	first, last    bag.Time
	lagMin, lagMax int64
}

// histSample is one dynamic transform, in 80 bytes without pointers.
type histSample struct {
	stamp, recv     bag.Time
	parent, suspect int32
	tr              Transform
}

// BuildHistory reads every transform message of st once and keeps its
// history. opt.Progress and opt.Done work as in Read. A read that stops on
// damage returns the history of what it read with the error; a cancelled
// one returns nil.
func BuildHistory(ctx context.Context, st bag.Storage, opt HistoryOptions) (*History, error) {
	ids := Connections(st)
	if len(ids) == 0 {
		return nil, ErrNoTF
	}
	h := &History{st: st, ids: ids, end: storageEnd(st), frames: map[string]*frameSamples{},
		parentIx: map[string]int32{}, suspects: []string{""}, suspIx: map[string]int32{"": 0}, max: opt.MaxSamples}
	if h.max <= 0 {
		h.max = DefaultHistorySamples
	}
	h.base = newBuilder(bag.Time{})
	h.base.onDynamic = h.keep
	h.base.parents = map[string]map[string]bool{}
	err := readInto(ctx, st, ids, h.base, opt.Options)
	if err != nil && ctx.Err() != nil {
		return nil, err
	}
	for _, f := range h.frames {
		s := f.samples
		if !sort.SliceIsSorted(s, func(i, j int) bool { return s[i].stamp.Key() < s[j].stamp.Key() }) {
			sort.SliceStable(s, func(i, j int) bool { return s[i].stamp.Key() < s[j].stamp.Key() })
		}
	}
	sort.Strings(h.windowed)
	return h, err
}

// keep holds one dynamic transform of frame hs.
func (h *History) keep(hs *history, s sample) {
	f := h.frames[hs.name]
	lag := s.received.Nanos() - s.stamp.Nanos()
	if f == nil {
		f = &frameSamples{first: s.stamp, last: s.stamp, lagMin: lag, lagMax: lag}
		h.frames[hs.name] = f
	}
	f.n++
	f.lagMin, f.lagMax = min(f.lagMin, lag), max(f.lagMax, lag)
	if s.stamp.Before(f.first) {
		f.first = s.stamp
	}
	if f.last.Before(s.stamp) {
		f.last = s.stamp
	}
	if f.windowed {
		return
	}
	f.samples = append(f.samples, histSample{stamp: s.stamp, recv: s.received,
		parent: index(&h.parents, h.parentIx, s.parent), suspect: index(&h.suspects, h.suspIx, s.suspect), tr: s.tr})
	h.held++
	for h.held > h.max {
		h.giveUp()
	}
}

// giveUp drops the samples of the frame holding the most.
func (h *History) giveUp() {
	var most string
	for name, f := range h.frames {
		if most == "" || len(f.samples) > len(h.frames[most].samples) || len(f.samples) == len(h.frames[most].samples) && name < most {
			most = name
		}
	}
	f := h.frames[most]
	h.held -= len(f.samples)
	f.samples, f.windowed = nil, true
	h.windowed = append(h.windowed, most)
}

func index(names *[]string, ix map[string]int32, name string) int32 {
	if i, ok := ix[name]; ok {
		return i
	}
	i := int32(len(*names))
	*names = append(*names, name)
	ix[name] = i
	return i
}

// Windowed lists the frames whose transforms were too many to hold:
// TreeAt reads each from a window of the recording around the time.
func (h *History) Windowed() []string { return append([]string(nil), h.windowed...) }

// Samples is the number of dynamic transforms held.
func (h *History) Samples() int { return h.held }

// Bytes is about the memory the held transforms take.
func (h *History) Bytes() int64 {
	var n int64
	for _, f := range h.frames {
		n += int64(cap(f.samples)) * 80
	}
	return n
}

// Storage is the recording the history was read from.
func (h *History) Storage() bag.Storage { return h.st }

// TreeAt is the tree at time at, as Read(ctx, st, at) builds it: on each
// frame the latest dynamic transform stamped at or before at (ties: the
// later read), else its static one; a zero at takes each frame's latest.
// Only frames in Windowed read the recording (a window before at); the
// error is such a read's.
func (h *History) TreeAt(ctx context.Context, at bag.Time) (*Tree, error) {
	b := &builder{at: at, bound: at.Key(), hist: make(map[string]*history, len(h.base.hist)), rejected: h.base.rejected}
	if at.IsZero() {
		b.bound = math.MaxUint64
	}
	src := h.base.tree
	b.tree = &Tree{At: at, Messages: src.Messages, Transforms: src.Transforms, Undecodable: src.Undecodable, FirstUndecodable: src.FirstUndecodable}
	var firstErr error
	for name, base := range h.base.hist {
		c := *base
		c.latest, c.haveLatest = sample{}, false
		if f := h.frames[name]; f != nil {
			var err error
			c.latest, c.haveLatest, err = h.latestAt(ctx, name, f, b.bound)
			if err != nil && firstErr == nil {
				firstErr = err
			}
		}
		b.hist[name] = &c
	}
	return b.finishEnd(h.end), firstErr
}

// Lookup is TreeAt(at).Lookup(target, source): source's transform in
// target at time at.
func (h *History) Lookup(ctx context.Context, at bag.Time, target, source string) (Transform, error) {
	t, err := h.TreeAt(ctx, at)
	if err != nil {
		return Transform{}, err
	}
	return t.Lookup(target, source)
}

// latestAt is frame name's latest dynamic transform stamped at or before
// the bound (a time's key).
func (h *History) latestAt(ctx context.Context, name string, f *frameSamples, bound uint64) (sample, bool, error) {
	if f.windowed {
		return h.window(ctx, name, f, bound)
	}
	i := sort.Search(len(f.samples), func(i int) bool { return f.samples[i].stamp.Key() > bound })
	if i == 0 {
		return sample{}, false, nil
	}
	s := &f.samples[i-1]
	return sample{parent: h.parents[s.parent], stamp: s.stamp, received: s.recv, tr: s.tr, suspect: h.suspects[s.suspect]}, true, nil
}

// window reads frame name's latest dynamic transform stamped at or
// before the bound from the recording: the transforms stamped in
// (T-w, T] are received in (T-w+lagMin, T+lagMax], so that receive window
// holds them all; w grows until it holds one or reaches the frame's first
// stamp.
func (h *History) window(ctx context.Context, name string, f *frameSamples, bound uint64) (sample, bool, error) {
	if bound < f.first.Key() {
		return sample{}, false, nil
	}
	at := f.last
	if bound < at.Key() {
		at = bag.Time{Sec: uint32(bound >> 32), NSec: uint32(bound)}
	}
	T := at.Nanos()
	// Start with about 16 update periods.
	w := int64(1e7)
	if f.n > 1 {
		w = max(w, (f.last.Nanos()-f.first.Nanos())/int64(f.n-1)*16)
	}
	for {
		lo := T - w
		best, found, err := h.windowRead(ctx, name, lo, T, f.lagMin, f.lagMax)
		if err != nil || found || lo < f.first.Nanos() {
			return best, found, err
		}
		w *= 4
	}
}

// windowRead is one read of window: the latest transform of frame name
// stamped in (lo, T] (nanoseconds).
func (h *History) windowRead(ctx context.Context, name string, lo, T, lagMin, lagMax int64) (sample, bool, error) {
	flt := bag.MessageFilter{Conns: h.dynamicIDs(), Start: bag.TimeFromNanos(lo + lagMin), End: bag.TimeFromNanos(T + lagMax)}
	if flt.End.IsZero() || len(flt.Conns) == 0 {
		return sample{}, false, nil
	}
	var best, prev sample
	found, havePrev := false, false
	err := typed.Each(ctx, h.st, flt, typed.Reader{Undecodable: func(*bag.Message, error) {}, Visit: func(m *bag.Message, node *rosmsg.Node) {
		arr := node.Field("transforms")
		if arr == nil || !arr.Array {
			return
		}
		for i := 0; i < arr.Len(); i++ {
			e, ok := arr.Elem(i)
			if !ok {
				continue
			}
			s, err := decodeStamped(&e)
			if err != nil || s.child != name || rejectReason(s) != "" {
				continue
			}
			// As the builder does: the same transform again is a repeat.
			smp := sample{parent: s.parent, stamp: s.stamp, received: m.Time, tr: s.tr, suspect: m.Suspect}
			if havePrev && prev.parent == s.parent && prev.stamp == s.stamp && prev.tr == s.tr {
				continue
			}
			prev, havePrev = smp, true
			if k := s.stamp.Nanos(); k > lo && k <= T && (!found || !s.stamp.Before(best.stamp)) {
				best, found = smp, true
			}
		}
	}})
	return best, found, err
}

// dynamicIDs are the transform connections of dynamic topics (not
// /tf_static).
func (h *History) dynamicIDs() []uint32 {
	var out []uint32
	for _, c := range h.st.Connections() {
		if IsTFType(c.Type) && !IsStaticTopic(c.Topic) {
			out = append(out, c.ID)
		}
	}
	return out
}
