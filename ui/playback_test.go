package ui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// manualPlayer makes the window's player tick by hand on a clock the test
// moves.
func manualPlayer(dv *docViews) (p *player, advance func(time.Duration)) {
	p = dv.timeline.player
	now := time.Unix(1000, 0)
	p.now = func() time.Time { return now }
	p.startTicker = func() {}
	return p, func(d time.Duration) {
		now = now.Add(d)
		p.frame()
	}
}

// TestEveryViewFollowsTheTime moves the current time in each way a user
// can and checks that every view follows it: the selected message is the
// latest at or before it on the followed topics, the Message tab shows
// that message, the Chunk tab its chunk, Records its chunk's record, and
// the timeline and the plots draw the cursor at the time.
func TestEveryViewFollowsTheTime(t *testing.T) {
	dv, tv, w := newTestViews(t)
	l := dv.link
	tabs := appTabs(t, w)
	l.SelectTab("Records") // the record list is read when first shown
	l.SelectTab("Plots")
	x := l.Index()
	imu := x.Topic("/imu")
	span := tv.tl.End - tv.tl.Start
	for _, tc := range []struct {
		name string
		// move moves the time and returns where it should be.
		move func(t *testing.T) int64
	}{
		{"a tap on the timeline's axis", func(t *testing.T) int64 {
			x := tv.labelW() + tv.plotW()*0.3
			test.TapAt(tv.axis, fyne.NewPos(x, 5))
			return tv.timeAt(x)
		}},
		{"a tap on a lane: that topic", func(t *testing.T) int64 {
			x := tv.labelW() + tv.plotW()*0.6
			test.TapAt(tv, fyne.NewPos(x, tv.laneY(laneOf(t, tv, "/imu"))+5))
			if m, _ := l.Message(); l.TopicName(m) != "/imu" {
				t.Errorf("a tap on the /imu lane selected a %s message", l.TopicName(m))
			}
			return tv.timeAt(x)
		}},
		{"a drag of the timeline's cursor", func(t *testing.T) int64 {
			c, _ := l.Cursor()
			from := tv.x(c)
			test.Drag(w.Canvas(), uitest.Abs(tv, from+1, tv.laneY(0)+5), 60, 0)
			if tv.t0 != tv.tl.Start {
				t.Errorf("dragging the cursor panned the timeline to %d", tv.t0)
			}
			return tv.cursor
		}},
		{"a click on a plot without a point", func(t *testing.T) int64 {
			at := tv.tl.Start + span/5
			dv.plots.ClickAt(at)
			return at
		}},
		{"Alt+Shift+Right", func(t *testing.T) int64 {
			c, _ := l.Cursor()
			dv.timeline.player.stepTime(timeStep)
			return c + timeStep
		}},
		{"a playback frame", func(t *testing.T) int64 {
			p, advance := manualPlayer(dv)
			p.setSpeed(2)
			c, _ := l.Cursor()
			p.Play()
			advance(250 * time.Millisecond)
			p.Pause()
			return c + int64(500*time.Millisecond)
		}},
		{"a chunk's record in Records: its first message", func(t *testing.T) int64 {
			c := tv.tl.Chunks[2]
			l.Actions().ShowRecord(c.Pos)
			if m, _ := l.Message(); m.ChunkPos != c.Pos || m.T != c.T0 {
				t.Errorf("selecting the chunk's record selected a message at %d in the chunk at %d", m.T, m.ChunkPos)
			}
			return c.T0
		}},
		{"Alt+Right steps to the next message", func(t *testing.T) int64 {
			l.SelectMessage(imu.At(10))
			l.StepMessage(+1)
			return imu.At(11).T
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := tc.move(t)
			c, ok := l.Cursor()
			if !ok || c != want {
				t.Fatalf("time %d, want %d", c, want)
			}
			m, _ := l.Message()
			if latest, _ := model.LatestAt(x, l.FollowTopics(), c); m != latest {
				t.Errorf("message at %d, want the latest at or before the time, at %d", m.T, latest.T)
			}
			if tv.cursor != c || !tv.hasCur {
				t.Errorf("the timeline's cursor is at %d", tv.cursor)
			}
			for _, pc := range dv.plots.Cursors() {
				if pc != c {
					t.Errorf("a plot's cursor is at %d", pc)
				}
			}
			if tv.shown != m.ChunkPos {
				t.Errorf("the Chunk tab shows the chunk at %d, the message is in %d", tv.shown, m.ChunkPos)
			}
			topic := l.TopicName(m)
			tm := x.Topic(topic)
			l.SelectTab("Message")
			if s := fmt.Sprintf("message %s of %s on %s", human.Count(uint64(tm.IndexOf(m)+1)), human.Count(uint64(tm.Len())), topic); !strings.Contains(uitest.ShownLines(w), s) {
				t.Errorf("the Message tab does not say %q", s)
			}
			l.SelectTab("Records")
			if s := fmt.Sprintf("chunk record at %d:", m.ChunkPos); !strings.Contains(strings.ToLower(uitest.Shown(w)), s) {
				t.Errorf("the Records tab does not show %q", s)
			}
			tabs.SelectIndex(0)
		})
	}
}

