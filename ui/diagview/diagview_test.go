package diagview

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/diag"
	"github.com/bagscope/bagscope/model/diag/diagtest"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// TestDiagnosticsTab opens generated recordings (ROS 1 by the reference
// rosbag, ROS 2 by the npm oracles) in the tab and checks, against each
// status's latest report as the reference readers give the raw messages:
// the rows at several times; the lanes it puts on the timeline; the level
// and name filters; the detail pane's key/values; stepping to the next
// and previous change of level with the buttons and the [ and ] keys; and
// the buttons' tooltips.
func TestDiagnosticsTab(t *testing.T) {
	spec := diagtest.Spec()
	for name, path := range map[string]string{"ROS 1 bag": diagtest.Bag(t, spec), "ROS 2 MCAP": diagtest.MCAP(t, spec)} {
		t.Run(name, func(t *testing.T) {
			ref := diagtest.Reference(t, path)
			test.NewTempApp(t)
			d := uitest.OpenDoc(t, path)
			l := link.NewHub(d, uitest.SyncRun)
			t.Cleanup(l.Close)
			if Tab(l) == nil {
				t.Fatal("no Diagnostics tab for a recording with /diagnostics")
			}
			v := New(l)
			w := test.NewTempWindow(t, v.Content())
			w.Resize(fyne.NewSize(1200, 700))
			start, end := d.Summary.Start.Nanos(), d.Summary.End.Nanos()

			// The lanes on the timeline: one a status, told to a
			// listener that comes later too.
			var lanes []model.StateLane
			l.OnStateLanes(func(g string, ls []model.StateLane) {
				if g == Group {
					lanes = ls
				}
			})
			if want := len(diagtest.Latest(ref, end)); len(lanes) != want {
				t.Fatalf("%d lanes on the timeline, the reference has %d statuses", len(lanes), want)
			}

			for _, at := range []float64{0, 2.6, 9.5, 15.05, 19.6} {
				tt := start + int64(at*1e9)
				l.SetCursor(tt)
				compareRows(t, fmt.Sprintf("at %gs", at), v, diagtest.Latest(ref, tt), nil, "")
			}

			// Filters, at 9.5 s.
			tt := start + 9_500_000_000
			l.SetCursor(tt)
			want := diagtest.Latest(ref, tt)
			for _, f := range []struct {
				levels []diag.Level
				name   string
			}{{[]diag.Level{diag.Warn, diag.Error}, ""}, {nil, "Wheel"}, {[]diag.Level{diag.OK}, "robot"}} {
				v.SetFilter(f.levels, f.name)
				compareRows(t, fmt.Sprintf("filter %v %q", f.levels, f.name), v, want, f.levels, f.name)
			}
			v.SetFilter(nil, "")

			// The detail pane: the selected status's key/values.
			v.table.Select(tableCell(0))
			row := v.Rows()[0]
			ws := want[[2]string{row.Topic, row.Name}]
			for _, kv := range ws.Values {
				if !strings.Contains(v.Detail(), kv[0]) || !strings.Contains(v.Detail(), kv[1]) {
					t.Errorf("the detail pane of %q lacks %s = %s:\n%s", row.Name, kv[0], kv[1], v.Detail())
				}
			}

			// Stepping through the changes of level.
			changes := diagtest.Changes(ref, end)
			next := func(t0 int64) int64 {
				for _, c := range changes {
					if c > t0 {
						return c
					}
				}
				return -1
			}
			prev := func(t0 int64) int64 {
				for i := len(changes) - 1; i >= 0; i-- {
					if changes[i] < t0 {
						return changes[i]
					}
				}
				return -1
			}
			for _, step := range []struct {
				name    string
				do      func()
				forward bool
			}{
				{"the Next change button", func() { test.Tap(v.next) }, true},
				{"]", func() { v.table.TypedRune(']') }, true},
				{"the Previous change button", func() { test.Tap(v.prev) }, false},
				{"[", func() { v.table.TypedRune('[') }, false},
			} {
				from, _ := l.Cursor()
				want := next(from)
				if !step.forward {
					want = prev(from)
				}
				step.do()
				got, _ := l.Cursor()
				if got != want {
					t.Errorf("%s from +%.3fs: the time is +%.3fs, the next change in the reference is at +%.3fs", step.name,
						float64(from-start)/1e9, float64(got-start)/1e9, float64(want-start)/1e9)
				}
				if v.Table() == nil || v.Table().At.Nanos() != got {
					t.Errorf("%s: the table was not read again at the new time", step.name)
				}
			}

			// Tooltips.
			v.next.MouseIn(&desktop.MouseEvent{})
			if !strings.Contains(v.status.Text, "next change") || !strings.Contains(v.status.Text, "]") {
				t.Errorf("the Next change tooltip says %q", v.status.Text)
			}
			v.next.MouseOut()
		})
	}
}

// TestNoDiagnosticsTab: a recording without diagnostics has no tab.
func TestNoDiagnosticsTab(t *testing.T) {
	test.NewTempApp(t)
	l := link.NewHub(uitest.OpenDoc(t, "../../testdata/tf.bag"), uitest.SyncRun)
	t.Cleanup(l.Close)
	if Tab(l) != nil {
		t.Error("a Diagnostics tab for a recording without diagnostics")
	}
}

// compareRows checks the rows shown against the reference's statuses
// that pass the filter.
func compareRows(t *testing.T, when string, v *View, want map[[2]string]diagtest.StatusSpec, levels []diag.Level, name string) {
	t.Helper()
	var wantKeys []string
	for k, s := range want {
		if (len(levels) == 0 || slices.Contains(levels, diag.Level(s.Level))) && strings.Contains(strings.ToLower(s.Name), strings.ToLower(name)) {
			wantKeys = append(wantKeys, k[0]+" "+k[1])
		}
	}
	var got []string
	for _, r := range v.Rows() {
		got = append(got, r.Topic+" "+r.Name)
		w := want[[2]string{r.Topic, r.Name}]
		if uint8(r.Level) != w.Level || r.Message != w.Message || r.HardwareID != w.HardwareID {
			t.Errorf("%s: %s %q: %s %q %q, the reference %d %q %q", when, r.Topic, r.Name, r.Level, r.Message, r.HardwareID, w.Level, w.Message, w.HardwareID)
		}
	}
	slices.Sort(wantKeys)
	slices.Sort(got)
	if !slices.Equal(got, wantKeys) {
		t.Errorf("%s: rows %v, the reference %v", when, got, wantKeys)
	}
	if len(levels) == 0 && name == "" && !strings.Contains(v.title.Text, fmt.Sprintf("%d status", len(want))) {
		t.Errorf("%s: the title says %q for %d statuses", when, v.title.Text, len(want))
	}
}

func tableCell(row int) widget.TableCellID { return widget.TableCellID{Row: row, Col: colName} }
