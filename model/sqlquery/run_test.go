package sqlquery

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
	"github.com/bagscope/bagscope/model/catalog"
)

const (
	testdata  = "../../testdata"
	refPython = oracletest.Python
)

// requireRef skips when the reference rosbag is missing, except in CI.
func requireRef(t *testing.T) {
	t.Helper()
	oracletest.RequireRef(t)
}

// query runs q and returns its rows (--json).
func query(t *testing.T, q string, o Options) []map[string]any {
	t.Helper()
	o.Format = JSON
	var out bytes.Buffer
	if err := Run(context.Background(), q, o, &out); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var rows []map[string]any
	dec := json.NewDecoder(&out)
	dec.UseNumber()
	for dec.More() {
		var r map[string]any
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, r)
	}
	return rows
}

// refMessages reads one topic with the reference reader
// (testdata/genpy_dump.py): each message's receive time and decoded fields.
func refMessages(t *testing.T, path, topic string) []map[string]any {
	t.Helper()
	out, err := exec.Command(refPython, testdata+"/genpy_dump.py", path, "--topic", topic).Output()
	if err != nil {
		t.Fatalf("genpy_dump.py: %v", err)
	}
	var msgs []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.UseNumber()
		var m map[string]any
		if err := dec.Decode(&m); err != nil {
			t.Fatal(err)
		}
		msgs = append(msgs, m)
	}
	return msgs
}

func field(m map[string]any, path string) any {
	var v any = m
	for _, p := range strings.Split(path, ".") {
		v = v.(map[string]any)[p]
	}
	return v
}

// TestMessagesMatchReference: every row of messages() holds the receive
// time and the field values the reference reader decodes, in its order,
// and an aggregate over them is the reference's.
func TestMessagesMatchReference(t *testing.T) {
	requireRef(t)
	tests := []struct {
		path, topic string
		fields      []string
	}{
		{testdata + "/robot.bag", "/odom", []string{"pose.pose.position.x", "twist.twist.angular.z", "header.seq", "child_frame_id"}},
		{testdata + "/robot.bag", "/rosout", []string{"level", "msg", "name"}},
		{"../../../shared/bags/cruise-automation__rosbag.js/fixtures/example.bag", "/turtle1/pose", []string{"x", "theta", "linear_velocity"}},
	}
	for _, tc := range tests {
		t.Run(filepath.Base(tc.path)+tc.topic, func(t *testing.T) {
			if _, err := os.Stat(tc.path); err != nil {
				t.Skipf("skipping: %v", err)
			}
			ref := refMessages(t, tc.path, tc.topic)
			cols := []string{"epoch_ns(log_time) AS t"}
			for _, f := range tc.fields {
				cols = append(cols, `"`+f+`"`)
			}
			rows := query(t, "SELECT "+strings.Join(cols, ", ")+" FROM messages("+Quote(tc.path)+", "+Quote(tc.topic)+") ORDER BY log_time", Options{})
			if len(rows) != len(ref) || len(rows) == 0 {
				t.Fatalf("%d rows; the reference reads %d messages", len(rows), len(ref))
			}
			var sum, refSum float64
			for i, r := range rows {
				want := ref[i]
				if r["t"].(json.Number).String() != field(want, "time.ns").(json.Number).String() {
					t.Fatalf("row %d: time %v; reference %v", i, r["t"], field(want, "time.ns"))
				}
				for _, f := range tc.fields {
					got, exp := r[f], field(want["msg"].(map[string]any), f)
					if gn, ok := got.(json.Number); ok {
						g, _ := gn.Float64()
						e, _ := exp.(json.Number).Float64()
						if g != e {
							t.Fatalf("row %d: %s = %v; reference %v", i, f, got, exp)
						}
						if f == tc.fields[0] {
							sum, refSum = sum+g, refSum+e
						}
						continue
					}
					if got != exp {
						t.Fatalf("row %d: %s = %v; reference %v", i, f, got, exp)
					}
				}
			}
			agg := query(t, "SELECT count(*) AS n, sum("+`"`+tc.fields[0]+`"`+") AS s FROM messages("+Quote(tc.path)+", "+Quote(tc.topic)+")", Options{})
			n, _ := agg[0]["n"].(json.Number).Int64()
			s, _ := agg[0]["s"].(json.Number).Float64()
			if int(n) != len(ref) || math.Abs(s-refSum) > 1e-9*math.Max(1, math.Abs(refSum)) {
				t.Errorf("count %d, sum %v; the reference has %d, %v", n, s, len(ref), refSum)
			}
		})
	}
}

// TestCatalogQuery: with a catalogue, recordings and topics are its
// tables, and a query joining them with messages() of a recording works.
func TestCatalogQuery(t *testing.T) {
	requireRef(t)
	dir := t.TempDir()
	for _, f := range []string{"robot.bag", "tf.bag", "two-conns-one-topic.bag"} {
		b, err := os.ReadFile(testdata + "/" + f)
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o644)
	}
	cat := filepath.Join(t.TempDir(), "cat")
	if _, err := catalog.Build(context.Background(), []string{dir}, catalog.Options{Out: cat}); err != nil {
		t.Fatal(err)
	}
	rows := query(t, "SELECT path, messages FROM recordings ORDER BY path", Options{Catalog: cat})
	if len(rows) != 3 {
		t.Fatalf("%d recordings; want 3", len(rows))
	}
	for _, r := range rows {
		p := r["path"].(string)
		n, _ := r["messages"].(json.Number).Int64()
		out, err := exec.Command(refPython, "-c", "import rosbag,sys; print(rosbag.Bag(sys.argv[1]).get_message_count())", p).Output()
		if err != nil {
			t.Fatal(err)
		}
		if strings.TrimSpace(string(out)) != r["messages"].(json.Number).String() {
			t.Errorf("%s: %d messages; the reference counts %s", p, n, out)
		}
	}
	robot := filepath.Join(dir, "robot.bag")
	rows = query(t, "SELECT r.path, t.messages, (SELECT count(*) FROM messages("+Quote(robot)+", '/tf')) AS read FROM topics t JOIN recordings r USING (path) WHERE t.topic = '/tf' ORDER BY r.path", Options{Catalog: cat})
	if len(rows) != 2 {
		t.Fatalf("recordings with /tf: %v; want robot.bag and tf.bag", rows)
	}
	for _, r := range rows {
		if r["path"] == robot && r["messages"].(json.Number).String() != r["read"].(json.Number).String() {
			t.Errorf("robot.bag /tf: catalogue %v, messages() %v", r["messages"], r["read"])
		}
	}
}

// TestQueryErrors: a topic the recording lacks, and bad SQL, are the
// query's errors.
func TestQueryErrors(t *testing.T) {
	for _, q := range []string{
		"SELECT * FROM messages('" + testdata + "/robot.bag', '/nope')",
		"SELEC 1",
	} {
		err := Run(context.Background(), q, Options{Format: JSON}, &bytes.Buffer{})
		if err == nil || !IsQueryError(err) {
			t.Errorf("%s: %v; want a query error", q, err)
		}
	}
}
