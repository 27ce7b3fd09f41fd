package servicesview

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/services"
	"github.com/bagscope/bagscope/model/services/servicestest"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

func openView(t *testing.T) (*View, *link.Hub, *model.Document) {
	t.Helper()
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "actions.mcap")
	if err := servicestest.WriteMCAP(path); err != nil {
		t.Fatal(err)
	}
	d := uitest.OpenDoc(t, path)
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	v := New(l)
	w := test.NewTempWindow(t, v.Content())
	w.Resize(fyne.NewSize(1280, 800))
	if v.Report() == nil {
		t.Fatalf("no report: %s", v.Title())
	}
	return v, l, d
}

// TestServicesTab: the tab lists every call, filters them by service and
// status, selects a call (moving the current time to its first event
// and showing its request and response decoded) and a goal, follows the
// current time, and puts the goals' lifetimes on the timeline.
func TestServicesTab(t *testing.T) {
	v, l, d := openView(t)
	rep := v.Report()
	if len(v.Rows()) != len(rep.Calls) || len(rep.Calls) == 0 {
		t.Fatalf("%d rows of %d calls", len(v.Rows()), len(rep.Calls))
	}
	if !strings.Contains(v.Title(), "missing a response") {
		t.Errorf("title %q", v.Title())
	}

	// Filters: the missing responses of /compute.
	v.SetFilter("/compute", "no response")
	if n := len(v.Rows()); n != rep.Service("/compute").Missing || n == 0 {
		t.Errorf("%d rows of /compute with no response, the service counts %d", n, rep.Service("/compute").Missing)
	}
	for _, r := range v.Rows() {
		c := &rep.Calls[r]
		if rep.Services[c.Service].Name != "/compute" || !c.Missing() {
			t.Errorf("row of %s, status %s", rep.Services[c.Service].Name, c.Status())
		}
	}

	// Selecting the call moves the time to its first event and shows its
	// request decoded; its response was not recorded.
	v.SelectCall(0)
	c := &rep.Calls[v.Rows()[0]]
	if at, ok := l.Cursor(); !ok || at != c.Time() {
		t.Errorf("the time is %d, the call starts at %d", at, c.Time())
	}
	if m, ok := l.Message(); !ok || m != c.First().Ref {
		t.Errorf("selected message %+v, the call's first event %+v", m, c.First().Ref)
	}
	det := v.Detail()
	for _, want := range []string{"/compute", "no response", "REQUEST_SENT", "a: 5", "b: 5", "Response:\n  (not recorded)"} {
		if !strings.Contains(det, want) {
			t.Errorf("detail does not say %q:\n%s", want, det)
		}
	}

	// The time moving highlights the last call at or before it.
	v.SetFilter("", "")
	for _, c := range rep.Calls {
		at := c.Time() + 1
		l.SetCursor(at)
		row := v.CurrentRow()
		if row < 0 || rep.Calls[v.Rows()[row]].Time() > at || row+1 < len(v.Rows()) && rep.Calls[v.Rows()[row+1]].Time() <= at {
			t.Errorf("at %d: row %d highlighted", at, row)
		}
	}
	l.SetCursor(d.Summary.Start.Nanos() - 1)
	if v.CurrentRow() != -1 {
		t.Errorf("before the first call: row %d highlighted", v.CurrentRow())
	}

	// An answered call shows both sides.
	for i, r := range v.Rows() {
		if c := &rep.Calls[r]; c.Has[services.RequestSent] && c.Has[services.ResponseReceived] && rep.Services[c.Service].Name == "/compute" {
			v.SelectCall(i)
			for _, want := range []string{"answered in 4 ms", "client+server", "a: 1", "sum: 3"} {
				if !strings.Contains(v.Detail(), want) {
					t.Errorf("detail does not say %q:\n%s", want, v.Detail())
				}
			}
			break
		}
	}

	// A goal: the time moves to its send_goal request.
	for i, g := range rep.Goals {
		if g.ID != servicestest.G3 {
			continue
		}
		v.SelectGoal(i)
		if at, _ := l.Cursor(); at != g.Sent {
			t.Errorf("goal selected: time %d, sent at %d", at, g.Sent)
		}
		for _, want := range []string{"canceled", "cancel asked", "feedback   2"} {
			if !strings.Contains(v.Detail(), want) {
				t.Errorf("goal detail does not say %q:\n%s", want, v.Detail())
			}
		}
	}

	// The goals' lifetimes on the timeline, one span each, coloured by
	// state; the open goal lasts to the end.
	var lanes []model.StateLane
	l.OnStateLanes(func(g string, ls []model.StateLane) {
		if g == LaneGroup {
			lanes = ls
		}
	})
	spans := 0
	for _, ln := range lanes {
		for _, s := range ln.Spans {
			spans++
			if strings.Contains(s.Text, "open") && (s.End != d.Summary.End.Nanos() || s.Tone != model.ToneActive) {
				t.Errorf("open goal span %+v", s)
			}
			if strings.Contains(s.Text, "succeeded") && s.Tone != model.ToneGood || strings.Contains(s.Text, "canceled") && s.Tone != model.ToneWarn {
				t.Errorf("span %+v", s)
			}
		}
	}
	if spans != len(rep.Goals) {
		t.Errorf("%d spans on the timeline, %d goals", spans, len(rep.Goals))
	}
}

