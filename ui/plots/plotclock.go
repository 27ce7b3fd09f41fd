package plots

import (
	"context"
	"sync"

	"github.com/bagscope/bagscope/model/query"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
)

// The /clock time base: points at the sim time of /clock when their
// message was received. The rest of the window (the timeline, the cursor,
// the selected range) works in receive time, so the Plots tab maps times
// across at its edges: toBase for what comes in, toLog for what goes out.

// loadClock reads the /clock messages in the background, then switches to
// the time base labelled label; on failure it says why and keeps the base
// shown before.
func (g *View) loadClock(label string) {
	var mu sync.Mutex
	var idx *query.ClockIndex
	var err error
	b := g.l.Doc().Storage
	g.l.Go(func(ctx context.Context) {
		x, e := query.ReadClock(ctx, b, &g.cache)
		mu.Lock()
		idx, err = x, e
		mu.Unlock()
	}, func() {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			if g.current != nil {
				g.current.setError("Cannot plot on the sim time: " + err.Error())
			}
			g.baseSel.SetSelected(g.baseLabel())
			return
		}
		g.clock = idx
		g.setTimeBase(label)
	})
}

// baseLabel is the label of the time base shown.
func (g *View) baseLabel() string {
	for _, tb := range timeBases {
		if tb.base == g.base && tb.absolute == g.absolute {
			return tb.label
		}
	}
	return timeBases[0].label
}

// originFor is 0 s on a relative axis of base: the recording's start, or
// the first sim time.
func (g *View) originFor(base series.TimeBase) int64 {
	if base == series.ClockTime && g.clock != nil {
		if o, ok := g.clock.First(); ok {
			return o
		}
	}
	return g.bagWin.T0
}

// toBase maps a receive time to the time base shown: the sim time then
// (the first sim time before /clock starts), else t itself.
func (g *View) toBase(t int64) int64 {
	if g.base != series.ClockTime || g.clock == nil {
		return t
	}
	if s, ok := g.clock.At(t); ok {
		return s
	}
	s, _ := g.clock.First()
	return s
}

// toLog maps a time on the base shown back to a receive time: when the sim
// time first reached it.
func (g *View) toLog(t int64) int64 {
	if g.base != series.ClockTime || g.clock == nil {
		return t
	}
	if l, ok := g.clock.LogAt(t); ok {
		return l
	}
	return t
}

// logTimes maps times on the base shown to receive times.
func (g *View) logTimes(ts []int64) []int64 {
	if g.base != series.ClockTime || g.clock == nil {
		return ts
	}
	out := make([]int64, len(ts))
	for i, t := range ts {
		out[i] = g.toLog(t)
	}
	return out
}

// baseWindow is the recording's time range on the base shown.
func (g *View) baseWindow() plot.Window {
	w := plot.Window{T0: g.toBase(g.bagWin.T0), T1: g.toBase(g.bagWin.T1)}
	if w.T1-w.T0 < plot.MinWindow {
		w.T1 = w.T0 + 1e9
	}
	return w
}

// clockOrNil is the /clock index as a series.Clock: nil (not a typed nil)
// until it is read.
func (g *View) clockOrNil() series.Clock {
	if g.clock == nil {
		return nil
	}
	return g.clock
}
