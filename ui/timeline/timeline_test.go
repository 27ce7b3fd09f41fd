package timeline

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

func newTestTimeline(t *testing.T, path string) (*View, *string) {
	t.Helper()
	test.NewTempApp(t)
	d := uitest.OpenDoc(t, path)
	tv := NewView(model.BuildTimeline(d))
	var status string
	tv.OnStatus = func(s string) { status = s }
	w := test.NewTempWindow(t, tv)
	w.Resize(fyne.NewSize(1000, 300))
	return tv, &status
}

// TestTimelineInteraction zooms, pans, places the cursor, fits, and reads
// what the mouse is over.
func TestTimelineInteraction(t *testing.T) {
	tv, status := newTestTimeline(t, "../../testdata/lz4-multichunk.bag")
	full := tv.t1 - tv.t0
	mid := fyne.NewPos(tv.labelW()+tv.plotW()/2, tlLaneH/2)

	tv.Scrolled(&fyne.ScrollEvent{PointEvent: fyne.PointEvent{Position: mid}, Scrolled: fyne.Delta{DY: 40}}) // zoom in about the middle
	if w := tv.t1 - tv.t0; w >= full || tv.t0 <= tv.tl.Start {
		t.Fatalf("zoom in: window %d of %d starting at %d", w, full, tv.t0-tv.tl.Start)
	}
	before := tv.t0
	tv.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: mid}, Dragged: fyne.Delta{DX: 100}}) // pan towards the start
	if tv.t0 >= before {
		t.Fatalf("drag right did not move the window earlier: %d -> %d", before, tv.t0)
	}
	tv.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: mid}, Dragged: fyne.Delta{DX: -100000}}) // far past the end: clamped
	if tv.t1 != tv.tl.End {
		t.Fatalf("pan is not clamped to the bag's end")
	}
	tv.Tapped(&fyne.PointEvent{Position: mid})
	if !tv.hasCur || !strings.HasPrefix(*status, "Cursor at +") {
		t.Fatalf("tap: cursor %v, status %q", tv.hasCur, *status)
	}
	tv.DoubleTapped(&fyne.PointEvent{Position: mid})
	if tv.t0 != tv.tl.Start || tv.t1 != tv.tl.End {
		t.Fatal("double tap did not fit the bag")
	}
	first := tv.tl.Chunks[0]
	tv.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(tv.x(first.T0)+0.5, tlLaneH/2)}})
	if !strings.Contains(*status, "chunk at 4117: ") || !strings.Contains(*status, "lz4 to") {
		t.Fatalf("hover over the first chunk: %q", *status)
	}
	tv.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(tv.labelW()+tv.plotW()/2, tv.laneY(laneOf(t, tv, "/imu"))+5)}})
	if !strings.HasPrefix(*status, "/imu at +") || !strings.Contains(*status, "estimated from the chunk index") || !strings.Contains(*status, "≈ max ") {
		t.Fatalf("hover over the /imu lane: %q", *status)
	}
}

// TestTimelineShowsDamage hovers the salvaged chunk of a cut bag.
func TestTimelineShowsDamage(t *testing.T) {
	tv, status := newTestTimeline(t, "../../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag")
	tv.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(tv.labelW()+20, tlLaneH/2)}})
	if !strings.Contains(*status, "DAMAGED") {
		t.Fatalf("hover over the cut chunk: %q", *status)
	}
}
