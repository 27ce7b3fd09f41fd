package query

import (
	"context"
	"errors"
	"sort"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
)

// ClockTopic is where a simulation publishes its time.
const ClockTopic = "/clock"

// maxClockSamples bounds a ClockIndex: a denser /clock is thinned to
// every n-th message (at 1 kHz, more than an hour of sim time is kept
// whole).
const maxClockSamples = 4 << 20

// ClockIndex maps log times to the sim time of /clock: the clock of the
// last /clock message received at or before a time, as a ROS node using
// sim time sees it.
type ClockIndex struct {
	log, sim []int64 // nanoseconds, by log time
}

// HasClock reports whether s has a /clock topic (the sim time base and
// playback by sim time are offered only then).
func HasClock(s bag.Storage) bool {
	for _, c := range s.Connections() {
		if c.Topic == ClockTopic {
			return true
		}
	}
	return false
}

// ErrNoClock means the recording has no /clock messages bagscope reads.
var ErrNoClock = errors.New("the recording has no /clock (rosgraph_msgs/Clock) messages")

// ReadClock reads the /clock messages of s.
func ReadClock(ctx context.Context, s bag.Storage, cache *rosmsg.Cache) (*ClockIndex, error) {
	paths := map[uint32][2]*rosmsg.Path{}
	var ids []uint32
	for _, c := range s.Connections() {
		if c.Topic != ClockTopic {
			continue
		}
		plan, err := model.PlanFor(cache, c)
		if err != nil {
			continue
		}
		for _, f := range [][2]string{{"clock.secs", "clock.nsecs"}, {"clock.sec", "clock.nanosec"}} {
			sp, err1 := rosmsg.CompilePath(plan, f[0])
			np, err2 := rosmsg.CompilePath(plan, f[1])
			if err1 == nil && err2 == nil {
				paths[c.ID] = [2]*rosmsg.Path{sp, np}
				ids = append(ids, c.ID)
				break
			}
		}
	}
	if len(ids) == 0 {
		return nil, ErrNoClock
	}
	x := &ClockIndex{}
	it := s.Messages(bag.MessageFilter{Conns: ids})
	defer it.Close()
	for n := 0; it.Next(); n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		m := it.Message()
		p := paths[m.Conn.ID]
		secs, err1 := p[0].Float64(m.Data)
		nsecs, err2 := p[1].Float64(m.Data)
		if err1 != nil || err2 != nil {
			continue
		}
		x.log = append(x.log, m.Time.Nanos())
		x.sim = append(x.sim, int64(secs)*1e9+int64(nsecs))
		if len(x.log) >= maxClockSamples {
			x.thin()
		}
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	if len(x.log) == 0 {
		return nil, ErrNoClock
	}
	return x, nil
}

// thin keeps every other sample.
func (x *ClockIndex) thin() {
	n := 0
	for i := 0; i < len(x.log); i += 2 {
		x.log[n], x.sim[n] = x.log[i], x.sim[i]
		n++
	}
	x.log, x.sim = x.log[:n], x.sim[:n]
}

// At returns the sim time at log time t (nanoseconds), and false before
// the first /clock message.
func (x *ClockIndex) At(t int64) (int64, bool) {
	i := sort.Search(len(x.log), func(i int) bool { return x.log[i] > t })
	if i == 0 {
		return 0, false
	}
	return x.sim[i-1], true
}

// LogAt returns the log time at which the sim time first reached sim (the
// first sample at or past it; the last sample past the end), false when
// there are no samples. Sim time that goes back (a restarted simulation)
// is searched as if it did not.
func (x *ClockIndex) LogAt(sim int64) (int64, bool) {
	if len(x.sim) == 0 {
		return 0, false
	}
	i := sort.Search(len(x.sim), func(i int) bool { return x.sim[i] >= sim })
	return x.log[min(i, len(x.log)-1)], true
}

// Advance returns the log time at which the sim time is d nanoseconds past
// its value at log time t (model.Pacer: playback paced by the sim time),
// taking the sim time as running evenly between two /clock messages: a
// frame shorter than the clock's period moves by its share of it, and
// across a pause of the simulation the time jumps to where the sim time
// moves again. ok is false before the first /clock and past the last sim
// time.
func (x *ClockIndex) Advance(t, d int64) (int64, bool) {
	i := sort.Search(len(x.log), func(i int) bool { return x.log[i] > t }) - 1
	if i < 0 || i == len(x.log)-1 {
		return 0, false
	}
	now := lerp(x.sim[i], x.sim[i+1], t-x.log[i], x.log[i+1]-x.log[i])
	target := now + d
	j := i + 1 + sort.Search(len(x.sim)-i-1, func(k int) bool { return x.sim[i+1+k] >= target })
	if j == len(x.sim) {
		return 0, false
	}
	// Between samples j-1 (before target, or t's own) and j (at or past it).
	from, fromLog := now, t
	if j-1 > i {
		from, fromLog = x.sim[j-1], x.log[j-1]
	}
	if x.sim[j] <= from {
		return x.log[j], true
	}
	return max(t, fromLog+lerp(0, x.log[j]-fromLog, target-from, x.sim[j]-from)), true
}

// lerp is a + (b-a)*num/den, exact in integers for the spans a recording
// has (den > 0).
func lerp(a, b, num, den int64) int64 {
	if den <= 0 {
		return a
	}
	return a + int64(float64(b-a)*float64(num)/float64(den))
}

// First returns the sim time of the first /clock sample, false when there
// is none.
func (x *ClockIndex) First() (int64, bool) {
	if len(x.sim) == 0 {
		return 0, false
	}
	return x.sim[0], true
}

// Len returns the number of /clock samples kept.
func (x *ClockIndex) Len() int { return len(x.log) }
