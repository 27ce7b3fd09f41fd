package model

import (
	"fmt"
	"github.com/bagscope/bagscope/model/msgref"
	"time"
)

// Playback is the clock of a recording played back: the current time moves
// with wall time at a speed, inside bounds (the selected range, else the
// whole recording), and at the end either wraps to the start (Loop) or
// stops. It is plain data: the UI feeds it the wall time that passed
// between two frames and shows the time it returns.
type Playback struct {
	// Start and End bound the time, nanoseconds since the epoch.
	Start, End int64
	// Speed is recording seconds per wall second; AsFastAsPossible (0)
	// steps through the messages one per frame instead.
	Speed float64
	// Loop wraps to Start at End instead of stopping.
	Loop bool
	// Pace, when set, paces the clock by another time than the receive
	// time (the sim time of /clock): Speed is then that time's seconds per
	// wall second.
	Pace Pacer

	t       int64
	playing bool
}

// Pacer maps a move on another time base to the receive time: Advance
// returns the receive time at which that time has moved on by d
// nanoseconds from where it was at receive time t, and false where it
// cannot tell (before or past its samples).
type Pacer interface {
	Advance(t, d int64) (int64, bool)
}

// AsFastAsPossible is the Speed that shows every message in turn, one per
// frame, however far apart they are in time.
const AsFastAsPossible = 0

// Speeds are the speeds offered, slowest first; the last is as fast as
// possible.
var Speeds = []float64{0.1, 0.25, 0.5, 1, 2, 5, 10, AsFastAsPossible}

// SpeedText names a speed: "0.25×", "1×", "as fast as possible".
func SpeedText(s float64) string {
	if s == AsFastAsPossible {
		return "as fast as possible"
	}
	return fmt.Sprintf("%g×", s)
}

// NewPlayback is a paused clock at t over start..end at 1×.
func NewPlayback(start, end, t int64) *Playback {
	p := &Playback{Start: start, End: max(start, end), Speed: 1}
	p.SetTime(t)
	return p
}

// Time is the current time.
func (p *Playback) Time() int64 { return p.t }

// Playing says whether the clock runs.
func (p *Playback) Playing() bool { return p.playing }

// SetTime moves the current time to t, clamped to the bounds.
func (p *Playback) SetTime(t int64) { p.t = min(max(t, p.Start), p.End) }

// SetBounds changes the bounds, keeping the time inside them.
func (p *Playback) SetBounds(start, end int64) {
	p.Start, p.End = start, max(start, end)
	p.SetTime(p.t)
}

// Play starts the clock. Playing from the end starts again at Start, as a
// player's Play button does.
func (p *Playback) Play() {
	if p.t >= p.End {
		p.t = p.Start
	}
	p.playing = true
}

// Pause stops the clock where it is.
func (p *Playback) Pause() { p.playing = false }

// Toggle plays when paused and pauses when playing.
func (p *Playback) Toggle() {
	if p.playing {
		p.Pause()
	} else {
		p.Play()
	}
}

// Advance moves a playing clock on by elapsed wall time at its speed and
// returns the new time. At End it wraps to Start when looping (keeping
// what was left over, so a loop keeps its pace) or stops there.
func (p *Playback) Advance(elapsed time.Duration) int64 {
	if !p.playing || p.Speed <= 0 || elapsed <= 0 {
		return p.t
	}
	d := int64(float64(elapsed) * p.Speed)
	if p.Pace != nil {
		// Where the paced time cannot tell (no sim time yet, or no
		// more), the receive time paces the clock.
		if t, ok := p.Pace.Advance(p.t, d); ok && t > p.t {
			return p.moveTo(t)
		}
	}
	return p.moveTo(p.t + d)
}

// StepTo moves a playing clock to next, the time of the message after the
// current one (as fast as possible); ok false means there is none before
// End. Past End it loops or stops as Advance does, landing on Start.
func (p *Playback) StepTo(next int64, ok bool) int64 {
	if !p.playing {
		return p.t
	}
	if !ok || next > p.End {
		if p.Loop {
			p.t = p.Start
			return p.t
		}
		p.t, p.playing = p.End, false
		return p.t
	}
	p.t = max(p.t, min(next, p.End))
	return p.t
}

func (p *Playback) moveTo(t int64) int64 {
	if t <= p.End {
		p.t = t
		return t
	}
	span := p.End - p.Start
	if !p.Loop || span <= 0 {
		p.t, p.playing = p.End, false
		return p.t
	}
	p.t = p.Start + (t-p.End-1)%(span+1)
	return p.t
}

// Faster returns the next speed of Speeds above s (as fast as possible
// stays), Slower the next below (0.1× stays).
func Faster(s float64) float64 {
	for i, v := range Speeds {
		if v == s && i+1 < len(Speeds) {
			return Speeds[i+1]
		}
		if v > s && s != AsFastAsPossible {
			return v
		}
	}
	return s
}

// Slower returns the next speed of Speeds below s.
func Slower(s float64) float64 {
	if s == AsFastAsPossible {
		return Speeds[len(Speeds)-2]
	}
	for i := len(Speeds) - 2; i >= 0; i-- {
		if Speeds[i] < s {
			return Speeds[i]
		}
	}
	return Speeds[0]
}

// LatestAt returns the latest message at or before t among the named
// topics (every topic when topics is empty): the message a view shows at
// time t. Before the first message it returns the first one after t, so
// that the views always show something near t. Ties in time go to the
// topic named last, then to the later message in file order.
func LatestAt(x *MessageIndex, topics []string, t int64) (msgref.Ref, bool) {
	var best, after msgref.Ref
	found, foundAfter := false, false
	eachTopic(x, topics, func(tm *TopicMessages) {
		i := tm.Search(t + 1)
		if i > 0 {
			if r := tm.At(i - 1); !found || r.T >= best.T {
				best, found = r, true
			}
		}
		if i < tm.Len() {
			if r := tm.At(i); !foundAfter || r.T < after.T {
				after, foundAfter = r, true
			}
		}
	})
	if found {
		return best, true
	}
	return after, foundAfter
}

// NextTime returns the time of the first message after t among the named
// topics (every topic when topics is empty).
func NextTime(x *MessageIndex, topics []string, t int64) (int64, bool) {
	var next int64
	found := false
	eachTopic(x, topics, func(tm *TopicMessages) {
		if i := tm.Search(t + 1); i < tm.Len() && (!found || tm.At(i).T < next) {
			next, found = tm.At(i).T, true
		}
	})
	return next, found
}

// eachTopic calls f on the named topics' messages, or on every topic's.
func eachTopic(x *MessageIndex, topics []string, f func(*TopicMessages)) {
	if len(topics) == 0 {
		for _, tm := range x.Topics {
			f(tm)
		}
		return
	}
	for _, name := range topics {
		if tm := x.Topic(name); tm != nil {
			f(tm)
		}
	}
}
