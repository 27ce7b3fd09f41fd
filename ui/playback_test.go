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
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/timeline"
)

// newTestViews shows the sample bag's linked views in a window, with
// background work run at once, and returns them, the timeline's lanes and
// the window.
func newTestViews(t *testing.T) (*docViews, *timeline.View, fyne.Window) {
	t.Helper()
	uitest.NewApp(t)
	d := uitest.OpenSample(t)
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	w := test.NewTempWindow(t, nil)
	dv := &docViews{link: l}
	w.SetContent(newViews(d, w, dv, bagWindowSize.Height, 130))
	w.Resize(fyne.NewSize(1000, 600))
	return dv, dv.timeline.View(), w
}

// manualPlayer makes the window's player tick by hand on a clock the test
// moves.
func manualPlayer(dv *docViews) (p *timeline.Player, advance func(time.Duration)) {
	p = dv.timeline.Player()
	now := time.Unix(1000, 0)
	frame := p.TickByHand(func() time.Time { return now })
	return p, func(d time.Duration) {
		now = now.Add(d)
		frame()
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
	tl := tv.Timeline()
	span := tl.End - tl.Start
	for _, tc := range []struct {
		name string
		// move moves the time and returns where it should be.
		move func(t *testing.T) int64
	}{
		{"a tap on the timeline's axis", func(t *testing.T) int64 {
			x := tv.PlotX(0.3)
			test.TapAt(tv.Axis().(fyne.Tappable), fyne.NewPos(x, 5))
			return tv.TimeAt(x)
		}},
		{"a tap on a lane: that topic", func(t *testing.T) int64 {
			x := tv.PlotX(0.6)
			test.TapAt(tv, tv.LanePos(laneOf(t, tv, "/imu"), x))
			if m, _ := l.Message(); l.TopicName(m) != "/imu" {
				t.Errorf("a tap on the /imu lane selected a %s message", l.TopicName(m))
			}
			return tv.TimeAt(x)
		}},
		{"a drag of the timeline's cursor", func(t *testing.T) int64 {
			c, _ := l.Cursor()
			from := tv.LanePos(0, tv.X(c)+1)
			test.Drag(w.Canvas(), uitest.Abs(tv, from.X, from.Y), 60, 0)
			if t0, _ := tv.Window(); t0 != tl.Start {
				t.Errorf("dragging the cursor panned the timeline to %d", t0)
			}
			at, _ := tv.Cursor()
			return at
		}},
		{"a click on a plot without a point", func(t *testing.T) int64 {
			at := tl.Start + span/5
			dv.plots.ClickAt(at)
			return at
		}},
		{"Alt+Shift+Right", func(t *testing.T) int64 {
			c, _ := l.Cursor()
			dv.timeline.Player().StepTime(timeline.TimeStep)
			return c + timeline.TimeStep
		}},
		{"a playback frame", func(t *testing.T) int64 {
			p, advance := manualPlayer(dv)
			p.SetSpeed(2)
			c, _ := l.Cursor()
			p.Play()
			advance(250 * time.Millisecond)
			p.Pause()
			return c + int64(500*time.Millisecond)
		}},
		{"a chunk's record in Records: its first message", func(t *testing.T) int64 {
			c := tl.Chunks[2]
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
			if at, ok := tv.Cursor(); at != c || !ok {
				t.Errorf("the timeline's cursor is at %d", at)
			}
			for _, pc := range dv.plots.Cursors() {
				if pc != c {
					t.Errorf("a plot's cursor is at %d", pc)
				}
			}
			if tv.ShownChunk() != m.ChunkPos {
				t.Errorf("the Chunk tab shows the chunk at %d, the message is in %d", tv.ShownChunk(), m.ChunkPos)
			}
			topic := l.TopicName(m)
			tm := x.Topic(topic)
			l.SelectTab("Message")
			if s := fmt.Sprintf("message %s of %s on %s", human.Count(uint64(tm.IndexOf(m)+1)), human.Count(uint64(tm.Len())), topic); !strings.Contains(uitest.ShownLines(w), s) {
				t.Errorf("the Message tab does not say %q", s)
			}
			l.SelectTab("Records")
			if s := fmt.Sprintf("chunk record at byte %s:", model.OffsetText(m.ChunkPos)); !strings.Contains(strings.ToLower(uitest.Shown(w)), s) {
				t.Errorf("the Records tab does not show %q", s)
			}
			tabs.SelectIndex(0)
		})
	}
}

// laneOf returns the index of topic's lane.
func laneOf(t *testing.T, tv *timeline.View, topic string) int {
	t.Helper()
	for i, lane := range tv.Timeline().Topics {
		if lane.Topic == topic {
			return i
		}
	}
	t.Fatalf("no lane %s", topic)
	return -1
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
	if s := fmt.Sprintf("chunk record at byte %s:", model.OffsetText(m.ChunkPos)); !strings.Contains(strings.ToLower(uitest.Shown(w)), s) {
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
