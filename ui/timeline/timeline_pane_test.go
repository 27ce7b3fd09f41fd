package timeline

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// testViews are the timeline pane of a test window and its link.
type testViews struct {
	link     *link.Hub
	timeline *Pane
}

// newTestViews shows the sample bag's timeline in a window, above tabs
// standing in for the other views, with its message index built, and
// returns the pane, its lanes and the window. The Chunk tab's stand-in
// does what the Chunk view does when a chunk is asked for: shows the tab
// and tells the link it shows the chunk.
func newTestViews(t *testing.T) (*testViews, *View, fyne.Window) {
	t.Helper()
	uitest.NewApp(t)
	return newTestViewsIn(t, uitest.OpenSample(t))
}

// newTestViewsIn is newTestViews on d, in the test app already running.
func newTestViewsIn(t *testing.T, d *model.Document) (*testViews, *View, fyne.Window) {
	t.Helper()
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	tp := New(d, l)
	var items []*container.TabItem
	for _, name := range []string{"Topics", "Message", "Plots", "Chunk", "Records"} {
		items = append(items, container.NewTabItem(name, widget.NewLabel(name)))
	}
	tabs := container.NewAppTabs(items...)
	l.SetTabs(func(name string) bool {
		for _, it := range tabs.Items {
			if it.Text == name {
				tabs.Select(it)
				return true
			}
		}
		return false
	})
	l.Actions().ShowChunk = func(pos int64) {
		l.SelectTab("Chunk")
		l.ChunkShown(pos)
	}
	w := test.NewTempWindow(t, NewSplit(tp, tabs, 800, 130))
	w.Resize(fyne.NewSize(1000, 600))
	l.WithIndex(func(*model.MessageIndex) {})
	return &testViews{link: l, timeline: tp}, tp.tv, w
}

// laneOf returns the index of topic's lane.
func laneOf(t *testing.T, tv *View, topic string) int {
	t.Helper()
	for i, lane := range tv.tl.Topics {
		if lane.Topic == topic {
			return i
		}
	}
	t.Fatalf("no lane %s", topic)
	return -1
}

// selectedTab returns the title of the selected tab.
func selectedTab(w fyne.Window) string {
	for _, o := range uitest.ShownObjects(w.Content()) {
		if tabs, ok := o.(*container.AppTabs); ok {
			return tabs.Selected().Text
		}
	}
	return ""
}

// TestTimelineTapSelectsLatest taps a topic lane and the axis: each
// moves the current time there and selects the latest message at or
// before it (of the lane, or of the selected topics).
func TestTimelineTapSelectsLatest(t *testing.T) {
	dv, tv, _ := newTestViews(t)
	l := dv.link
	if !tv.tl.Exact() {
		t.Fatal("the lanes are not exact once the index is built")
	}
	imu := -1
	for i, lane := range tv.tl.Topics {
		if lane.Topic == "/imu" {
			imu = i
		}
	}
	mid := tv.labelW() + tv.plotW()/2
	at := tv.timeAt(mid)
	test.TapAt(tv, fyne.NewPos(mid, tv.laneY(imu)+5))
	m, ok := l.Message()
	if !ok || l.TopicName(m) != "/imu" {
		t.Fatalf("tap on the /imu lane selected %+v (%v)", m, ok)
	}
	x := l.Index()
	tm := x.Topic("/imu")
	want := tm.At(tm.Search(at+1) - 1)
	if m != want {
		t.Errorf("selected %+v, the latest /imu message at or before the tap is %+v", m, want)
	}
	if c, _ := l.Cursor(); c != at || tv.cursor != at {
		t.Errorf("cursor %d (view %d), tapped at %d", c, tv.cursor, at)
	}

	// With topics selected (by a tap on a lane's title), a tap on the
	// axis picks among them.
	rosout := -1
	for i, lane := range tv.tl.Topics {
		if lane.Topic == "/rosout" {
			rosout = i
		}
	}
	test.TapAt(tv, fyne.NewPos(10, tv.laneY(rosout)+5))
	if ts := l.Topics(); len(ts) != 1 || ts[0] != "/rosout" {
		t.Fatalf("tap on the /rosout title selected %v", ts)
	}
	if tv.topicShown("/imu") || !tv.topicShown("/rosout") {
		t.Error("topic selection not followed")
	}
	test.TapAt(tv.axis, fyne.NewPos(mid, 5))
	if m, _ := l.Message(); l.TopicName(m) != "/rosout" {
		t.Errorf("tap with /rosout selected chose %s", l.TopicName(m))
	}
}

