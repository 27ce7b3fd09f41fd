package library

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/bagscope/bagscope/model/catalog"
	"github.com/bagscope/bagscope/model/sqlhelper"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/library/query"
)

// buildSQLHelper builds bagscope-sql (cgo: DuckDB) as make build does and
// points $BAGSCOPE_SQL at it; without a C compiler it skips, unless CI is
// set.
func buildSQLHelper(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), sqlhelper.Name)
	if out, err := exec.Command("go", "build", "-o", bin, "../../model/cli/bagscope-sql").CombinedOutput(); err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("skipping (CI never skips this): building bagscope-sql (cgo): %v\n%s", err, out)
		}
		t.Fatalf("building bagscope-sql: %v\n%s", err, out)
	}
	t.Setenv("BAGSCOPE_SQL", bin)
	return bin
}

// sqlJSON is `bagscope sql --json [--catalog CATALOG] Q`'s rows as the
// query box's cells.
func sqlJSON(t *testing.T, bin, cat, q string) [][]sqlhelper.Cell {
	t.Helper()
	args := []string{"--json"}
	if cat != "" {
		args = append(args, "--catalog", cat)
	}
	out, err := exec.Command(bin, append(args, "--", q)...).Output()
	if err != nil {
		t.Fatalf("bagscope sql --json %q: %v", q, err)
	}
	var rows [][]sqlhelper.Cell
	for _, line := range bytes.Split(bytes.TrimSpace(out), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.Token()
		var row []sqlhelper.Cell
		for dec.More() {
			dec.Token()
			var raw json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				t.Fatal(err)
			}
			var s string
			switch {
			case string(raw) == "null":
				row = append(row, sqlhelper.Cell{Text: "NULL", Null: true})
			case json.Unmarshal(raw, &s) == nil:
				row = append(row, sqlhelper.Cell{Text: s})
			default:
				var b bytes.Buffer
				json.Compact(&b, raw)
				row = append(row, sqlhelper.Cell{Text: b.String()})
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// runQuery types q in the library's query box and runs it (Ctrl+Enter).
func runQuery(t *testing.T, v *View, q string) *query.View {
	t.Helper()
	old, every := query.Background, query.ProgressEvery
	query.Background, query.ProgressEvery = uitest.SyncRun, 0
	t.Cleanup(func() { query.Background, query.ProgressEvery = old, every })
	v.ShowQuery()
	qv := v.Query()
	qv.Editor().SetText(q)
	qv.Editor().TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl})
	if m := qv.Message(); m != "" {
		t.Fatalf("%s: the query box says %s", q, m)
	}
	return qv
}

// TestLibraryQueryBox runs queries in the query box of a library opened
// on a folder (no catalogue: the box writes one from the rows the library
// read) and checks its table against `bagscope sql --json --catalog` of a
// catalogue bagscope catalog writes of the same folder, and a messages()
// query against the reference rosbag's messages. A double click on a row
// with a path opens that recording.
func TestLibraryQueryBox(t *testing.T) {
	bin := buildSQLHelper(t)
	dir, bags := fleet(t)
	var opened []string
	v, w := newLibrary(t, dir, &opened)
	cat := filepath.Join(t.TempDir(), "catalog")
	if _, err := catalog.Build(context.Background(), []string{dir}, catalog.Options{Out: cat}); err != nil {
		t.Fatal(err)
	}

	for _, q := range []string{
		`SELECT path, topic, type, messages, rate, longest_gap FROM topics ORDER BY path, topic`,
		`SELECT path, format, messages, duration, healthy FROM recordings WHERE path NOT IN (SELECT path FROM topics WHERE topic = '/tf') ORDER BY path`,
	} {
		qv := runQuery(t, v, q)
		want := sqlJSON(t, bin, cat, q)
		got := qv.Shown()
		if len(got) != len(want) || len(want) == 0 {
			t.Fatalf("%s: %d rows shown, bagscope sql --json printed %d", q, len(got), len(want))
		}
		for i := range want {
			for j := range want[i] {
				if got[i][j] != want[i][j] {
					t.Errorf("%s: row %d %s = %+v, bagscope sql --json %+v", q, i, qv.Result().Columns[j], got[i][j], want[i][j])
				}
			}
		}
	}
	if shown := uitest.ShownLines(w); !strings.Contains(shown, "talker.mcap") {
		t.Errorf("the table does not show talker.mcap:\n%s", shown)
	}
	// A double click on a row with a path opens its recording.
	qv := v.Query()
	qv.OpenRow(0)
	if len(opened) != 1 || opened[0] != qv.Shown()[0][0].Text {
		t.Errorf("a double click on row 0 (%s) opened %q", qv.Shown()[0][0].Text, opened)
	}

	// messages(): the values of /turtle1/pose, as the reference reads them.
	const script = `
import rosbag, sys
for topic, msg, t in rosbag.Bag(sys.argv[1]).read_messages(topics=['/turtle1/pose']):
    print(t.to_nsec(), repr(msg.x), repr(msg.theta))
`
	out, err := exec.Command("/usr/bin/python3", "-c", script, bags[0]).Output()
	if err != nil {
		if os.Getenv("CI") == "" {
			t.Skipf("skipping (CI never skips this): the reference rosbag: %v", err)
		}
		t.Fatalf("the reference rosbag: %v", err)
	}
	ref := strings.Split(strings.TrimSpace(string(out)), "\n")
	qv = runQuery(t, v, "SELECT log_time, x, theta FROM messages("+sqlhelper.Quote(bags[0])+", '/turtle1/pose') ORDER BY log_time")
	res := qv.Result()
	if res.Total != len(ref) || len(qv.Shown()) != min(len(ref), query.Limit) {
		t.Fatalf("messages(): %d rows (%d shown), the reference reads %d", res.Total, len(qv.Shown()), len(ref))
	}
	for i, r := range qv.Shown() {
		f := strings.Fields(ref[i])
		ns, _ := strconv.ParseInt(f[0], 10, 64)
		at, err := time.Parse(time.RFC3339Nano, r[0].Text)
		if err != nil || at.UnixNano() != ns {
			t.Errorf("row %d: log_time %s, the reference %d", i, r[0].Text, ns)
		}
		for j, name := range []string{"x", "theta"} {
			got, err1 := strconv.ParseFloat(r[j+1].Text, 64)
			want, err2 := strconv.ParseFloat(f[j+1], 64)
			if err1 != nil || err2 != nil || got != want {
				t.Errorf("row %d: %s %s, the reference %s", i, name, r[j+1].Text, f[j+1])
			}
		}
	}
	if !strings.Contains(qv.Status(), "First 1,000 of 1,344 rows") && query.Limit == 1000 {
		t.Errorf("status %q", qv.Status())
	}

	// The catalogue written for the folder goes as the window closes.
	tmp := v.qcat.tmp
	if tmp == "" || !catalog.IsCatalog(tmp) {
		t.Fatalf("no catalogue was written for the folder (%q)", tmp)
	}
	v.Close()
	if _, err := os.Stat(tmp); !os.IsNotExist(err) {
		t.Errorf("%s is left after the window closed: %v", tmp, err)
	}
}
