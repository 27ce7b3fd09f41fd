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
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/model/catalog"
	"github.com/bagscope/bagscope/model/sqlhelper"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/library/query"
)

// sqlHelper is bagscope-sql built once for the package's tests (TestMain
// removes it): three tests each linked their own copy of DuckDB.
var sqlHelper uitest.SQLHelper

// TestMain removes the bagscope-sql sqlHelper built.
func TestMain(m *testing.M) {
	code := m.Run()
	sqlHelper.Remove()
	os.Exit(code)
}

// runQuery types q in the library's query box and runs it (Ctrl+Enter).
func runQuery(t *testing.T, v *View, q string) *query.View {
	t.Helper()
	old, every := query.Background, query.ProgressEvery
	query.Background, query.ProgressEvery = uitest.SyncRun, 0
	t.Cleanup(func() { query.Background, query.ProgressEvery = old, every })
	t.Cleanup(v.qcat.remove)
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
	bin := sqlHelper.Build(t)
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
		_, want := uitest.SQLRows(t, bin, cat, q)
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
	oracletest.RequireRef(t)
	out, err := exec.Command(oracletest.Python, "-c", script, bags[0]).Output()
	if err != nil {
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

// TestLibraryQueryBoxMCAP checks a messages() query of an MCAP run in the
// query box against the MCAP oracle (@mcap/core and
// @foxglove/rosmsg2-serialization: testdata/oracle/mcap_cat.mjs), message
// by message: the log time and decoded fields.
func TestLibraryQueryBoxMCAP(t *testing.T) {
	sqlHelper.Build(t)
	oracletest.Require(t)
	dir := t.TempDir()
	mcap := filepath.Join(dir, "ros2-mixed.mcap")
	copyTo(t, "../../testdata/ros2-mixed.mcap", mcap)
	out := oracletest.Run(t, "mcap_cat.mjs", mcap)
	type odom struct {
		Topic string
		Time  struct{ Secs, Nsecs int64 }
		Msg   struct {
			Pose struct {
				Pose struct{ Position struct{ X, Y float64 } }
			}
			Twist struct {
				Twist struct{ Linear struct{ X float64 } }
			}
		}
	}
	var want []odom
	for _, l := range bytes.Split(out, []byte("\n")) {
		if !bytes.Contains(l, []byte(`"/odom"`)) {
			continue
		}
		var o odom
		if err := json.Unmarshal(l, &o); err != nil {
			t.Fatal(err)
		}
		if o.Topic == "/odom" {
			want = append(want, o)
		}
	}
	var opened []string
	v, _ := newLibrary(t, dir, &opened)
	qv := runQuery(t, v, `SELECT log_time, "pose.pose.position.x" AS x, "pose.pose.position.y" AS y, "twist.twist.linear.x" AS vx
FROM messages(`+sqlhelper.Quote(mcap)+`, '/odom') ORDER BY log_time`)
	got := qv.Shown()
	if qv.Result().Total != len(want) || len(want) == 0 || len(got) != min(len(want), query.Limit) {
		t.Fatalf("messages() of /odom: %d rows (%d shown), the oracle reads %d", qv.Result().Total, len(got), len(want))
	}
	for i, r := range got {
		w := want[i]
		at, err := time.Parse(time.RFC3339Nano, r[0].Text)
		if err != nil || at.UnixNano() != w.Time.Secs*1e9+w.Time.Nsecs {
			t.Errorf("row %d: log_time %s, the oracle %d.%09d", i, r[0].Text, w.Time.Secs, w.Time.Nsecs)
		}
		for j, f := range []float64{w.Msg.Pose.Pose.Position.X, w.Msg.Pose.Pose.Position.Y, w.Msg.Twist.Twist.Linear.X} {
			if g, err := strconv.ParseFloat(r[j+1].Text, 64); err != nil || g != f {
				t.Errorf("row %d: %s %s, the oracle %v", i, qv.Result().Columns[j+1], r[j+1].Text, f)
			}
		}
	}
}

// TestLibraryQueryExamples picks each of Examples… in a library of real
// recordings: the query names the library's recording and topic, and
// runs (the one that asks for a field name gets DuckDB's error naming the
// columns there are).
func TestLibraryQueryExamples(t *testing.T) {
	sqlHelper.Build(t)
	dir, _ := fleet(t)
	var opened []string
	v, w := newLibrary(t, dir, &opened)
	v.ShowQuery()
	var sel *widget.Select
	for _, o := range uitest.ShownObjects(w.Content()) {
		if s, ok := o.(*widget.Select); ok {
			sel = s
		}
	}
	if sel == nil || len(sel.Options) < 3 {
		t.Fatalf("no Examples drop-down with 3 examples or more: %v", sel)
	}
	path, topic := v.sample()
	if path == "" || topic == "" {
		t.Fatal("no sample recording and topic")
	}
	named := 0
	for _, name := range sel.Options {
		sel.SetSelected(name)
		q := v.Query().Editor().Text
		if strings.Contains(q, "PATH") || strings.Contains(q, "TOPIC") || strings.Contains(q, "messages(") && !strings.Contains(q, "messages("+sqlhelper.Quote(path)+", "+sqlhelper.Quote(topic)+")") {
			t.Errorf("%s: the query does not name the library's recording %s and topic %s:\n%s", name, path, topic, q)
		}
		if strings.Contains(q, topic) {
			named++
		}
		old, every := query.Background, query.ProgressEvery
		query.Background, query.ProgressEvery = uitest.SyncRun, 0
		t.Cleanup(v.qcat.remove)
		v.Query().Run()
		query.Background, query.ProgressEvery = old, every
		msg := v.Query().Message()
		switch {
		case strings.Contains(q, `"FIELD"`):
			if !strings.Contains(msg, `"FIELD" not found`) || !strings.Contains(msg, "log_time") {
				t.Errorf("%s: %q, want DuckDB's error naming the columns", name, msg)
			}
		case msg != "":
			t.Errorf("%s: %s\n%s", name, msg, q)
		}
	}
	if named < 3 {
		t.Errorf("%d examples name the library's topic %s, want 3 or more", named, topic)
	}
}