// TestTimelineTapChunk taps a chunk: the Chunk view is asked to show it
// (Actions.ShowChunk) and the timeline outlines the chunk the Chunk view
// says it shows, as its Prev and Next move along.
func TestTimelineTapChunk(t *testing.T) {
	dv, tv, w := newTestViews(t)
	c := tv.tl.Chunks[1]
	test.TapAt(tv, fyne.NewPos(tv.x((c.T0+c.T1)/2), 5))
	if got := selectedTab(w); got != "Chunk" {
		t.Fatalf("tab %q after tapping a chunk", got)
	}
	if tv.shown != c.Pos {
		t.Fatalf("the timeline outlines the chunk at %d, tapped the one at %d", tv.shown, c.Pos)
	}
	dv.link.ChunkShown(tv.tl.Chunks[2].Pos) // the Chunk view's Next
	if tv.shown != tv.tl.Chunks[2].Pos {
		t.Errorf("the timeline outlines the chunk at %d after Next", tv.shown)
	}
}

// TestTimelineKeysAndRange zooms and pans with keys, selects ranges by
// shift+drag and on the axis, zooms to the range and clears it.
func TestTimelineKeysAndRange(t *testing.T) {
	dv, tv, w := newTestViews(t)
	l := dv.link
	full := tv.tl.End - tv.tl.Start
	var width int64
	steps := []struct {
		name  string
		do    func()
		check func() string
	}{
		{"+ zooms in", func() { test.Type(tv, "+") }, func() string {
			return uitest.Want(tv.t1-tv.t0 == full/2, "window %d of %d", tv.t1-tv.t0, full)
		}},
		{"left pans earlier", func() { tv.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft}) }, func() string {
			return uitest.Want(tv.t0 < tv.tl.Start+full/4 && tv.t1-tv.t0 == full/2, "window %d..%d", tv.t0-tv.tl.Start, tv.t1-tv.tl.Start)
		}},
		{"- zooms out", func() { test.Type(tv, "-") }, func() string {
			return uitest.Want(tv.t1-tv.t0 == full, "window %d of %d", tv.t1-tv.t0, full)
		}},
		{"shift+drag selects a range", func() {
			tv.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(tv.labelW()+100, 40)}, Modifier: fyne.KeyModifierShift})
			test.Drag(w.Canvas(), uitest.Abs(tv, tv.labelW()+300, 40), 200, 0)
		}, func() string {
			t0, t1, ok := l.Range()
			return uitest.Want(ok && t0 == tv.timeAt(tv.labelW()+100) && t1 == tv.timeAt(tv.labelW()+300) && tv.t1-tv.t0 == full,
				"range %d..%d (%v), want %d..%d without panning", t0, t1, ok, tv.timeAt(tv.labelW()+100), tv.timeAt(tv.labelW()+300))
		}},
		{"z zooms to the range", func() { test.Type(tv, "z") }, func() string {
			t0, t1, _ := l.Range()
			return uitest.Want(tv.t0 == t0 && tv.t1 == t1, "window %d..%d, range %d..%d", tv.t0, tv.t1, t0, t1)
		}},
		{"Esc clears the range", func() { tv.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) }, func() string {
			_, _, ok := l.Range()
			return uitest.Want(!ok && !tv.hasRange, "range still set")
		}},
		{"Home goes to the start at the same zoom", func() {
			width = tv.t1 - tv.t0
			tv.TypedKey(&fyne.KeyEvent{Name: fyne.KeyHome})
		}, func() string {
			return uitest.Want(tv.t0 == tv.tl.Start && tv.t1-tv.t0 == width && width < tv.tl.End-tv.tl.Start, "window %d..%d", tv.t0, tv.t1)
		}},
		{"0 fits", func() { tv.TypedRune('0') }, func() string {
			return uitest.Want(tv.t0 == tv.tl.Start && tv.t1 == tv.tl.End, "window %d..%d", tv.t0, tv.t1)
		}},
		{"a plain drag pans", func() {
			tv.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(tv.labelW()+200, 5)}, Scrolled: fyne.Delta{DY: 40}})
			before := tv.t0
			test.Drag(w.Canvas(), uitest.Abs(tv, tv.labelW()+300, 40), 50, 0)
			if tv.t0 >= before {
				tv.t0 = tv.tl.End // fail below
			}
		}, func() string {
			_, _, ok := l.Range()
			return uitest.Want(!ok && tv.t0 < tv.tl.End, "range %v, or did not pan", ok)
		}},
		{"dragging the axis selects a range", func() {
			test.Drag(w.Canvas(), uitest.Abs(tv.axis, tv.labelW()+400, 5), 100, 0)
		}, func() string {
			t0, t1, ok := l.Range()
			return uitest.Want(ok && t0 == tv.timeAt(tv.labelW()+300) && t1 == tv.timeAt(tv.labelW()+400), "range %d..%d (%v)", t0, t1, ok)
		}},
		{"the cursor scrolls the window", func() { l.SetCursor(tv.tl.End - 1) }, func() string {
			return uitest.Want(tv.t1 == tv.tl.End && tv.hasCur, "window ends %d before the bag", tv.tl.End-tv.t1)
		}},
	}
	for _, s := range steps {
		s.do()
		if msg := s.check(); msg != "" {
			t.Fatalf("%s: %s", s.name, msg)
		}
	}
	if !tv.focused {
		t.Error("typing did not focus the timeline")
	}
}

