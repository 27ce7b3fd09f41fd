package query

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// sqlHelper is bagscope-sql built once for the package's tests (TestMain
// removes it).
var sqlHelper uitest.SQLHelper

func TestMain(m *testing.M) {
	ProgressEvery = 0 // the test driver runs fyne.Do on the caller's goroutine
	code := m.Run()
	sqlHelper.Remove()
	os.Exit(code)
}

func newBox(t *testing.T, acts Actions) (*View, fyne.Window) {
	t.Helper()
	a := uitest.NewApp(t)
	w := a.NewWindow("query")
	t.Cleanup(w.Close)
	v := New(w, acts)
	w.SetContent(v.Content)
	w.Resize(fyne.NewSize(1280, 800))
	return v, w
}

// runSync types q in the box and runs it with Ctrl+Enter, the run done
// before it returns.
func runSync(t *testing.T, v *View, q string) {
	t.Helper()
	old := Background
	Background = uitest.SyncRun
	t.Cleanup(func() { Background = old })
	v.Editor().SetText(q)
	v.editor.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl})
	if v.Running() {
		t.Fatal("the run had not ended")
	}
}

// TestQueryBoxShowsWhatSQLPrints runs queries in the box and checks its
// table, cell by cell, against `bagscope sql --json` of the same query:
// the values, NULL shown as NULL (dimmed, italic), numbers right-aligned,
// a sort by a column, the row count, and the first Limit rows of more.
func TestQueryBoxShowsWhatSQLPrints(t *testing.T) {
	bin := sqlHelper.Build(t)
	v, w := newBox(t, Actions{})
	queries := []string{
		`SELECT i, i * 1.5 AS half, CASE WHEN i % 2 = 0 THEN NULL ELSE 'odd ' || i END AS s, [i, i + 1] AS l, (i * 7) % 5 AS m FROM range(7) t(i)`,
		`SELECT 'a,b "c"' AS quoted, 123456789012345678901::HUGEINT AS big, 2.25::DECIMAL(5,2) AS dec, TIMESTAMP '2024-01-02 03:04:05.123456' AS ts`,
	}
	for _, q := range queries {
		runSync(t, v, q)
		if msg := v.Message(); msg != "" {
			t.Fatalf("%s: the box says %q", q, msg)
		}
		cols, want := uitest.SQLRows(t, bin, "", q)
		res := v.Result()
		if strings.Join(res.Columns, ",") != strings.Join(cols, ",") {
			t.Errorf("%s: columns %q, bagscope sql --json %q", q, res.Columns, cols)
		}
		got := v.Shown()
		if len(got) != len(want) || res.Total != len(want) {
			t.Fatalf("%s: %d rows shown (total %d), bagscope sql --json printed %d", q, len(got), res.Total, len(want))
		}
		for i := range want {
			for j := range want[i] {
				if got[i][j] != want[i][j] {
					t.Errorf("%s: row %d %s = %+v, bagscope sql --json %+v", q, i, cols[j], got[i][j], want[i][j])
				}
			}
		}
		if !strings.HasPrefix(v.Status(), human.Plural(uint64(len(want)), "row")+",") {
			t.Errorf("%s: status %q, want it to count %d rows", q, v.Status(), len(want))
		}
		// What is drawn: each visible cell's text, numbers at the right,
		// NULL in italics.
		seen := 0
		for _, o := range uitest.ShownObjects(w.Content()) {
			c, ok := o.(*cell)
			if !ok || !c.Visible() || c.row < 0 || c.row >= len(got) {
				continue
			}
			seen++
			val := got[c.row][c.col]
			if c.Text != val.Text {
				t.Errorf("%s: cell %d,%d shows %q, want %q", q, c.row, c.col, c.Text, val.Text)
			}
			if right := c.Alignment == fyne.TextAlignTrailing; right != res.Numeric(c.col) {
				t.Errorf("%s: cell %d,%d (%s, %s) right-aligned %v", q, c.row, c.col, res.Columns[c.col], res.Types[c.col], right)
			}
			if c.TextStyle.Italic != val.Null {
				t.Errorf("%s: cell %d,%d (%q) italic %v", q, c.row, c.col, c.Text, c.TextStyle.Italic)
			}
		}
		if seen < len(cols) {
			t.Errorf("%s: %d cells drawn", q, seen)
		}
	}
	// The first query's m column sorted, then reversed: as ORDER BY sorts.
	runSync(t, v, queries[0])
	for _, dir := range []string{"ASC", "DESC"} {
		v.SortBy(4)
		_, want := uitest.SQLRows(t, bin, "", queries[0]+" ORDER BY m "+dir+", i")
		for i, r := range v.Shown() {
			if r[4] != want[i][4] {
				t.Errorf("sorted by m %s: row %d m = %v, ORDER BY says %v", dir, i, r[4], want[i][4])
			}
		}
	}
	// More rows than shown: the first Limit, and the count of all.
	old := Limit
	Limit = 3
	t.Cleanup(func() { Limit = old })
	runSync(t, v, `SELECT i FROM range(10) t(i) ORDER BY i`)
	if res := v.Result(); len(v.Shown()) != 3 || res.Total != 10 || !strings.Contains(v.Status(), "First 3 of 10 rows") || !strings.Contains(v.Status(), "Export CSV") {
		t.Errorf("10 rows, 3 shown: %d shown, total %d, status %q", len(v.Shown()), res.Total, v.Status())
	}
	if csv := v.CSV(); csv != "i\n0\n1\n2\n" {
		t.Errorf("Copy as CSV of the rows shown: %q", csv)
	}
}

