package timeline

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// TestTimelineLanesReachable makes a timeline too short for its lanes: each
// lane can be scrolled into view, by the wheel over the titles and by
// dragging the bar at the right, and no further than the last lane.
func TestTimelineLanesReachable(t *testing.T) {
	tv, _ := newTestTimeline(t, "../../../shared/bags/facontidavide__PlotJuggler/datasamples/tilt_laser.bag")
	n := len(tv.tl.Topics)
	if n < 8 {
		t.Fatalf("%d lanes", n)
	}
	tv.Resize(fyne.NewSize(900, tv.lanesTop()+3*(tlLaneH+tlGap)))
	last := func() float32 { return tv.laneY(n-1) + tv.laneH() }
	if last() <= tv.Size().Height {
		t.Fatal("the lanes fit: nothing to scroll")
	}
	for _, tc := range []struct {
		name   string
		scroll func()
	}{
		{"the wheel over the titles", func() {
			for range 20 {
				tv.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(10, 30)}, Scrolled: fyne.Delta{DY: -30}})
			}
		}},
		{"a drag of the scroll bar", func() {
			x := tv.labelW() + tv.plotW() + tlRight - 6
			tv.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(x, 40)}, Dragged: fyne.Delta{DY: 500}})
			tv.DragEnd()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tv.scrollLanes(-1e6)
			t0, t1 := tv.Window()
			tc.scroll()
			if got := last(); got > tv.Size().Height || got < tv.Size().Height-tv.laneH()-tv.gap() {
				t.Errorf("the last lane ends at %v in a view %v high", got, tv.Size().Height)
			}
			if a, b := tv.Window(); a != t0 || b != t1 {
				t.Error("scrolling the lanes zoomed or panned")
			}
		})
	}
}

