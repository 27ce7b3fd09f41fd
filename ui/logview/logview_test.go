package logview

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/cli"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/sensor"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// newTestLogPanel opens a bag and shows its Log tab in a test window.
func newTestLogPanel(t *testing.T, path string) (*logPanel, *link.Hub, fyne.Window) {
	t.Helper()
	uitest.NewApp(t)
	d, err := model.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	l := link.NewHub(d, link.Background)
	t.Cleanup(l.Close)
	p := newLogPanel(l)
	w := test.NewTempWindow(t, p.content)
	w.Resize(fyne.NewSize(1100, 600))
	return p, l, w
}

// TestLogPanel lists robot.bag's /rosout as the model reads it, filters
// by level, node and text, highlights the row at or before the cursor
// and selects a clicked row's message.
func TestLogPanel(t *testing.T) {
	p, l, w := newTestLogPanel(t, "../../testdata/robot.bag")
	want, skipped, err := sensor.ReadLog(context.Background(), l.Doc().Storage, nil, []string{"/rosout"})
	if err != nil || skipped != 0 || len(want) == 0 {
		t.Fatalf("ReadLog: %d entries, %d skipped, %v", len(want), skipped, err)
	}
	if len(p.entries) != len(want) || len(p.rows) != len(want) {
		t.Fatalf("the table lists %d of %d entries, the log has %d", len(p.rows), len(p.entries), len(want))
	}
	if !strings.Contains(p.count.Text, human.Count(uint64(len(want)))+" of ") {
		t.Errorf("count %q", p.count.Text)
	}
	// Each cell shows its entry; levels are coloured.
	cell := widget.NewLabel("")
	for r := range want {
		p.updateCell(widget.TableCellID{Row: r, Col: logColMsg}, cell)
		if cell.Text != strings.ReplaceAll(want[r].Msg, "\n", " ↵ ") {
			t.Errorf("row %d message %q, want %q", r, cell.Text, want[r].Msg)
		}
		p.updateCell(widget.TableCellID{Row: r, Col: logColLevel}, cell)
		if cell.Text != want[r].Severity.String() || cell.Importance != levelImportance(want[r].Severity) {
			t.Errorf("row %d level %q (%v), want %v", r, cell.Text, cell.Importance, want[r].Severity)
		}
	}
	nodes := sensor.LogNodes(want)
	if len(p.node.Options) != len(nodes)+1 {
		t.Errorf("node chooser offers %v, the log has %v", p.node.Options, nodes)
	}

	count := func(f func(e sensor.LogEntry) bool) int {
		n := 0
		for _, e := range want {
			if f(e) {
				n++
			}
		}
		return n
	}
	for _, tt := range []struct {
		name    string
		apply   func()
		want    int
		narrows bool // the filter leaves some rows out, but not all
	}{
		{"warn and above", func() { p.level.SetSelected("Warn and above") }, count(func(e sensor.LogEntry) bool { return e.Severity >= sensor.SevWarn }), true},
		{"all levels again", func() { p.level.SetSelected(levelAll) }, len(want), false},
		{"one node", func() { p.node.SetSelected(nodes[0]) }, count(func(e sensor.LogEntry) bool { return e.Node == nodes[0] }), true},
		{"all nodes again", func() { p.node.SetSelected(nodeAll) }, len(want), false},
		{"text", func() { test.Type(p.text, strings.ToUpper(want[0].Msg[:4])) }, count(func(e sensor.LogEntry) bool {
			return strings.Contains(strings.ToLower(e.Msg+e.Node+e.File+e.Function), strings.ToLower(want[0].Msg[:4]))
		}), true},
		{"text cleared", func() { p.text.SetText("") }, len(want), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			tt.apply()
			if len(p.rows) != tt.want {
				t.Errorf("%d rows, want %d", len(p.rows), tt.want)
			}
			if tt.narrows && (tt.want == 0 || tt.want == len(want)) {
				t.Errorf("the filter %q does not discriminate (%d of %d): a weak test", tt.name, tt.want, len(want))
			}
		})
	}

	// The cursor highlights the last row at or before it.
	for _, tt := range []struct {
		name string
		t    int64
		want int
	}{
		{"before the first", want[0].Ref.T - 1, -1},
		{"on the third", want[2].Ref.T, 2},
		{"between", want[2].Ref.T + (want[3].Ref.T-want[2].Ref.T)/2, 2},
		{"after the last", want[len(want)-1].Ref.T + 1, len(want) - 1},
	} {
		t.Run("cursor "+tt.name, func(t *testing.T) {
			l.SetCursor(tt.t)
			if p.cur != tt.want {
				t.Errorf("row %d highlighted, want %d", p.cur, tt.want)
			}
			if c, ok := l.Cursor(); !ok || c != tt.t {
				t.Errorf("highlighting moved the cursor to %d", c)
			}
		})
	}

	// The highlighted row's source and stamp show below the table.
	if e := want[len(want)-1]; !strings.Contains(p.detail.Text, fmt.Sprintf("%s:%d", e.File, e.Line)) || !strings.Contains(p.detail.Text, e.Function) {
		t.Errorf("detail %q does not name %s:%d %s", p.detail.Text, e.File, e.Line, e.Function)
	}
	// Clicking a row selects its message and moves the cursor to it.
	p.table.Select(widget.TableCellID{Row: 4, Col: logColMsg})
	if m, ok := l.Message(); !ok || m != want[4].Ref {
		t.Errorf("clicking row 4 selected %+v, want %+v", m, want[4].Ref)
	}
	if c, _ := l.Cursor(); c != want[4].Ref.T || p.cur != 4 {
		t.Errorf("cursor %d, row %d; want %d, 4", c, p.cur, want[4].Ref.T)
	}
	_ = w
}

