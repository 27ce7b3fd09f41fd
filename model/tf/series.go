package tf

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// Sample is a lookup of the series at one time.
type Sample struct {
	// At is the time: a header.stamp of a transform on the chain.
	At bag.Time
	// Transform maps points of the source frame into the target frame, as
	// the tree read at At looks it up (Tree.Lookup); zero when Err is set.
	Transform Transform
	// Err says why the lookup fails at At (the frames are not connected,
	// one has no transform yet, a loop).
	Err error
}

// SeriesOptions tune LookupSeries.
type SeriesOptions struct {
	// From and To bound the times (stamps) of the series; zero From starts
	// at the first transform of a frame the lookup can pass through (or
	// the recording's start), zero To runs to the last.
	From, To bag.Time
	// MaxSamples bounds the transforms held at once (DefaultMaxSamples
	// when 0): a chain with more is evaluated in several reads, each over
	// a stretch of time.
	MaxSamples int
	// Progress, when set, is told the transform messages read so far of
	// the total the reads will cover (it grows if a stretch must be split).
	Progress func(done, total int64)
}

// ErrNoFrame says a frame LookupSeries was asked for is in no transform of
// the recording.
var ErrNoFrame = errors.New("no transform of the recording names frame")

// DefaultMaxSamples is the transforms LookupSeries holds at once: about
// 18 MiB.
const DefaultMaxSamples = 1 << 18

// SeriesInfo says what LookupSeries did.
type SeriesInfo struct {
	// Samples counts the samples emitted, Failed those with Err set.
	Samples, Failed int
	// Reads counts the reads of the transform messages (the first one
	// learns the frames the lookup can pass through).
	Reads int
	// Undecodable counts messages that could not be read as transforms
	// (in the first read).
	Undecodable uint64
}

// LookupSeries is the lookup of frame source in frame target over time:
// emit gets, in time order, the lookup at each time (a header.stamp) a
// transform on the chain between the two changes, with each frame's
// transform then being, as in Read, its latest dynamic transform stamped at
// or before that time, else its static one. The chain is followed as it
// is at each time: a frame that changes parent changes the chain. A time
// where the lookup fails is emitted once, after a time it succeeded (and
// at From), not again until it succeeds. The first sample is at From
// (see SeriesOptions), whether or not a transform changes then.
//
// Memory stays bounded: the transforms of the frames the lookup can pass
// through are held at most MaxSamples at a time, the series being read
// in stretches of time when there are more.
func LookupSeries(ctx context.Context, st bag.Storage, target, source string, opt SeriesOptions, emit func(Sample)) (SeriesInfo, error) {
	target, source = StripSlash(target), StripSlash(source)
	var info SeriesInfo
	if target == source {
		return info, fmt.Errorf("the target and source frames are the same (%s): the lookup is the identity at every time", target)
	}
	ids := Connections(st)
	if len(ids) == 0 {
		return info, ErrNoTF
	}
	if opt.MaxSamples <= 0 {
		opt.MaxSamples = DefaultMaxSamples
	}
	r := &seriesRun{st: st, ids: ids, opt: opt, emit: emit, info: &info, target: target, source: source}
	if s, _ := st.Summary(); s != nil {
		for _, id := range ids {
			r.perRead += int64(s.ConnMessages[id])
		}
	}
	r.total = r.perRead
	if err := r.structure(ctx); err != nil {
		return info, err
	}
	return info, r.run(ctx)
}

// seriesRun is one LookupSeries.
type seriesRun struct {
	st             bag.Storage
	ids            []uint32
	opt            SeriesOptions
	emit           func(Sample)
	info           *SeriesInfo
	target, source string
	done, total    int64
	perRead        int64
	cache          rosmsg.Cache

	// The frames the lookup can pass through: target, source and every
	// parent any of them ever has, by index.
	index  map[string]int32
	names  []string
	static []*seriesSample // each frame's static transform (the last received), or nil
	// dynamic counts each frame's dynamic transforms in [from, to];
	// first and last are their earliest and latest stamps (keys).
	dynamic     int
	first, last uint64
	from, to    uint64 // the bounds (keys); to is max without To

	// The state between stretches.
	cur       []*seriesSample // each frame's transform at the time, or nil
	lastValid bool
}

