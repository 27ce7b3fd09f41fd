package timeline

import (
	"image/color"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// TestTimelineGapMarks opens a bag whose /turtle1/cmd_vel pauses 14 times
// for longer than 3× its median interval: the lane keeps the gaps to mark,
// and hovering inside one says so; the marks are in the gap colour, not
// the damage red.
func TestTimelineGapMarks(t *testing.T) {
	uitest.NewApp(t)
	_, tv, _ := newTestViewsIn(t, uitest.OpenShared(t, "cruise-automation__rosbag.js/fixtures/example.bag"))
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
				// A gap is no damage: never the loss's red, nor the
				// note's amber.
				if col := colorsOf(tv); sameRGB(r.C, col.err) || sameRGB(r.C, col.note) || !sameRGB(r.C, col.gap) {
					t.Errorf("%s: a gap mark in %v; the gap colour is %v, the loss's %v", name, r.C, col.gap, col.err)
				}
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

// TestTimelineSuspectTicks: a suspect message (link.Suspect mark) is a
// tick the lane's height in the loss's colour on its topic's lane, at its
// time; other lanes get none.
func TestTimelineSuspectTicks(t *testing.T) {
	tv, _ := newTestTimeline(t, "../../../shared/bags/cruise-automation__rosbag.js/fixtures/example.bag")
	tv.Fit()
	tv.Resize(fyne.NewSize(1000, 400))
	span := tv.t1 - tv.t0
	times := []int64{tv.t0 + span/4, tv.t0 + span/2, tv.t0 + 3*span/4}
	tv.addMarks(link.SuspectMarks(map[string][]int64{"/turtle1/cmd_vel": {times[2], times[0], times[1]}}))
	tv.r.build()
	ticks := func(name string) []float32 {
		i := laneOf(t, tv, name)
		var xs []float32
		for _, r := range tv.r.lanes.Rects {
			if r.Y == tv.laneY(i)+1 && r.H == tv.laneH()-2 && r.W == 2 && r.C == colorsOf(tv).err {
				xs = append(xs, r.X)
			}
		}
		return xs
	}
	got := ticks("/turtle1/cmd_vel")
	if len(got) != len(times) {
		t.Fatalf("/turtle1/cmd_vel: %d suspect ticks at %v, want %d", len(got), got, len(times))
	}
	for k, ts := range times {
		if got[k] != tv.x(ts) {
			t.Errorf("tick %d at x %.1f, want %.1f", k, got[k], tv.x(ts))
		}
	}
	if n := len(ticks("/tf")); n != 0 {
		t.Errorf("/tf: %d suspect ticks", n)
	}
	// Marked again (a message shown, then the read of every message): one
	// tick each still.
	tv.addMarks(link.SuspectMarks(map[string][]int64{"/turtle1/cmd_vel": {times[1], times[0]}}))
	if n := len(tv.suspects["/turtle1/cmd_vel"]); n != len(times) {
		t.Errorf("marked again: %d suspect times kept, want %d", n, len(times))
	}
}

// sameRGB reports whether two colours differ at most in their alpha (a
// mark of a topic not shown is fainter).
func sameRGB(a, b color.Color) bool {
	x, y := color.NRGBAModel.Convert(a).(color.NRGBA), color.NRGBAModel.Convert(b).(color.NRGBA)
	return x.R == y.R && x.G == y.G && x.B == y.B
}
