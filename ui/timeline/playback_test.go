package timeline

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
)

// manualPlayer makes the pane's player tick by hand on a clock the test
// moves.
func manualPlayer(dv *testViews) (p *Player, advance func(time.Duration)) {
	p = dv.timeline.player
	now := time.Unix(1000, 0)
	frame := p.TickByHand(func() time.Time { return now })
	return p, func(d time.Duration) {
		now = now.Add(d)
		frame()
	}
}

// TestPlaybackPlays plays the sample bag: the time moves at the speed,
// loops over the selected range, skips no message as fast as possible,
// and stops at the end without looping.
func TestPlaybackPlays(t *testing.T) {
	dv, tv, _ := newTestViews(t)
	l := dv.link
	p, advance := manualPlayer(dv)
	start, end := tv.tl.Start, tv.tl.End

	p.Play()
	if c, _ := l.Cursor(); c != start || !p.clock.Playing() {
		t.Fatalf("Play from nowhere starts at %d (playing %v), want the start %d", c, p.clock.Playing(), start)
	}
	advance(100 * time.Millisecond)
	if c, _ := l.Cursor(); c != start+int64(100*time.Millisecond) {
		t.Errorf("after 100 ms at 1×: %d ns in", c-start)
	}
	p.SetSpeed(10)
	advance(100 * time.Millisecond)
	if c, _ := l.Cursor(); c != start+int64(1100*time.Millisecond) {
		t.Errorf("after 100 ms more at 10×: %d ns in", c-start)
	}

	// A range, looped.
	r0, r1 := start+(end-start)/4, start+(end-start)/2
	l.SetRange(r0, r1, true)
	p.SetLoop(true)
	l.SetCursor(r1 - int64(100*time.Millisecond))
	advance(20 * time.Millisecond) // 200 ms at 10×: past the end
	if c, _ := l.Cursor(); c < r0 || c > r0+int64(110*time.Millisecond) || !p.clock.Playing() {
		t.Errorf("looping: at %d ns into the range (playing %v)", c-r0, p.clock.Playing())
	}

	// As fast as possible: every message of the followed topic in turn.
	l.SetRange(0, 0, false)
	p.SetLoop(false)
	imu := l.Index().Topic("/imu")
	l.SelectMessage(imu.At(0))
	p.SetSpeed(model.AsFastAsPossible)
	for i := 1; i < 5; i++ {
		advance(time.Hour) // wall time does not matter
		if m, _ := l.Message(); m != imu.At(i) {
			t.Fatalf("frame %d as fast as possible shows the message at %d, want /imu message %d at %d", i, m.T, i, imu.At(i).T)
		}
	}

	// Without looping it stops at the end.
	p.SetSpeed(10)
	l.SetCursor(end - int64(time.Millisecond))
	advance(time.Second)
	if c, _ := l.Cursor(); c != end || p.clock.Playing() {
		t.Errorf("at the end: %d, playing %v", end-c, p.clock.Playing())
	}
}

// TestPlaybackTransport plays and pauses with the transport's button and
// the timeline's Space, and shows the speed and the time.
func TestPlaybackTransport(t *testing.T) {
	dv, tv, w := newTestViews(t)
	l := dv.link
	p, _ := manualPlayer(dv)
	tr := dv.timeline.transport
	test.Tap(tr.play)
	if !p.clock.Playing() || tr.play.Icon.Name() != "media-pause.svg" && !strings.Contains(tr.play.Icon.Name(), "pause") {
		t.Errorf("the play button: playing %v, icon %s", p.clock.Playing(), tr.play.Icon.Name())
	}
	w.Canvas().Focus(tv)
	tv.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if p.clock.Playing() {
		t.Error("Space on the timeline did not pause")
	}
	tr.speed.SetSelected("0.25×")
	if p.clock.Speed != 0.25 {
		t.Errorf("the speed menu set %g", p.clock.Speed)
	}
	l.SetCursor(tv.tl.Start + 4989123456)
	if got := tr.time.Text; got != "+4.989 s" {
		t.Errorf("the transport shows %q", got)
	}
}
