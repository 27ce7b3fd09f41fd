package diffview

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/cli"
	"github.com/bagscope/bagscope/model/diff"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// diffJSON is what the test reads of `bagscope diff --json`.
type diffJSON struct {
	By     string `json:"by"`
	Equal  bool   `json:"equal"`
	Topics []struct {
		Topic   string `json:"topic"`
		Equal   bool   `json:"equal"`
		OnlyIn  string `json:"only_in"`
		TypesD  bool   `json:"types_differ"`
		DefsD   bool   `json:"definitions_differ"`
		Changed uint64 `json:"changed"`
		Dropped uint64 `json:"dropped"`
		Added   uint64 `json:"added"`
		Sides   [2]struct {
			Present  bool    `json:"present"`
			Messages uint64  `json:"messages"`
			Rate     float64 `json:"rate"`
			Span     float64 `json:"span"`
		} `json:"sides"`
		First *diffMsg `json:"first_difference"`
		Last  *diffMsg `json:"last_difference"`
	} `json:"topics"`
}

type diffMsg struct {
	Kind string `json:"kind"`
	Time struct {
		NS int64 `json:"ns"`
	} `json:"time"`
	Index [2]int64   `json:"index"`
	Field string     `json:"field"`
	Vals  *[2]string `json:"values"`
}

// command runs `bagscope ARGS...` and returns its stdout, failing on a
// usage error or worse (exit > 1).
func command(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Run(args, &out, &errb); code > 1 {
		t.Fatalf("bagscope %v: exit %d: %s", args, code, errb.String())
	}
	return out.String()
}

// variant writes a copy of in with one message changed, dropped or added
// by the reference rosbag (testdata/oracle/diff_variant.py), and returns
// its path with what was done to which message.
func variant(t *testing.T, in string, args ...string) (string, variantDone) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "v.bag")
	script := filepath.Join(uitest.Root(t), "testdata", "oracle", "diff_variant.py")
	b, err := exec.Command("/usr/bin/python3", append([]string{script, in, out}, args...)...).Output()
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("skipping (CI never skips this): the reference rosbag: %v", err)
		}
		t.Fatalf("diff_variant.py: %v", err)
	}
	var did variantDone
	if err := json.Unmarshal(b, &did); err != nil {
		t.Fatalf("diff_variant.py said %q: %v", b, err)
	}
	return out, did
}

type variantDone struct {
	Topic string `json:"topic"`
	Index int64  `json:"index"`
	NS    int64  `json:"ns"`
	Mode  string `json:"mode"`
}

// openTab opens a's window link with its Diff tab, the background work
// run at once.
func openTab(t *testing.T, a string) (*View, *link.Hub, fyne.Window) {
	t.Helper()
	d := uitest.OpenDoc(t, a)
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	v := New(l, nil)
	w := test.NewTempWindow(t, v.Content())
	w.Resize(fyne.NewSize(1280, 700))
	return v, l, w
}