// TestTimelineLanesScroll scrolls the topic lanes over the lane titles;
// the chunk lane stays.
func TestTimelineLanesScroll(t *testing.T) {
	_, tv, w := newTestViews(t)
	// The sample's 6 lanes share the pane's height; a short pane (a
	// 1024x640 window's) leaves room for fewer.
	tv.Resize(fyne.NewSize(tv.Size().Width, 60))
	if tv.contentH() <= tv.Size().Height {
		t.Fatalf("the lanes fit (%v in %v): the test needs a pane too small for them", tv.contentH(), tv.Size().Height)
	}
	tv.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(10, 40)}, Scrolled: fyne.Delta{DY: -500}})
	if tv.yOff != tv.contentH()-tv.Size().Height {
		t.Fatalf("scrolled to %v, want the end %v", tv.yOff, tv.contentH()-tv.Size().Height)
	}
	if tv.lane(5) != -1 {
		t.Error("the chunk lane scrolled away")
	}
	last := len(tv.tl.Topics) - 1
	if got := tv.lane(tv.laneY(last) + 5); got != last {
		t.Errorf("lane under the last lane's place is %d", got)
	}
	_ = w
}

// TestTimelineAxisAndHover switches the axis to wall-clock time and hovers
// a lane: the status and the tooltip say what is there, exactly.
func TestTimelineAxisAndHover(t *testing.T) {
	_, tv, w := newTestViews(t)
	test.Tap(findTipButton(t, w, "Rel"))
	if !tv.abs || !strings.Contains(uitest.Shown(w), ">06:13:30<") {
		t.Fatalf("Abs axis: %v, no wall-clock tick label", tv.abs)
	}
	findTipButton(t, w, "Abs")
	tv.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(tv.labelW()+tv.plotW()/2, tv.laneY(1)+5)}})
	tip := tv.r.tipText
	if !tip.Visible() || !strings.HasPrefix(tip.Text, "/imu: ") || !strings.Contains(tip.Text, " in 06:13:") || !strings.Contains(tip.Text, "full height: ") {
		t.Fatalf("tooltip %q (visible %v)", tip.Text, tip.Visible())
	}
	if !strings.Contains(uitest.Shown(w), ">/imu: ") {
		t.Error("the status line does not say what is under the mouse")
	}
	tv.MouseOut()
	if tv.r.tipText.Visible() {
		t.Error("tooltip stays after the mouse left")
	}
}

// findTipButton returns the toolbar button labelled text.
func findTipButton(t *testing.T, w fyne.Window, text string) *widgets.TipButton {
	t.Helper()
	for _, o := range uitest.ShownObjects(w.Content()) {
		if b, ok := o.(*widgets.TipButton); ok && b.Text == text {
			return b
		}
	}
	t.Fatalf("no toolbar button %q", text)
	return nil
}
