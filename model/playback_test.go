package model

import (
	"github.com/bagscope/bagscope/model/msgref"
	"testing"
	"time"
)

func TestPlaybackAdvance(t *testing.T) {
	const s = int64(time.Second)
	for _, tc := range []struct {
		name    string
		speed   float64
		loop    bool
		from    int64
		steps   []time.Duration
		want    int64
		playing bool
	}{
		{"1x", 1, false, 0, []time.Duration{100 * time.Millisecond, 100 * time.Millisecond}, s / 5, true},
		{"10x", 10, false, 0, []time.Duration{100 * time.Millisecond}, s, true},
		{"0.1x", 0.1, false, 0, []time.Duration{time.Second}, s / 10, true},
		{"stops at the end", 1, false, 9 * s, []time.Duration{2 * time.Second}, 10 * s, false},
		{"loops keeping its pace", 1, true, 9 * s, []time.Duration{1500 * time.Millisecond}, s/2 - 1, true},
		{"as fast as possible ignores wall time", AsFastAsPossible, false, 3 * s, []time.Duration{time.Hour}, 3 * s, true},
		{"no time passed", 1, false, 4 * s, []time.Duration{0}, 4 * s, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPlayback(0, 10*s, tc.from)
			p.Speed, p.Loop = tc.speed, tc.loop
			p.Play()
			var got int64
			for _, d := range tc.steps {
				got = p.Advance(d)
			}
			if got != tc.want || p.Time() != tc.want || p.Playing() != tc.playing {
				t.Errorf("at %d playing %v, want %d playing %v", got, p.Playing(), tc.want, tc.playing)
			}
		})
	}
}

func TestPlaybackPausedAndBounds(t *testing.T) {
	p := NewPlayback(100, 200, 50)
	if p.Time() != 100 {
		t.Errorf("NewPlayback before the start: %d", p.Time())
	}
	if got := p.Advance(time.Second); got != 100 {
		t.Errorf("a paused clock moved to %d", got)
	}
	p.SetTime(500)
	if p.Time() != 200 {
		t.Errorf("SetTime past the end: %d", p.Time())
	}
	p.Play() // from the end: start again
	if p.Time() != 100 || !p.Playing() {
		t.Errorf("Play at the end: at %d playing %v", p.Time(), p.Playing())
	}
	p.SetTime(150)
	p.SetBounds(160, 180)
	if p.Time() != 160 {
		t.Errorf("SetBounds left the time at %d", p.Time())
	}
	p.Toggle()
	if p.Playing() {
		t.Error("Toggle did not pause")
	}
}

func TestPlaybackStepTo(t *testing.T) {
	for _, tc := range []struct {
		name    string
		loop    bool
		next    int64
		ok      bool
		want    int64
		playing bool
	}{
		{"next message", false, 30, true, 30, true},
		{"none left stops at the end", false, 0, false, 100, false},
		{"none left loops", true, 0, false, 0, true},
		{"past the end loops", true, 150, true, 0, true},
		{"past the end stops", false, 150, true, 100, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPlayback(0, 100, 20)
			p.Speed, p.Loop = AsFastAsPossible, tc.loop
			p.Play()
			if got := p.StepTo(tc.next, tc.ok); got != tc.want || p.Playing() != tc.playing {
				t.Errorf("at %d playing %v, want %d playing %v", got, p.Playing(), tc.want, tc.playing)
			}
		})
	}
}

func TestSpeeds(t *testing.T) {
	for _, tc := range []struct {
		s, faster, slower float64
	}{
		{0.1, 0.25, 0.1},
		{1, 2, 0.5},
		{10, AsFastAsPossible, 5},
		{AsFastAsPossible, AsFastAsPossible, 10},
		{0.3, 0.5, 0.25},
	} {
		if got := Faster(tc.s); got != tc.faster {
			t.Errorf("Faster(%g) = %g, want %g", tc.s, got, tc.faster)
		}
		if got := Slower(tc.s); got != tc.slower {
			t.Errorf("Slower(%g) = %g, want %g", tc.s, got, tc.slower)
		}
	}
	if SpeedText(0.25) != "0.25×" || SpeedText(AsFastAsPossible) != "as fast as possible" {
		t.Errorf("SpeedText: %q %q", SpeedText(0.25), SpeedText(AsFastAsPossible))
	}
}

// syntheticIndex is a message index of topics with messages at the given
// times, each in a chunk of its own at its time.
func syntheticIndex(topics map[string][]int64) *MessageIndex {
	var tms []*TopicMessages
	conn := uint32(0)
	for name, times := range topics {
		var refs []msgref.Ref
		for _, t := range times {
			refs = append(refs, msgref.Ref{T: t, Loc: msgref.Loc{ChunkPos: t, Conn: conn}})
		}
		conn++
		tms = append(tms, NewTopicMessages(name, refs))
	}
	return NewMessageIndex(tms...)
}

func TestLatestAt(t *testing.T) {
	x := syntheticIndex(map[string][]int64{"/a": {10, 20, 30}, "/b": {15, 25}})
	for _, tc := range []struct {
		name   string
		topics []string
		t      int64
		want   int64
		wantOK bool
	}{
		{"exact", []string{"/a"}, 20, 20, true},
		{"between", []string{"/a"}, 29, 20, true},
		{"merged", []string{"/a", "/b"}, 27, 25, true},
		{"all topics", nil, 16, 15, true},
		{"before the first: the first", []string{"/b"}, 3, 15, true},
		{"after the last", []string{"/b"}, 99, 25, true},
		{"unknown topic", []string{"/c"}, 20, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := LatestAt(x, tc.topics, tc.t)
			if ok != tc.wantOK || got.T != tc.want {
				t.Errorf("LatestAt(%v, %d) = %d, %v; want %d, %v", tc.topics, tc.t, got.T, ok, tc.want, tc.wantOK)
			}
		})
	}
	for _, tc := range []struct {
		t, want int64
		ok      bool
	}{{0, 10, true}, {10, 15, true}, {25, 30, true}, {30, 0, false}} {
		if got, ok := NextTime(x, nil, tc.t); got != tc.want || ok != tc.ok {
			t.Errorf("NextTime(%d) = %d, %v; want %d, %v", tc.t, got, ok, tc.want, tc.ok)
		}
	}
}

// halfPace is a sim time that runs at half the receive time's speed from
// 2 s to 8 s, and cannot tell outside.
type halfPace struct{}

func (halfPace) Advance(t, d int64) (int64, bool) {
	const s = int64(time.Second)
	if t < 2*s || t+2*d > 8*s {
		return 0, false
	}
	return t + 2*d, true
}

// TestPlaybackPaced checks a paced clock: Speed is the pacer's seconds per
// wall second, and the receive time paces where the pacer cannot tell.
func TestPlaybackPaced(t *testing.T) {
	const s = int64(time.Second)
	for _, tc := range []struct {
		name  string
		speed float64
		from  int64
		step  time.Duration
		want  int64
	}{
		{"1x of a half-speed sim", 1, 3 * s, time.Second, 5 * s},
		{"2x", 2, 3 * s, 500 * time.Millisecond, 5 * s},
		{"before the sim time", 1, 0, time.Second, s},
		{"past the sim time", 1, 7 * s, time.Second, 8 * s},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := NewPlayback(0, 10*s, tc.from)
			p.Speed, p.Pace = tc.speed, halfPace{}
			p.Play()
			if got := p.Advance(tc.step); got != tc.want {
				t.Errorf("at %d, want %d", got, tc.want)
			}
		})
	}
}