// laneOf returns the index of topic's lane.
func laneOf(t *testing.T, tv *TimelineView, topic string) int {
	t.Helper()
	for i, lane := range tv.tl.Topics {
		if lane.Topic == topic {
			return i
		}
	}
	t.Fatalf("no lane %s", topic)
	return -1
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
	p.setSpeed(10)
	advance(100 * time.Millisecond)
	if c, _ := l.Cursor(); c != start+int64(1100*time.Millisecond) {
		t.Errorf("after 100 ms more at 10×: %d ns in", c-start)
	}

	// A range, looped.
	r0, r1 := start+(end-start)/4, start+(end-start)/2
	l.SetRange(r0, r1, true)
	p.setLoop(true)
	l.SetCursor(r1 - int64(100*time.Millisecond))
	advance(20 * time.Millisecond) // 200 ms at 10×: past the end
	if c, _ := l.Cursor(); c < r0 || c > r0+int64(110*time.Millisecond) || !p.clock.Playing() {
		t.Errorf("looping: at %d ns into the range (playing %v)", c-r0, p.clock.Playing())
	}

	// As fast as possible: every message of the followed topic in turn.
	l.SetRange(0, 0, false)
	p.setLoop(false)
	imu := l.Index().Topic("/imu")
	l.SelectMessage(imu.At(0))
	p.setSpeed(model.AsFastAsPossible)
	for i := 1; i < 5; i++ {
		advance(time.Hour) // wall time does not matter
		if m, _ := l.Message(); m != imu.At(i) {
			t.Fatalf("frame %d as fast as possible shows the message at %d, want /imu message %d at %d", i, m.T, i, imu.At(i).T)
		}
	}

	// Without looping it stops at the end.
	p.setSpeed(10)
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

// TestRecordsShowTheMessageWhenFirstShown selects a message before the
// Records tab has read its list: once read, the list shows the message's
// chunk.
func TestRecordsShowTheMessageWhenFirstShown(t *testing.T) {
	dv, _, w := newTestViews(t)
	l := dv.link
	m := l.Index().Topic("/imu").At(100)
	l.SelectMessage(m)
	l.SelectTab("Records")
	if s := fmt.Sprintf("chunk record at %d:", m.ChunkPos); !strings.Contains(strings.ToLower(uitest.Shown(w)), s) {
		t.Errorf("the Records tab does not show %q", s)
	}
	if got, _ := l.Message(); got != m {
		t.Errorf("showing Records changed the message to %+v", got)
	}
}

// TestMessageShownOnlyWhenShown registers a view that reads the selected
// message only while shown: while hidden it is told nothing, shown again
// it is told the newest message once, and a step catches it up first.
func TestMessageShownOnlyWhenShown(t *testing.T) {
	dv, _, w := newTestViews(t)
	l := dv.link
	x := l.Index()
	imu := x.Topic("/imu")
	view := widget.NewLabel("")
	var got []msgref.Ref
	l.OnMessageShown(view, func(m msgref.Ref) { got = append(got, m) })
	view.Hide()
	for i := range 3 {
		l.SelectMessage(imu.At(i))
	}
	if len(got) != 0 {
		t.Fatalf("a hidden view was told of %d messages", len(got))
	}
	view.Show()
	appTabs(t, w).SelectIndex(1) // a tab shown: the views catch up
	if len(got) != 1 || got[0] != imu.At(2) {
		t.Fatalf("shown again, the view was told %v, want only the newest", got)
	}
	l.SelectMessage(imu.At(5))
	if len(got) != 2 || got[1] != imu.At(5) {
		t.Errorf("a shown view was told %v", got)
	}
	view.Hide()
	l.SelectMessage(imu.At(7))
	l.StepMessage(+1)
	if len(got) < 3 || got[2] != imu.At(7) {
		t.Errorf("a step did not catch the hidden view up first: %v", got)
	}
}