// checkRows compares the tab's rows with `diff --json` of the same pair:
// one row per topic, each cell as the command's figures give it.
func checkRows(t *testing.T, v *View, want diffJSON) {
	t.Helper()
	st := v.State()
	if st.Err != nil || st.Result == nil {
		t.Fatalf("the tab shows no result: %+v", st)
	}
	res := st.Result
	if res.Equal() != want.Equal {
		t.Errorf("the tab says equal %v, the command %v", res.Equal(), want.Equal)
	}
	if want.Equal != strings.HasPrefix(v.verdict.Text, "Identical") {
		t.Errorf("the verdict %q; the command says equal %v", v.verdict.Text, want.Equal)
	}
	if sense := map[bool]string{false: "bytes", true: "values"}[res.ByValue]; sense != want.By || !strings.Contains(v.verdict.Text, map[string]string{"bytes": "payload bytes", "values": "decoded value"}[want.By]) {
		t.Errorf("compared by %s (%q); the command by %s", sense, v.verdict.Text, want.By)
	}
	rows, cols := v.table.Length()
	if rows != len(want.Topics) || cols != nCols {
		t.Fatalf("the table has %d rows of %d columns; the command lists %d topics", rows, cols, len(want.Topics))
	}
	start := v.start
	for i, w := range want.Topics {
		tp := res.Topics[i]
		cell := func(col int) string { s, _, _ := Cell(tp, col, start); return s }
		side := func(k int, f string, x float64) string {
			if !w.Sides[k].Present {
				return "-"
			}
			return fmt.Sprintf(f, x)
		}
		wantCells := map[int]string{
			colTopic: w.Topic,
			colMsgsA: side(0, "%.0f", float64(w.Sides[0].Messages)), colMsgsB: side(1, "%.0f", float64(w.Sides[1].Messages)),
			colHzA: side(0, "%.3f", w.Sides[0].Rate), colHzB: side(1, "%.3f", w.Sides[1].Rate),
			colSpanA: side(0, "%.3f", w.Sides[0].Span), colSpanB: side(1, "%.3f", w.Sides[1].Span),
			colFirst: msgText(w.First, start),
		}
		if w.Last != nil && (w.Last.Time != w.First.Time || w.Last.Index != w.First.Index || w.Last.Kind != w.First.Kind) {
			wantCells[colLast] = msgText(w.Last, start)
		} else {
			wantCells[colLast] = "" // the one differing message is the first
		}
		for col, s := range wantCells {
			if got := cell(col); got != s {
				t.Errorf("%s: %s is %q; the command gives %q", w.Topic, colTitles[col], got, s)
			}
		}
		summary := cell(colDiff)
		if w.Equal != (summary == "equal") || tp.Changed != w.Changed || tp.Dropped != w.Dropped || tp.Added != w.Added ||
			(w.OnlyIn != "") != strings.HasPrefix(summary, "only in "+w.OnlyIn) || tp.TypesDiffer() != w.TypesD || tp.DefinitionsDiffer() != w.DefsD {
			t.Errorf("%s: the tab says %q; the command: equal %v, %d changed, %d dropped, %d added, only in %q", w.Topic, summary, w.Equal, w.Changed, w.Dropped, w.Added, w.OnlyIn)
		}
	}
}

// msgText is how the tab names a differing message, from the command's
// JSON.
func msgText(m *diffMsg, start bag.Time) string {
	if m == nil {
		return ""
	}
	return diffText(&diff.Difference{Kind: diff.Kind(m.Kind), Time: bag.TimeFromNanos(m.Time.NS), Index: m.Index}, start)
}

func diffCommand(t *testing.T, a, b string, args ...string) diffJSON {
	t.Helper()
	var want diffJSON
	out := command(t, append([]string{"diff", "--json", a, b}, args...)...)
	if err := json.Unmarshal([]byte(out), &want); err != nil {
		t.Fatalf("diff --json: %v\n%s", err, out)
	}
	return want
}