// TestLogExpressionFilter: the text filter takes find's expressions on
// the log messages; the rows shown are the messages `bagscope find`
// finds with the same expression (its own tests check it against genpy),
// in time order. Plain text filters as before, and an expression that
// does not compile says its column and filters as plain text.
func TestLogExpressionFilter(t *testing.T) {
	const path = "../../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_sample.bag"
	p, _, _ := newTestLogPanel(t, path)
	if len(p.entries) != 10 {
		t.Fatalf("%d log entries, want 10", len(p.entries))
	}
	shown := func() []string {
		var ts []string
		for _, r := range p.rows {
			ts = append(ts, fmt.Sprintf("%d", p.entries[r].Ref.T))
		}
		return ts
	}
	for _, ex := range []string{
		"level >= WARN",
		`level >= ERROR && name ~ "^/"`,
		`msg ~ "(?i)error|fail|lost"`,
		"!(level == INFO) && @t > 0.3",
		`contains(msg, "a") || level == DEBUG`,
	} {
		p.text.SetText(ex)
		if !LooksLikeExpression(ex) || p.keep == nil {
			t.Fatalf("%q was not read as an expression", ex)
		}
		var out, errb bytes.Buffer
		if code := cli.Run([]string{"find", "--csv", path, ex}, &out, &errb); code != 0 {
			t.Fatalf("bagscope find %q: exit %d: %s", ex, code, errb.String())
		}
		var want []string
		for i, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			if f := strings.Split(line, ","); i > 0 && len(f) > 2 {
				want = append(want, f[2])
			}
		}
		if got := shown(); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%q shows the messages at %v; find finds %v", ex, got, want)
		}
		if !p.problem.Hidden {
			t.Errorf("%q: a problem shows: %q", ex, p.problem.Text)
		}
	}
	// Plain text, as before: the model's text filter.
	p.text.SetText("timeout")
	if p.keep != nil || len(p.rows) != len(sensor.FilterLog(p.entries, sensor.LogFilter{Text: "timeout"})) || len(p.rows) == 0 {
		t.Errorf("plain text shows %d rows", len(p.rows))
	}
	// A mistake: its column, and plain text meanwhile.
	p.text.SetText("level >= WRN")
	if p.keep != nil || p.problem.Hidden || !strings.Contains(p.problem.Text, "Column 10: ") || !strings.Contains(p.problem.Text, "WRN") {
		t.Errorf("a mistake says %q (shown %v)", p.problem.Text, !p.problem.Hidden)
	}
	p.text.SetText("")
	if len(p.rows) != 10 || !p.problem.Hidden {
		t.Errorf("cleared: %d rows, problem %q", len(p.rows), p.problem.Text)
	}
}