type seriesSample struct {
	key           uint64 // the stamp
	frame, parent int32
	tr            Transform
}

// each reads every transform tf2 takes of the recording, in read order.
func (r *seriesRun) each(ctx context.Context, f func(s stamped, static bool) error) error {
	r.info.Reads++
	it := r.st.Messages(bag.MessageFilter{Conns: r.ids})
	defer it.Close()
	var n int64
	for it.Next() {
		if n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if r.opt.Progress != nil {
				r.opt.Progress(r.done, r.total)
			}
		}
		n++
		r.done++
		m := it.Message()
		plan, err := r.cache.GetSchema(m.Conn.SchemaEncoding, m.Conn.Encoding, m.Conn.Type, m.Conn.Definition)
		var node *rosmsg.Node
		if err == nil {
			node, err = plan.Decode(m.Data)
		}
		var arr *rosmsg.Node
		if err == nil {
			if arr = node.Field("transforms"); arr == nil || !arr.Array {
				err = errors.New("no transforms array")
			}
		}
		if err != nil {
			if r.info.Reads == 1 {
				r.info.Undecodable++
			}
			continue
		}
		static := IsStaticTopic(m.Conn.Topic)
		for i := 0; i < arr.Len(); i++ {
			e, ok := arr.Elem(i)
			if !ok {
				continue
			}
			s, err := decodeStamped(&e)
			if err != nil || rejectReason(s) != "" {
				continue
			}
			if err := f(s, static); err != nil {
				return err
			}
		}
	}
	if r.opt.Progress != nil {
		r.opt.Progress(r.done, r.total)
	}
	return it.Err()
}

// structure is the first read: the parents each frame ever has, to find
// the frames the lookup can pass through, their static transforms, and
// how many dynamic transforms they have in the bounds.
func (r *seriesRun) structure(ctx context.Context) error {
	parents := map[string]map[string]bool{}
	counts := map[string]*frameCount{}
	r.bounds()
	// Each frame's static transform is its last one that is not a repeat
	// of an earlier one, as Read keeps it.
	statics := map[string]stamped{}
	seen := map[string]map[sample]bool{}
	err := r.each(ctx, func(s stamped, static bool) error {
		ps := parents[s.child]
		if ps == nil {
			ps = map[string]bool{}
			parents[s.child] = ps
		}
		ps[s.parent] = true
		if static {
			key := sample{parent: s.parent, stamp: s.stamp, tr: s.tr}
			keys := seen[s.child]
			if keys[key] {
				return nil
			}
			if keys == nil {
				keys = map[sample]bool{}
				seen[s.child] = keys
			}
			if len(keys) < maxStaticKeys {
				keys[key] = true
			}
			statics[s.child] = s
			return nil
		}
		k := s.stamp.Key()
		if k < r.from || k > r.to {
			return nil
		}
		c := counts[s.child]
		if c == nil {
			c = &frameCount{first: k, last: k}
			counts[s.child] = c
		}
		c.n++
		c.first, c.last = min(c.first, k), max(c.last, k)
		return nil
	})
	if err != nil {
		return err
	}
	return r.setup(parents, statics, counts)
}

// frameCount is a frame's dynamic transforms in the bounds: how many, the
// earliest and latest stamps (keys).
type frameCount struct {
	n           int
	first, last uint64
}

// bounds sets from and to from the options.
func (r *seriesRun) bounds() {
	r.from, r.to = r.opt.From.Key(), r.opt.To.Key()
	if r.opt.To.IsZero() {
		r.to = math.MaxUint64
	}
}