// TestDiffTabMatchesCommand compares the tab's rows with `bagscope diff
// --json` of the same pair: a bag and its converted MCAP are identical by
// bytes and by value; copies written by the reference rosbag with one
// message changed, dropped or added differ in that message, which the tab
// names as the command does (and as the reference wrote it), moves the
// window's time to when clicked, and shows from both recordings with the
// differing field's line marked.
func TestDiffTabMatchesCommand(t *testing.T) {
	robot := uitest.Testdata(t, "robot.bag")
	example := uitest.SharedBags(t, "cruise-automation__rosbag.js/fixtures/example.bag")
	for _, tc := range []struct {
		in      string
		variant []string // diff_variant.py's MODE TOPIC N [FIELD DELTA]; none: convert to MCAP
		values  bool
		field   string // the differing field's last name, by value
	}{
		{in: robot},
		{in: robot, values: true},
		{in: example},
		{in: robot, variant: []string{"change", "/odom", "7", "pose.pose.position.x", "0.5"}},
		{in: robot, variant: []string{"change", "/odom", "7", "pose.pose.position.x", "0.5"}, values: true, field: "x"},
		{in: robot, variant: []string{"change", "/odom", "120", "twist.twist.angular.z", "1e-13"}, values: true},
		{in: robot, variant: []string{"drop", "/scan", "0"}},
		{in: robot, variant: []string{"add", "/tf", "10"}},
		{in: example, variant: []string{"change", "/turtle1/pose", "40", "theta", "-2"}, values: true, field: "theta"},
	} {
		name := filepath.Base(tc.in) + " " + strings.Join(tc.variant, " ") + map[bool]string{true: " values"}[tc.values]
		t.Run(name, func(t *testing.T) {
			test.NewTempApp(t)
			var b string
			var did variantDone
			if tc.variant == nil {
				b = filepath.Join(t.TempDir(), "x.mcap")
				command(t, "convert", tc.in, b)
			} else {
				b, did = variant(t, tc.in, tc.variant...)
			}
			v, l, w := openTab(t, tc.in)
			var args []string
			if tc.values {
				v.SetValues(true, DefaultTolerance)
				args = append(args, "--values")
			}
			v.CompareWith(b)
			want := diffCommand(t, tc.in, b, args...)
			checkRows(t, v, want)
			if dir := os.Getenv("BAGSCOPE_SHOTS"); dir != "" {
				if err := widgets.WritePNG(filepath.Join(dir, "diff-"+strings.ReplaceAll(name, " ", "_")+".png"), uitest.Capture(w.Canvas())); err != nil {
					t.Fatal(err)
				}
			}
			if want.Equal {
				if tc.variant == nil && !strings.HasPrefix(v.verdict.Text, "Identical") {
					t.Errorf("a bag and its MCAP: %q", v.verdict.Text)
				}
				if tc.variant != nil && tc.values && strings.Contains(tc.variant[4], "e-13") {
					return // below the tolerance: equal by value, as the command says
				}
				if tc.variant != nil {
					t.Fatalf("the copy with %v is equal", tc.variant)
				}
				return
			}
			// The touched topic is the one that differs, its message
			// named as the reference wrote it.
			res := v.State().Result
			var tp *diff.Topic
			row := -1
			for i, x := range res.Topics {
				if !x.Equal() && x.Name != did.Topic {
					t.Errorf("%s differs; only %s was touched", x.Name, did.Topic)
				}
				if x.Name == did.Topic {
					tp, row = x, i
				}
			}
			if tp == nil || tp.First == nil || tp.Differences() != 1 {
				t.Fatalf("%s: %+v; want one differing message", did.Topic, tp)
			}
			d := tp.First
			wantKind := map[string]diff.Kind{"change": diff.Changed, "drop": diff.Dropped, "add": diff.Added}[did.Mode]
			side, index := 0, did.Index
			if wantKind == diff.Added {
				side, index = 1, index+1 // the copy follows the original on B
			}
			if d.Kind != wantKind || d.Time.Nanos() != did.NS || d.Index[side] != index {
				t.Errorf("first difference %s at %d, message %d; the reference wrote %s at %d, message %d", d.Kind, d.Time.Nanos(), d.Index[side], wantKind, did.NS, index)
			}
			// A click on the row moves the window's time to the message
			// and shows both sides.
			v.table.Select(widget.TableCellID{Row: row, Col: colFirst})
			if cur, ok := l.Cursor(); !ok || cur != did.NS {
				t.Errorf("the time is %d after the click; want the message's %d", cur, did.NS)
			}
			if m, ok := l.Message(); d.Conn[0] != nil && (!ok || m.T != did.NS || m.Conn != d.Conn[0].ID) {
				t.Errorf("A's message selected: %+v %v; want the one at %d", m, ok, did.NS)
			}
			if v.Shown() != d {
				t.Fatal("the sides do not show the clicked difference")
			}
			sides := ReadSides(d, [2]bag.Storage{l.Doc().Storage, v.b})
			for i, s := range sides {
				missing := (wantKind == diff.Dropped && i == 1) || (wantKind == diff.Added && i == 0)
				if s.Missing != missing || (!missing && (s.Err != nil || len(s.Lines) == 0)) {
					t.Errorf("side %d: missing %v, %d lines, %v", i, s.Missing, len(s.Lines), s.Err)
				}
				shown := richText(v.sides[i])
				if !missing && !strings.Contains(shown, strings.TrimSpace(s.Lines[0])) {
					t.Errorf("side %d shows %q, not the message", i, shown)
				}
			}
			if wantKind == diff.Changed {
				marked := Marked(sides)
				var lines []string
				for k, m := range marked[0] {
					if m {
						lines = append(lines, strings.TrimSpace(sides[0].Lines[k]))
					}
				}
				if len(lines) == 0 {
					t.Fatal("no line is marked on a changed message")
				}
				if tc.field != "" && (len(lines) != 1 || !strings.HasPrefix(lines[0], tc.field+":")) {
					t.Errorf("marked %q; want the one line of %s", lines, tc.field)
				}
				if !markedShown(v.sides[0]) {
					t.Error("no line of A's side is drawn marked")
				}
				if first := slices.Index(marked[0], true); first > 4 && v.scrolls[0].Offset.Y <= 0 {
					t.Errorf("the first marked line is line %d, and A's side is not scrolled to it", first)
				}
			}
		})
	}
}

