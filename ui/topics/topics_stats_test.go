package topics

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// frequencyCells returns each topic row's Frequency (Hz) text.
func frequencyCells(p *Panel) map[string]string {
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
	p := New(d, l, false)
	w := test.NewTempWindow(t, p.Content)
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
	p := New(d, l, false)
	test.NewTempWindow(t, p.Content).Resize(fyne.NewSize(1100, 360))
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
		if want := stats.OfTimes(times).RateText(); f != want || f == "…" {
			t.Errorf("%s: Frequency %q, want %q", topic, f, want)
		}
	}
}
