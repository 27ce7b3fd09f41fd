package timeline

import (
	"context"
	"sync"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/query"
)

// Playback by the sim time of /clock: with it on, the speed is sim seconds
// per wall second (a pause of the simulation is skipped, a simulation
// slower than real time plays slower), and the transport shows the sim
// time beside the receive time.

// SimTime reports whether playback is paced by the sim time.
func (p *Player) SimTime() bool { return p.clock.Pace != nil }

// SetSimTime paces playback by the sim time of /clock, or by the receive
// time. The /clock messages are read the first time, in the background;
// done, if not nil, runs once the pace is set (with the error that kept
// it off).
func (p *Player) SetSimTime(on bool, done func(error)) {
	finish := func(err error) {
		p.last = p.now()
		p.changed()
		if done != nil {
			done(err)
		}
	}
	if !on || p.sim != nil {
		p.clock.Pace = nil
		if on {
			p.clock.Pace = p.sim
		}
		finish(nil)
		return
	}
	var mu sync.Mutex
	var idx *query.ClockIndex
	var err error
	b := p.l.Doc().Storage
	p.l.Go(func(ctx context.Context) {
		var cache rosmsg.Cache
		x, e := query.ReadClock(ctx, b, &cache)
		mu.Lock()
		idx, err = x, e
		mu.Unlock()
	}, func() {
		mu.Lock()
		defer mu.Unlock()
		if err == nil {
			p.sim = idx
			p.clock.Pace = idx
		}
		finish(err)
	})
}

// simText is the sim time at receive time t, from the first sim time, or
// "" when playback is not paced by it or it has none yet.
func (p *Player) simText(t int64) string {
	if p.clock.Pace == nil || p.sim == nil {
		return ""
	}
	s, ok := p.sim.At(t)
	if !ok {
		return "sim –"
	}
	first, _ := p.sim.First()
	return "sim " + human.RelTime(s-first)
}
