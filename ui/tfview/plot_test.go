package tfview

import (
	"encoding/csv"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// TestPlotOverTimeAddsPlots presses "Plot over time" under the lookup of
// cam_mount (which changes parent at 5 s) in odom: two sets are handed to
// the Plots tab (link.Actions.AddComputed), the
// translation and roll, pitch and yaw, whose points are the rows of
// `bagscope tf --lookup odom cam_mount --over-time --csv` (itself checked
// against the reference rosbag). That the Plots tab plots such sets, shows
// itself and follows the time is ui/plots' TestAddComputedFollowsTheTime: views
// reach each other only through ui/link.
func TestPlotOverTimeAddsPlots(t *testing.T) {
	const path = "../../testdata/tf.bag"
	test.NewTempApp(t)
	d := uitest.OpenDoc(t, path)
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	var added [][]plot.Series
	l.Actions().AddComputed = func(set []plot.Series) { added = append(added, set) }
	v := New(l)
	w := test.NewTempWindow(t, v.Content())
	w.Resize(fyne.NewSize(1200, 700))
	start := d.Summary.Start.Nanos()
	read := make(chan bool, 4)
	v.OnRead = func() { read <- true }
	l.SetCursor(start + 6e9)
	<-read
	if !v.plotBtn.Disabled() == (v.target.Selected == "" || v.source.Selected == "") {
		t.Fatalf("the button's state with frames %q %q", v.target.Selected, v.source.Selected)
	}
	v.target.SetSelected("odom")
	v.source.SetSelected("cam_mount")
	if v.plotBtn.Disabled() {
		t.Fatal("Plot over time is disabled with two frames chosen")
	}
	plotted := make(chan bool, 4)
	v.OnPlotted = func() { plotted <- true }
	test.Tap(v.plotBtn)
	<-plotted

	var names [][]string
	for _, set := range added {
		var n []string
		for _, s := range set {
			n = append(n, s.Name)
		}
		names = append(names, n)
	}
	want := [][]string{
		{"cam_mount in odom: x (m)", "cam_mount in odom: y (m)", "cam_mount in odom: z (m)"},
		{"cam_mount in odom: roll (rad)", "cam_mount in odom: pitch (rad)", "cam_mount in odom: yaw (rad)"},
	}
	if len(names) != 2 || strings.Join(names[0], "|") != strings.Join(want[0], "|") || strings.Join(names[1], "|") != strings.Join(want[1], "|") {
		t.Fatalf("the plots hold %q, want %q", names, want)
	}
	if len(added) != 2 {
		t.Fatalf("%d sets plotted", len(added))
	}

	rows, err := csv.NewReader(strings.NewReader(tfCommand(t, path, "--lookup", "odom", "cam_mount", "--over-time", "--csv"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	rows = rows[1:]
	// Few enough lookups that every one is plotted: each component's
	// points are the rows' (a failed lookup a gap).
	for k, col := range []struct {
		set, series, csv int
	}{{0, 0, 2}, {0, 1, 3}, {0, 2, 4}, {1, 0, 9}, {1, 1, 10}, {1, 2, 11}} {
		s := added[col.set][col.series]
		if len(s.T) != len(rows) {
			t.Fatalf("%s: %d points, %d rows", s.Name, len(s.T), len(rows))
		}
		for i, r := range rows {
			sec, ns, _ := strings.Cut(r[0], ".")
			at, _ := strconv.ParseInt(sec+ns, 10, 64)
			v, err := strconv.ParseFloat(r[col.csv], 64)
			gap := r[12] != "" && s.V[i] != s.V[i]
			if s.T[i] != at || (!gap && (err != nil || s.V[i] != v)) {
				t.Fatalf("%s point %d (%d): %d %g, the row %v", s.Name, i, k, s.T[i], s.V[i], r)
			}
		}
	}
}