// setup finds the frames the lookup can pass through from every parent
// each frame ever has (parents), with their static transforms (each
// frame's last one that is not a repeat of an earlier one, as Read keeps
// it) and their dynamic transforms in the bounds (counts).
func (r *seriesRun) setup(parents map[string]map[string]bool, statics map[string]stamped, counts map[string]*frameCount) error {
	for _, f := range []string{r.target, r.source} {
		if parents[f] != nil || r.isAnyParent(parents, f) {
			continue
		}
		all := map[string]bool{}
		for c, ps := range parents {
			all[c] = true
			for p := range ps {
				all[p] = true
			}
		}
		names := make([]string, 0, len(all))
		for n := range all {
			names = append(names, n)
		}
		sort.Strings(names)
		msg := fmt.Sprintf("%v %q", ErrNoFrame, f)
		if s := rosmsg.SuggestPaths(f, names); len(s) > 0 {
			msg += fmt.Sprintf(" (did you mean %s?)", s[0])
		}
		if len(names) <= 30 {
			msg += "; the frames are " + strings.Join(names, ", ")
		}
		return fmt.Errorf("%w%s", ErrNoFrame, strings.TrimPrefix(msg, ErrNoFrame.Error()))
	}
	r.index = map[string]int32{}
	var add func(name string)
	add = func(name string) {
		if _, ok := r.index[name]; ok {
			return
		}
		r.index[name] = int32(len(r.names))
		r.names = append(r.names, name)
		ps := make([]string, 0, len(parents[name]))
		for p := range parents[name] {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		for _, p := range ps {
			add(p)
		}
	}
	add(r.target)
	add(r.source)
	r.static = make([]*seriesSample, len(r.names))
	r.cur = make([]*seriesSample, len(r.names))
	r.first, r.last = math.MaxUint64, 0
	for i, name := range r.names {
		if s, ok := statics[name]; ok {
			r.static[i] = &seriesSample{key: s.stamp.Key(), parent: r.index[s.parent], tr: s.tr}
		}
		if c := counts[name]; c != nil {
			r.dynamic += c.n
			r.first, r.last = min(r.first, c.first), max(r.last, c.last)
		}
	}
	return nil
}

// isAnyParent reports whether f is ever the parent of a frame.
func (r *seriesRun) isAnyParent(parents map[string]map[string]bool, f string) bool {
	for _, ps := range parents {
		if ps[f] {
			return true
		}
	}
	return false
}

// errFull says a stretch holds more transforms than MaxSamples.
var errFull = errors.New("the stretch holds too many transforms")

// run reads the stretches in time order and emits the series.
func (r *seriesRun) run(ctx context.Context) error {
	start, end := r.span()
	// Stretches of about MaxSamples transforms each, if they were spread
	// evenly; one that is not is split again.
	parts := uint64(r.dynamic/r.opt.MaxSamples + 1)
	width := (end-start)/parts + 1
	r.total += int64(parts) * r.perRead
	forced := true
	for lo := start; ; {
		hi := end
		if end-lo >= width {
			hi = lo + width - 1
		}
		if err := r.stretch(ctx, lo, hi, forced); err != nil {
			return err
		}
		forced = false
		if hi >= end {
			return nil
		}
		lo = hi + 1
	}
}

// span is the stamps the series covers: from From (or the first dynamic
// transform of the frames, or the recording's start) to the last one in
// the bounds.
func (r *seriesRun) span() (start, end uint64) {
	start = r.from
	if r.opt.From.IsZero() {
		start = r.first
		if r.dynamic == 0 {
			start = 0
			if s, _ := r.st.Summary(); s != nil {
				start = s.Start.Key()
			}
		}
	}
	// Without dynamic transforms in the bounds, one sample at start (the
	// dynamic transforms before it, if any, still count).
	end = start
	if r.dynamic > 0 {
		end = max(start, min(r.last, r.to))
	}
	return start, end
}

// stretch emits the series over stamps [lo, hi], splitting it in halves
// while it holds more than MaxSamples transforms.
func (r *seriesRun) stretch(ctx context.Context, lo, hi uint64, forced bool) error {
	var held []seriesSample
	before := make([]*seriesSample, len(r.names))
	err := r.each(ctx, func(s stamped, static bool) error {
		i, ok := r.index[s.child]
		if !ok || static {
			return nil
		}
		k := s.stamp.Key()
		switch {
		case k < lo:
			// The state at the stretch's start: the latest transform
			// stamped before it (ties: the later read, as Read takes).
			if b := before[i]; b == nil || k >= b.key {
				before[i] = &seriesSample{key: k, frame: i, parent: r.index[s.parent], tr: s.tr}
			}
		case k <= hi:
			if len(held) >= r.opt.MaxSamples && lo < hi {
				return errFull
			}
			held = append(held, seriesSample{key: k, frame: i, parent: r.index[s.parent], tr: s.tr})
		}
		return nil
	})
	if errors.Is(err, errFull) {
		held = nil
		r.total += 2 * r.perRead
		mid := lo + (hi-lo)/2
		if err := r.stretch(ctx, lo, mid, forced); err != nil {
			return err
		}
		return r.stretch(ctx, mid+1, hi, false)
	}
	if err != nil {
		return err
	}
	copy(r.cur, before)
	// A stable sort keeps the read order of equal stamps: the later read
	// wins, as in Read.
	sort.SliceStable(held, func(a, b int) bool { return held[a].key < held[b].key })
	if forced && (len(held) == 0 || held[0].key > lo) {
		r.at(lo, true)
		forced = false
	}
	for i := 0; i < len(held); {
		k := held[i].key
		for ; i < len(held) && held[i].key == k; i++ {
			r.cur[held[i].frame] = &held[i]
		}
		r.at(k, forced)
		forced = false
	}
	return nil
}

// frameAt is frame i's transform at the time: its dynamic one, else its
// static one.
func (r *seriesRun) frameAt(i int32) *seriesSample {
	if s := r.cur[i]; s != nil {
		return s
	}
	return r.static[i]
}

// at emits the lookup at stamp k when a transform on the chain is stamped
// k (or forced).
func (r *seriesRun) at(k uint64, forced bool) {
	tr, changed, err := r.lookup(k)
	if !forced && !changed {
		return
	}
	if err != nil && !forced && !r.lastValid {
		return
	}
	s := Sample{At: bag.Time{Sec: uint32(k >> 32), NSec: uint32(k)}, Transform: tr, Err: err}
	r.lastValid = err == nil
	r.info.Samples++
	if err != nil {
		r.info.Failed++
		s.Transform = Transform{}
	}
	r.emit(s)
}

// lookup is Tree.Lookup over the current transforms; changed says a
// transform on the chain is stamped k.
func (r *seriesRun) lookup(k uint64) (Transform, bool, error) {
	changed := false
	toRoot := func(name string) (int32, Transform, error) {
		i := r.index[name]
		tr := Identity
		seen := map[int32]bool{}
		for {
			s := r.frameAt(i)
			if s == nil {
				return i, tr, nil
			}
			if seen[i] {
				return 0, Transform{}, fmt.Errorf("%s is in a loop of parents", name)
			}
			seen[i] = true
			if r.cur[i] != nil && r.cur[i].key == k {
				changed = true
			}
			tr = Mul(s.tr, tr)
			i = s.parent
		}
	}
	rootT, inT, errT := toRoot(r.target)
	rootS, inS, errS := toRoot(r.source)
	// A frame is at the time when it has a transform, or is the parent
	// of one (a root).
	for _, name := range []string{r.target, r.source} {
		i := r.index[name]
		if r.frameAt(i) == nil && !r.isParent(i) {
			return Transform{}, changed, fmt.Errorf("no frame %q at this time", name)
		}
	}
	switch {
	case errT != nil:
		return Transform{}, changed, errT
	case errS != nil:
		return Transform{}, changed, errS
	case rootT != rootS:
		return Transform{}, changed, fmt.Errorf("%s and %s are not connected: %s hangs from %s, %s from %s", r.target, r.source, r.target, r.names[rootT], r.source, r.names[rootS])
	}
	return Mul(inT.Inverse(), inS), changed, nil
}

// isParent reports whether frame i is the parent of a frame at the time.
func (r *seriesRun) isParent(i int32) bool {
	for j := range r.names {
		if s := r.frameAt(int32(j)); s != nil && s.parent == i {
			return true
		}
	}
	return false
}