// TestServicesTabOnlyWithServices: the tab shows only for recordings with
// service events or action topics.
func TestServicesTabOnlyWithServices(t *testing.T) {
	test.NewTempApp(t)
	l := link.NewHub(uitest.OpenDoc(t, uitest.Testdata(t, "ros2-mixed.mcap")), uitest.SyncRun)
	t.Cleanup(l.Close)
	if Tab(l) != nil {
		t.Error("a Services tab for a recording without service events")
	}
	path := filepath.Join(t.TempDir(), "actions.mcap")
	if err := servicestest.WriteMCAP(path); err != nil {
		t.Fatal(err)
	}
	l2 := link.NewHub(uitest.OpenDoc(t, path), uitest.SyncRun)
	t.Cleanup(l2.Close)
	if it := Tab(l2); it == nil || it.Text != "Services" {
		t.Errorf("tab %v", it)
	}
}

// TestLanesPackOverlappingGoals: goals that overlap take separate lanes,
// goals that follow each other share one.
func TestLanesPackOverlappingGoals(t *testing.T) {
	rep := &services.Report{Actions: []*services.Action{{Name: "/a"}}}
	add := func(start, end int64, st services.GoalStatus) {
		g := services.Goal{Sent: start, Transitions: []services.Transition{{T: end, Status: st}}}
		g.ID[0] = byte(len(rep.Goals) + 1)
		rep.Goals = append(rep.Goals, g)
	}
	add(10, 20, services.StatusSucceeded)
	add(15, 30, services.StatusAborted)  // overlaps the first
	add(20, 25, services.StatusCanceled) // follows the first
	lanes := Lanes(rep, 100)
	if len(lanes) != 2 || len(lanes[0].Spans) != 2 || len(lanes[1].Spans) != 1 {
		t.Fatalf("lanes %+v", lanes)
	}
	if s := lanes[1].Spans[0]; s.Start != 15 || s.End != 30 || s.Tone != model.ToneBad {
		t.Errorf("overlapping goal %+v", s)
	}
}

// TestServicesTabCatchesUpWhenShown: while the tab is hidden the time
// moving reads nothing; shown again, it highlights the call at the time.
func TestServicesTabCatchesUpWhenShown(t *testing.T) {
	v, l, _ := openView(t)
	rep := v.Report()
	l.CatchUp(false) // the tab is shown
	l.SetCursor(rep.Calls[0].Time())
	if v.CurrentRow() != 0 {
		t.Fatalf("row %d at the first call", v.CurrentRow())
	}
	v.Content().Hide()
	l.CatchUp(false)
	last := len(rep.Calls) - 1
	l.SetCursor(rep.Calls[last].Time())
	if v.CurrentRow() != 0 {
		t.Errorf("hidden: row %d highlighted, want it left at 0", v.CurrentRow())
	}
	v.Content().Show()
	l.CatchUp(false)
	if v.CurrentRow() != last {
		t.Errorf("shown again: row %d, want %d", v.CurrentRow(), last)
	}
}
