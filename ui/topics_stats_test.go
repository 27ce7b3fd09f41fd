package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// frequencyCells returns each topic row's Frequency (Hz) text.
func frequencyCells(p *topicPanel) map[string]string {
	out := map[string]string{}
	for _, line := range p.view.Lines() {
		if line.Conn == nil {
			out[line.Topic.Topic] = line.Topic.Cell(model.ColFrequency)
		}
	}
	return out
}

// TestTopicsFrequencyColumn shows a real bag's Topics tab: the Frequency
// column shows the rate `rosbag info --freq` prints (50.0 and 43.5 Hz for
// test2.bag, not the count over the bag's duration), hovering a row tells
// its interval statistics, and sorting by the column orders by rate.
func TestTopicsFrequencyColumn(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenShared(t, "cra-ros-pkg__robot_localization/test/test2.bag")
	l := link.NewHub(d, func(f func()) { f() })
	t.Cleanup(l.Close)
	p := newTopicPanel(d, l, false)
	w := test.NewTempWindow(t, p.content)
	w.Resize(fyne.NewSize(1100, 360))

	want := map[string]string{"/imu/data": "50.0", "/jackal_velocity_controller/odom": "43.5"}
	got := frequencyCells(p)
	for topic, f := range want {
		if got[topic] != f {
			t.Errorf("%s: Frequency %q, want %q (rosbag info --freq)", topic, got[topic], f)
		}
	}
	markup := uitest.Shown(w)
	for _, f := range want {
		if !strings.Contains(markup, ">"+f+"</text>") {
			t.Errorf("%s not shown in the table", f)
		}
	}

	// Hover the second row (under the header row, rows as tall as it).
	rowH := uitest.FindButton(t, w.Content(), "Topic").Size().Height
	p.table.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(300, rowH*2.5)}})
	detail := p.detail.String()
	for _, s := range []string{"/jackal_velocity_controller/odom (nav_msgs/Odometry): 43.5 Hz", "interval min 0 s, median 23 ms, max 36 ms", "jitter (std dev) 9.02 ms", "no gap", "active 61.185 s"} {
		if !strings.Contains(detail, s) {
			t.Errorf("detail line %q lacks %q", detail, s)
		}
	}

	test.Tap(uitest.FindButton(t, w.Content(), "Frequency"))
	if got := topicNames(p); got != "/imu/data /jackal_velocity_controller/odom" {
		t.Errorf("by frequency: %q", got)
	}
	test.Tap(uitest.FindButton(t, w.Content(), "Frequency"))
	if got := topicNames(p); got != "/jackal_velocity_controller/odom /imu/data" {
		t.Errorf("by frequency ascending: %q", got)
	}
}

// TestTopicsFrequencyMCAP checks the column on an MCAP recording: every
// topic's rate as the model computes it from the index.
func TestTopicsFrequencyMCAP(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenShared(t, "Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_sample.mcap")
	l := link.NewHub(d, func(f func()) { f() })
	t.Cleanup(l.Close)
	p := newTopicPanel(d, l, false)
	test.NewTempWindow(t, p.content).Resize(fyne.NewSize(1100, 360))
	x, err := model.BuildMessageIndex(context.Background(), d.Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := frequencyCells(p)
	if len(got) == 0 {
		t.Fatal("no topics")
	}
	for topic, f := range got {
		tm := x.Topic(topic)
		var times []int64
		if tm != nil {
			for _, r := range tm.All() {
				times = append(times, r.T)
			}
		}
		if want := model.StatsOfTimes(times).RateText(); f != want || f == "…" {
			t.Errorf("%s: Frequency %q, want %q", topic, f, want)
		}
	}
}

// TestTimelineGapMarks opens a bag whose /turtle1/cmd_vel pauses 14 times
// for longer than 3× its median interval: the lane keeps the gaps to mark,
// and hovering inside one says so.
func TestTimelineGapMarks(t *testing.T) {
	test.NewTempApp(t)
	old := link.Background
	link.Background = func(f func()) { f() }
	t.Cleanup(func() { link.Background = old })
	d := uitest.OpenShared(t, "cruise-automation__rosbag.js/fixtures/example.bag")
	l := link.NewHub(d, func(f func()) { f() })
	t.Cleanup(l.Close)
	w := test.NewTempWindow(t, nil)
	w.SetContent(newViews(d, w, &docViews{link: l}))
	w.Resize(fyne.NewSize(1000, 600))
	var tv *TimelineView
	for _, o := range uitest.ShownObjects(w.Content()) {
		if v, ok := o.(*TimelineView); ok {
			tv = v
		}
	}
	if tv == nil {
		t.Fatal("no timeline")
	}
	lane := -1
	for i, td := range tv.tl.Topics {
		if td.Topic == "/turtle1/cmd_vel" {
			lane = i
		}
	}
	if lane < 0 || lane >= len(tv.gaps) || len(tv.gaps[lane]) != 14 {
		t.Fatalf("lane %d of %d: gaps %v", lane, len(tv.gaps), tv.gaps)
	}
	// The widest gap, hovered in its middle.
	g := tv.gaps[lane][0]
	for _, o := range tv.gaps[lane] {
		if o.End-o.Start > g.End-g.Start {
			g = o
		}
	}
	x := tv.x(g.Start + (g.End-g.Start)/2)
	if tv.x(g.End)-tv.x(g.Start) < 2 {
		t.Fatalf("widest gap is %.1f px wide", tv.x(g.End)-tv.x(g.Start))
	}
	s := tv.describe(fyne.NewPos(x, tv.laneY(lane)+tv.laneH()/2))
	if !strings.Contains(s, "/turtle1/cmd_vel: no message for") || !strings.Contains(s, "a gap: more than 3× the median interval") {
		t.Errorf("hover in a gap: %q", s)
	}

	// Fitted, the marks under the lanes: each of cmd_vel's pauses (half a
	// second), none of /tf's 1343 gaps between bursts 16 ms apart, too
	// narrow to show a hole.
	tv.Fit()
	tv.Resize(fyne.NewSize(1000, 400))
	tv.r.build()
	marks := func(name string) int {
		i := -1
		for k, td := range tv.tl.Topics {
			if td.Topic == name {
				i = k
			}
		}
		n := 0
		for _, r := range tv.r.lanes.Rects {
			if r.H == 2 && r.Y == tv.laneY(i)+tv.laneH()-2 {
				n++
			}
		}
		return n
	}
	if n := marks("/turtle1/cmd_vel"); n < 10 || n > 14 {
		t.Errorf("/turtle1/cmd_vel: %d gap marks, want 10..14 (some may merge)", n)
	}
	if n := marks("/tf"); n != 0 {
		t.Errorf("/tf: %d gap marks, want none at this zoom", n)
	}
}