// TestTimelineLanesDraw checks what the lanes draw on a real bag: at the
// whole bag, the tilting laser's 10 Hz /scan is drawn in every column
// that holds a scan and its scale is stated beside its title; zoomed to a
// second, each scan is a tick.
func TestTimelineLanesDraw(t *testing.T) {
	tv, _ := newTestTimeline(t, "../../../shared/bags/facontidavide__PlotJuggler/datasamples/tilt_laser.bag")
	x, err := model.BuildMessageIndex(context.Background(), uitest.OpenDoc(t, "../../../shared/bags/facontidavide__PlotJuggler/datasamples/tilt_laser.bag").Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	tv.SetIndex(x)
	scan := laneOf(t, tv, "/scan")
	d := tv.laneDrawing(scan)
	drawn := 0
	for _, h := range d.Heights {
		if h > 0 {
			drawn++
		}
	}
	if want := x.Topic("/scan").Len(); drawn < want*9/10 {
		t.Errorf("%d columns drawn for %d scans", drawn, want)
	}
	if !uitest.ContainsText(test.LaidOutObjects(tv), laneScaleLabel(d)) || laneScaleLabel(d) == "" {
		t.Errorf("the lane's scale %q is not shown", laneScaleLabel(d))
	}
	start := tv.tl.Start + 5e9
	tv.setWindow(start, start+1e9)
	if d := tv.laneDrawing(scan); !d.Ticks || !uitest.ContainsText(test.LaidOutObjects(tv), "1/tick") {
		t.Errorf("a second of /scan is not drawn as ticks (max %v a column)", d.PerColumnMax)
	}
}

// TestTimelineBurstGaps: the tilting laser's IMU topics come in bursts, so
// by the median interval every pause between bursts is a gap; the lane
// marks only the pauses longer than 3× the mean interval.
func TestTimelineBurstGaps(t *testing.T) {
	const path = "../../../shared/bags/facontidavide__PlotJuggler/datasamples/tilt_laser.bag"
	tv, _ := newTestTimeline(t, path)
	x, err := model.BuildMessageIndex(context.Background(), uitest.OpenDoc(t, path).Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	set, err := model.ComputeStats(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	tv.SetStats(set)
	imu := laneOf(t, tv, "/imu_data")
	st := tv.stats[imu]
	shortest := tv.minMarkedGap(imu)
	if want := 3 * st.Span() / int64(st.Messages-1); shortest != want {
		t.Fatalf("shortest marked gap %d, want 3× the mean interval %d", shortest, want)
	}
	short, long := 0, 0
	for _, g := range tv.gaps[imu] {
		if g.End-g.Start < shortest {
			short++
		} else {
			long++
		}
	}
	if short < 10*long || long == 0 {
		t.Errorf("%d pauses between bursts, %d long gaps: the test needs many of the first and some of the second", short, long)
	}
}

// TestFitLaneTitle shortens long topics in the middle, keeping both ends.
func TestFitLaneTitle(t *testing.T) {
	test.NewTempApp(t)
	long := "/robot1/sensors/front_lidar/velodyne_points_filtered"
	for _, tc := range []struct {
		s    string
		w    float32
		same bool
	}{
		{"/scan", 200, true},
		{long, 120, false},
		{long, 40, false},
	} {
		got := fitLaneTitle(tc.s, tc.w, 12)
		if w := fyne.MeasureText(got, 12, fyne.TextStyle{}).Width; w > tc.w && got != "…" {
			t.Errorf("%q in %v: %q is %v wide", tc.s, tc.w, got, w)
		}
		if (got == tc.s) != tc.same {
			t.Errorf("%q in %v: %q", tc.s, tc.w, got)
		}
		if !tc.same && (!strings.Contains(got, "…") || got[0] != '/' || !strings.HasSuffix(tc.s, got[strings.Index(got, "…")+len("…"):])) {
			t.Errorf("%q in %v: %q does not keep both ends", tc.s, tc.w, got)
		}
	}
}

// TestTimelineSteadyLaneDrawsOneHeight draws the sample bag's steady
// /imu lane at several zooms: every bar the renderer draws in it has the
// same height.
func TestTimelineSteadyLaneDrawsOneHeight(t *testing.T) {
	const path = "../../assets/sample.bag"
	tv, _ := newTestTimeline(t, path)
	x, err := model.BuildMessageIndex(context.Background(), uitest.OpenDoc(t, path).Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	tv.SetIndex(x)
	imu := laneOf(t, tv, "/imu")
	span := tv.tl.End - tv.tl.Start
	for _, frac := range []int64{1, 3, 10, 40} {
		tv.setWindow(tv.tl.Start+span/5, tv.tl.Start+span/5+span/frac)
		tv.r.build()
		y := tv.laneY(imu)
		heights := map[float32]int{}
		for _, r := range tv.r.lanes.Rects {
			if r.Y > y && r.Y+r.H <= y+tv.laneH() && r.X >= tv.labelW() && r.H != tv.laneH() {
				heights[r.H]++
			}
		}
		if len(heights) != 1 {
			t.Errorf("a 1/%d of the bag: /imu bars of %d heights %v (%s)", frac, len(heights), heights, tv.laneDrawing(imu).Scale(true))
		}
	}
}

// TestTimelineCompactLanes gives the lanes of a 9-topic bag the room a
// 1024x640 window leaves them (about 60 px below the toolbar): the lanes
// shrink so that several show whole, the last shown is not cut, a point
// in each lane is that lane's, the titles fit their lanes, and the rest
// scroll into view. With room for every lane at the usual height nothing
// changes.
func TestTimelineCompactLanes(t *testing.T) {
	tv, _ := newTestTimeline(t, "../../../shared/bags/facontidavide__PlotJuggler/datasamples/tilt_laser.bag")
	n := len(tv.tl.Topics)
	tv.Resize(fyne.NewSize(900, 62))
	shown := tv.LanesVisible()
	if shown < 3 {
		t.Fatalf("%d of %d lanes show whole in 62 px", shown, n)
	}
	if last := tv.laneY(shown-1) + tv.laneH(); tv.Size().Height-last >= tlCompactLaneH+tlCompactGap {
		t.Errorf("the last whole lane ends at %v in a view %v high: room for another", last, tv.Size().Height)
	}
	for i := range shown {
		if got := tv.lane(tv.laneY(i) + tv.laneH()/2); got != i {
			t.Errorf("the middle of lane %d is lane %d's", i, got)
		}
	}
	// A title, centred on its lane, stays within the lane and the gaps
	// either side.
	if h := fyne.MeasureText("/imu", tv.titleSize(), fyne.TextStyle{}).Height; h > tv.laneH()+2*tv.gap() {
		t.Errorf("titles %v px high on lanes %v px high with %v between", h, tv.laneH(), tv.gap())
	}
	for range 50 {
		tv.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(10, 30)}, Scrolled: fyne.Delta{DY: -30}})
	}
	if got := tv.laneY(n-1) + tv.laneH(); got > tv.Size().Height+0.5 || got < tv.Size().Height-tv.laneH()-tv.gap() {
		t.Errorf("scrolled to the end, the last lane ends at %v in a view %v high", got, tv.Size().Height)
	}

	tv.scrollLanes(-1e6)
	tv.Resize(fyne.NewSize(900, tv.fullChunkLaneH()+tlGap+float32(n)*(tlLaneH+tlGap)))
	if tv.compact() || tv.laneH() != tlLaneH || tv.LanesVisible() != n {
		t.Errorf("with room for every lane: compact %v, lanes %v px, %d of %d shown", tv.compact(), tv.laneH(), tv.LanesVisible(), n)
	}
}
