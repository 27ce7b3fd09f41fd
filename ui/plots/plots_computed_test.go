package plots

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// TestAddComputedFollowsTheTime: sets of series another view computed
// (the TF tab's lookup over time, handed over by link.Actions.AddComputed)
// are plotted each in a panel of its own, named as given, the Plots tab
// shows itself, and the panels follow the current time as every plot does.
func TestAddComputedFollowsTheTime(t *testing.T) {
	l := link.NewHub(uitest.OpenDoc(t, plotBag), func(f func()) { f() })
	t.Cleanup(l.Close)
	var tabs []string
	l.SetTabs(func(name string) bool { tabs = append(tabs, name); return true })
	g := New(l)
	w := test.NewTempWindow(t, g.content)
	w.Resize(fyne.NewSize(1200, 700))
	start := g.l.Doc().Summary.Start.Nanos()
	series := func(name string, k float64) plot.Series {
		s := plot.Series{Name: name}
		for i := range 10 {
			s.T = append(s.T, start+int64(i)*1e8)
			s.V = append(s.V, k*float64(i))
		}
		return s
	}
	sets := [][]plot.Series{
		{series("a in b: x (m)", 1), series("a in b: y (m)", 2)},
		{series("a in b: roll (rad)", 3)},
	}
	for _, set := range sets {
		tabs = nil
		l.Actions().AddComputed(set)
		if len(tabs) == 0 || tabs[len(tabs)-1] != "Plots" {
			t.Errorf("tabs selected %v, want the Plots tab last", tabs)
		}
	}
	names := g.Series()
	if len(names) != len(sets) {
		t.Fatalf("%d plots hold series (%q), want %d", len(names), names, len(sets))
	}
	for i, set := range sets {
		var want []string
		for _, s := range set {
			want = append(want, s.Name)
		}
		if got := strings.Join(names[i], "|"); got != strings.Join(want, "|") {
			t.Errorf("plot %d holds %q, want %q", i, got, want)
		}
	}
	for _, at := range []int64{start + 3e8, start + 7e8} {
		g.l.SetCursor(at)
		for i, c := range g.Cursors() {
			if c != at {
				t.Errorf("plot %d draws the time at %d, want %d", i, c, at)
			}
		}
	}
}
