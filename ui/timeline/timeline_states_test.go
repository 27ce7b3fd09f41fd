package timeline

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// TestTimelineStateLanes sets two groups of state lanes: they are drawn
// below the topic lanes, each span in its tone's colour, their titles
// shown; hovering names the state under the mouse; setting a group again
// replaces its lanes and keeps the other group's.
func TestTimelineStateLanes(t *testing.T) {
	tv, status := newTestTimeline(t, "../../testdata/lz4-multichunk.bag")
	tv.Resize(fyne.NewSize(1000, 600))
	s, e := tv.tl.Start, tv.tl.End
	mid := s + (e-s)/2
	motor := model.StateLane{Name: "motor driver", Spans: []model.StateSpan{
		{Start: s, End: mid, Tone: model.ToneGood, Text: "OK: running"},
		{Start: mid, End: e, Tone: model.ToneBad, Text: "ERROR: overheat"},
	}}
	goal := model.StateLane{Name: "goal 1", Spans: []model.StateSpan{{Start: s, End: e, Tone: model.ToneActive, Text: "ACTIVE"}}}
	tv.SetStateLanes("Diagnostics", []model.StateLane{motor})
	tv.SetStateLanes("Actions", []model.StateLane{goal})
	if n := len(tv.StateLanes()); n != 2 {
		t.Fatalf("%d state lanes", n)
	}
	nt := len(tv.tl.Topics)
	tv.r.build()
	for j, want := range []struct {
		name  string
		tones []model.StateTone
	}{{"motor driver", []model.StateTone{model.ToneGood, model.ToneBad}}, {"goal 1", []model.StateTone{model.ToneActive}}} {
		y := tv.laneY(nt + j)
		if y < tv.laneY(nt-1)+tv.laneH() {
			t.Errorf("state lane %d at %v is not below the topic lanes", j, y)
		}
		if !uitest.ContainsText(test.LaidOutObjects(tv), want.name) {
			t.Errorf("no title %q", want.name)
		}
		for _, tone := range want.tones {
			c := ToneColor(tv, tone)
			found := false
			for _, r := range tv.r.lanes.Rects {
				if r.Y > y && r.Y < y+tlStateH && r.C == c && r.W > tv.plotW()/3 {
					found = true
				}
			}
			if !found {
				t.Errorf("lane %q: no span drawn in tone %d's colour", want.name, tone)
			}
		}
	}
	// Hover over the motor lane, in the error's half.
	p := fyne.NewPos(tv.x(mid+(e-mid)/2), tv.laneY(nt)+tlStateH/2)
	tv.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p}})
	if !strings.HasPrefix(*status, "motor driver: ERROR: overheat") {
		t.Errorf("hover says %q", *status)
	}
	tv.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(5, p.Y)}})
	if !strings.HasPrefix(*status, "motor driver: ") {
		t.Errorf("hover over the title says %q", *status)
	}
	// Setting a group again replaces its lanes only.
	tv.SetStateLanes("Diagnostics", nil)
	if l := tv.StateLanes(); len(l) != 1 || l[0].Name != "goal 1" {
		t.Errorf("after removing the diagnostics: %+v", l)
	}
}

// TestTimelineSplitMakesRoomForStates: state lanes set through the link
// after the window opened move the divider down to show them, when it is
// where the topics put it; a divider the user moved stays.
func TestTimelineSplitMakesRoomForStates(t *testing.T) {
	dv, tv, w := newTestViews(t)
	w.Resize(fyne.NewSize(1000, 800-130)) // the window the split was made for, less its header
	s := timelineSplit(t, w)
	before := s.Offset
	lanes := make([]model.StateLane, 4)
	for i := range lanes {
		lanes[i] = model.StateLane{Name: fmt.Sprint("status ", i), Spans: []model.StateSpan{{Start: tv.tl.Start, End: tv.tl.End, Tone: model.ToneGood}}}
	}
	dv.link.SetStateLanes("Diagnostics", lanes)
	if s.Offset <= before {
		t.Fatalf("the divider stayed at %v with 4 state lanes", s.Offset)
	}
	if last := tv.laneY(tv.nLanes()); last > tv.Size().Height {
		t.Errorf("the state lanes end at %v in a timeline %v high (%d topics, divider %v from %v)", last, tv.Size().Height, len(tv.tl.Topics), s.Offset, before)
	}
	s.SetOffset(0.2)
	dv.link.SetStateLanes("Actions", lanes[:2])
	if s.Offset != 0.2 {
		t.Errorf("the divider the user moved went to %v", s.Offset)
	}
}