// TestQueryBoxShowsDuckDBErrors: a syntax error shows DuckDB's message as
// the command prints it, with the line and the caret under the position;
// no table is left shown.
func TestQueryBoxShowsDuckDBErrors(t *testing.T) {
	bin := sqlHelper.Build(t)
	v, _ := newBox(t, Actions{})
	for _, q := range []string{"SELECT 1 FRM x", "SELECT nope FROM range(3)"} {
		runSync(t, v, q)
		var stderr bytes.Buffer
		cmd := exec.Command(bin, "--", q)
		cmd.Stderr = &stderr
		if err := cmd.Run(); err == nil {
			t.Fatalf("%s: bagscope sql ran it", q)
		}
		want := strings.TrimPrefix(strings.TrimSpace(stderr.String()), "bagscope: sql: ")
		if got := v.Message(); got != want {
			t.Errorf("%s: the box says\n%s\nbagscope sql says\n%s", q, got, want)
		}
		if !strings.Contains(v.Message(), "LINE 1: "+q) || !strings.Contains(v.Message(), "^") {
			t.Errorf("%s: no position in %q", q, v.Message())
		}
		if v.Result() != nil || v.gridBox.Visible() {
			t.Errorf("%s: a table is still shown", q)
		}
	}
}

// TestQueryBoxCancelKillsTheHelper: Esc while a query runs kills its
// bagscope-sql process (it is gone once the run ends) and leaves none of
// its temporary files.
func TestQueryBoxCancelKillsTheHelper(t *testing.T) {
	sqlHelper.Build(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	v, _ := newBox(t, Actions{})
	done := make(chan struct{})
	v.OnDone(func() { close(done) })
	v.Editor().SetText("SELECT count(*) FROM range(1000000000000) a(i), range(1000) b(j) WHERE i + j < 0")
	v.Run()
	deadline := time.Now().Add(2 * time.Minute)
	pid := 0
	for pid == 0 {
		if time.Now().After(deadline) {
			t.Fatal("bagscope-sql did not start")
		}
		time.Sleep(10 * time.Millisecond)
		pid = v.PID()
	}
	if err := syscall.Kill(pid, 0); err != nil {
		t.Fatalf("the helper %d is not running: %v", pid, err)
	}
	v.editor.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	<-done
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the helper %d is left after Cancel: kill 0 says %v", pid, err)
	}
	if !strings.HasPrefix(v.Status(), "Cancelled") || v.Running() {
		t.Errorf("after Cancel: status %q, running %v", v.Status(), v.Running())
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left in $TMPDIR: %v", left)
	}
}