func richText(r *widget.RichText) string {
	var b strings.Builder
	for _, s := range r.Segments {
		b.WriteString(s.Textual())
		b.WriteByte('\n')
	}
	return b.String()
}

func markedShown(r *widget.RichText) bool {
	for _, s := range r.Segments {
		if ts, ok := s.(*widget.TextSegment); ok && ts.Style.ColorName == theme.ColorNameError {
			return true
		}
	}
	return false
}

// TestDiffTabTopicsAndErrors: the topic filter narrows the rows to what
// `diff --topics` compares; a filter naming no topic, a bad tolerance and
// a B that cannot be opened each say what to do; recordings sharing no
// topic say so.
func TestDiffTabTopicsAndErrors(t *testing.T) {
	test.NewTempApp(t)
	robot := uitest.Testdata(t, "robot.bag")
	v, _, _ := openTab(t, robot)
	v.SetTopicFilter("/odom, /t*")
	v.CompareWith(robot)
	checkRows(t, v, diffCommand(t, robot, robot, "--topics", "/odom,/t*"))
	if n, _ := v.table.Length(); n != 2 {
		t.Errorf("%d rows for /odom and /t*; want 2", n)
	}

	v.SetTopicFilter("/nope")
	v.Run()
	if st := v.State(); st.Err == nil || !strings.Contains(v.verdict.Text, "no topic /nope") || !strings.Contains(v.verdict.Text, "topic filter") {
		t.Errorf("a filter naming no topic: %q", v.verdict.Text)
	}
	v.SetTopicFilter("")
	v.SetValues(true, 0)
	v.tol.SetText("-1")
	v.Run()
	if st := v.State(); st.Err == nil || !strings.Contains(v.verdict.Text, "tolerance") {
		t.Errorf("a negative tolerance: %q", v.verdict.Text)
	}
	v.SetValues(false, DefaultTolerance)
	v.CompareWith(filepath.Join(t.TempDir(), "missing.bag"))
	if st := v.State(); st.Err == nil || !strings.Contains(v.verdict.Text, "Compare with") {
		t.Errorf("a missing B: %q", v.verdict.Text)
	}

	other := uitest.Testdata(t, "single-message.bag")
	v.CompareWith(other)
	want := diffCommand(t, robot, other)
	checkRows(t, v, want)
	common := false
	for _, tp := range want.Topics {
		common = common || tp.OnlyIn == ""
	}
	if common == strings.HasPrefix(v.verdict.Text, "No common topics") {
		t.Errorf("common topics %v, the verdict %q", common, v.verdict.Text)
	}
}

// TestDiffTabCancel: Cancel stops a comparison that is running: the tab
// says it was cancelled and shows no rows, and the work, when it ends,
// changes nothing; Compare then runs it again to the end.
func TestDiffTabCancel(t *testing.T) {
	test.NewTempApp(t)
	robot := uitest.Testdata(t, "robot.bag")
	d := uitest.OpenDoc(t, robot)
	var queued []func()
	l := link.NewHub(d, func(f func()) { queued = append(queued, f) })
	t.Cleanup(l.Close)
	v := New(l, nil)
	test.NewTempWindow(t, v.Content())
	v.CompareWith(robot)
	if !v.State().Running || v.stop.Disabled() || !v.bar.Visible() {
		t.Fatalf("running: %+v, Cancel enabled %v, progress shown %v", v.State(), !v.stop.Disabled(), v.bar.Visible())
	}
	test.Tap(&v.stop.Button)
	run := func() {
		for len(queued) > 0 {
			f := queued[0]
			queued = queued[1:]
			f()
		}
	}
	run()
	if st := v.State(); !st.Cancelled || st.Result != nil || !strings.HasPrefix(v.verdict.Text, "Cancelled") || !v.stop.Disabled() {
		t.Fatalf("after Cancel: %+v, %q", st, v.verdict.Text)
	}
	if n, _ := v.table.Length(); n != 0 {
		t.Errorf("%d rows after Cancel", n)
	}
	test.Tap(&v.run.Button)
	run()
	if st := v.State(); st.Cancelled || st.Result == nil || !st.Result.Equal() {
		t.Fatalf("compared again: %+v", st)
	}
}
