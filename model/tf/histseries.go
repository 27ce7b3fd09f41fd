package tf

import (
	"context"
	"fmt"
	"sort"
)

// LookupSeries is LookupSeries(ctx, h.Storage(), target, source, opt,
// emit) computed from the history, without reading the recording: the
// same samples, in the same order. When a frame the lookup can pass
// through is in Windowed (its transforms were too many to hold), it reads
// the recording as LookupSeries does. SeriesInfo.Reads says how many
// reads it made: none from the history.
func (h *History) LookupSeries(ctx context.Context, target, source string, opt SeriesOptions, emit func(Sample)) (SeriesInfo, error) {
	target, source = StripSlash(target), StripSlash(source)
	var info SeriesInfo
	if target == source {
		return info, fmt.Errorf("the target and source frames are the same (%s): the lookup is the identity at every time", target)
	}
	r := &seriesRun{st: h.st, ids: h.ids, opt: opt, emit: emit, info: &info, target: target, source: source}
	r.bounds()
	statics := map[string]stamped{}
	counts := map[string]*frameCount{}
	for name, hs := range h.base.hist {
		if hs.haveStatic {
			s := hs.lastStatic
			statics[name] = stamped{parent: s.parent, child: name, stamp: s.stamp, tr: s.tr}
		}
	}
	if err := r.setup(h.base.parents, statics, counts); err != nil {
		return info, err
	}
	// The frames' dynamic transforms in the bounds, from the history.
	frames := make([]*frameSamples, len(r.names))
	for i, name := range r.names {
		f := h.frames[name]
		if f == nil {
			continue
		}
		if f.windowed {
			info = SeriesInfo{}
			return LookupSeries(ctx, h.st, target, source, opt, emit)
		}
		frames[i] = f
		lo, hi := h.between(f, r.from, r.to)
		if hi > lo {
			r.dynamic += hi - lo
			r.first, r.last = min(r.first, f.samples[lo].stamp.Key()), max(r.last, f.samples[hi-1].stamp.Key())
		}
	}
	start, end := r.span()
	// Each frame's transform at start: its latest stamped before it
	// (ties: the later read, which the history keeps last).
	slot := make([]seriesSample, len(r.names))
	next := make([]int, len(r.names))
	set := func(i, k int) {
		s := &frames[i].samples[k]
		slot[i] = seriesSample{key: s.stamp.Key(), frame: int32(i), parent: r.index[h.parents[s.parent]], tr: s.tr}
		r.cur[i] = &slot[i]
	}
	for i, f := range frames {
		if f == nil {
			continue
		}
		k := sort.Search(len(f.samples), func(k int) bool { return f.samples[k].stamp.Key() >= start })
		if k > 0 {
			set(i, k-1)
		}
		next[i] = k
	}
	// Then, as one stretch from start to end, each stamp where a
	// transform on the chain changes, merging the frames' samples.
	forced := true
	n := 0
	for {
		k, any := end, false
		for i, f := range frames {
			if f != nil && next[i] < len(f.samples) {
				if sk := f.samples[next[i]].stamp.Key(); sk <= end && (!any || sk < k) {
					k, any = sk, true
				}
			}
		}
		if forced && (!any || k > start) {
			r.at(start, true)
			forced = false
		}
		if !any {
			break
		}
		for i, f := range frames {
			for f != nil && next[i] < len(f.samples) && f.samples[next[i]].stamp.Key() == k {
				set(i, next[i])
				next[i]++
			}
		}
		r.at(k, forced)
		forced = false
		if n++; n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return info, err
			}
		}
	}
	return info, nil
}

// between is the samples of f stamped in [lo, hi] (keys): f.samples[a:b].
func (h *History) between(f *frameSamples, lo, hi uint64) (a, b int) {
	a = sort.Search(len(f.samples), func(k int) bool { return f.samples[k].stamp.Key() >= lo })
	b = sort.Search(len(f.samples), func(k int) bool { return f.samples[k].stamp.Key() > hi })
	return a, b
}