// TestQueryBoxWithoutHelper: without bagscope-sql the box says how to get
// it (make build).
func TestQueryBoxWithoutHelper(t *testing.T) {
	t.Setenv("BAGSCOPE_SQL", filepath.Join(t.TempDir(), "none"))
	v, _ := newBox(t, Actions{})
	for _, when := range []string{"opened", "run"} {
		if when == "run" {
			runSync(t, v, "SELECT 1")
		}
		if m := v.Message(); !strings.Contains(m, "bagscope-sql") || !strings.Contains(m, "make build") {
			t.Errorf("without the helper, %s: %q", when, m)
		}
	}
}

// TestQueryBoxExportCSV: Export CSV… writes every row (more than the box
// shows) as `bagscope sql --csv` prints them.
func TestQueryBoxExportCSV(t *testing.T) {
	bin := sqlHelper.Build(t)
	old := Limit
	Limit = 5
	t.Cleanup(func() { Limit = old })
	v, _ := newBox(t, Actions{})
	q := `SELECT i, CASE WHEN i % 3 = 0 THEN NULL ELSE 'v,' || i END AS s, i / 7 AS f FROM range(50) t(i) ORDER BY i`
	runSync(t, v, q)
	if len(v.Shown()) != 5 || v.Result().Total != 50 {
		t.Fatalf("%d rows shown of %d", len(v.Shown()), v.Result().Total)
	}
	out := filepath.Join(t.TempDir(), "all.csv")
	wc, err := storage.Writer(storage.NewFileURI(out))
	if err != nil {
		t.Fatal(err)
	}
	done := false
	v.OnDone(func() { done = true })
	oldBg := Background
	Background = uitest.SyncRun
	t.Cleanup(func() { Background = oldBg })
	v.ExportTo(wc)
	if !done || !strings.HasPrefix(v.Status(), "Saved every row") {
		t.Fatalf("export: done %v, status %q", done, v.Status())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	want, err := exec.Command(bin, "--csv", "--", q).Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) || strings.Count(string(got), "\n") != 51 {
		t.Errorf("the file:\n%s\nbagscope sql --csv:\n%s", got, want)
	}
}

// TestQueryBoxDoubleClickOpensPath: a double click on a cell of a row
// with a path column opens that path; a NULL path opens nothing, and a
// result without a path column opens nothing.
func TestQueryBoxDoubleClickOpensPath(t *testing.T) {
	sqlHelper.Build(t)
	var opened []string
	v, w := newBox(t, Actions{Open: func(p string) { opened = append(opened, p) }})
	tapRow := func(row int) {
		t.Helper()
		for _, o := range uitest.ShownObjects(w.Content()) {
			if c, ok := o.(*cell); ok && c.Visible() && c.row == row && c.col == 1 {
				test.DoubleTap(c)
				return
			}
		}
		t.Fatalf("no cell of row %d drawn", row)
	}
	runSync(t, v, `SELECT n, p AS path FROM (VALUES (1, '/data/run 1.bag'), (2, NULL), (3, '/data/o''brien.mcap')) t(n, p) ORDER BY n`)
	for _, row := range []int{0, 1, 2} {
		tapRow(row)
	}
	if strings.Join(opened, "|") != "/data/run 1.bag|/data/o'brien.mcap" {
		t.Errorf("double clicks on rows 0, 1 (NULL), 2 opened %q", opened)
	}
	opened = nil
	runSync(t, v, `SELECT 1 AS n, '/data/x.bag' AS file`)
	tapRow(0)
	if len(opened) != 0 {
		t.Errorf("a result without a path column opened %q", opened)
	}
}
