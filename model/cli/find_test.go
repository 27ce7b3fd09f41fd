package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFindJSONIsCatJSON: each line of find --json is the line cat --json
// prints for that message, with "values" added.
func TestFindJSONIsCatJSON(t *testing.T) {
	for _, tc := range []struct{ file, expr, topic string }{
		{testdata + "/robot.bag", `/rosout.level >= WARN && msg ~ "slip|lost"`, "/rosout"},
		{testdata + "/ros2-mixed.mcap", `/odom.twist.twist.linear.x > 0.509`, "/odom"},
	} {
		out, errOut, code := run("find", tc.file, tc.expr, "--json")
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.expr, code, errOut)
		}
		cat, _, _ := run("cat", tc.file, "--json", "--topics", tc.topic)
		catLines := map[string]string{}
		for _, l := range strings.Split(strings.TrimSpace(cat), "\n") {
			var m struct {
				Time struct{ Secs, Nsecs json.Number }
			}
			json.Unmarshal([]byte(l), &m)
			catLines[m.Time.Secs.String()+"."+m.Time.Nsecs.String()] = l
		}
		hits := strings.Split(strings.TrimSpace(out), "\n")
		if len(hits) == 0 || len(hits) >= len(catLines) {
			t.Fatalf("%s: %d hits of %d messages", tc.expr, len(hits), len(catLines))
		}
		for _, l := range hits {
			var m map[string]json.RawMessage
			if err := json.Unmarshal([]byte(l), &m); err != nil {
				t.Fatalf("%v: %s", err, l)
			}
			if len(m["values"]) < 3 {
				t.Fatalf("no values: %s", l)
			}
			var tm struct{ Secs, Nsecs json.Number }
			json.Unmarshal(m["time"], &tm)
			want, ok := catLines[tm.Secs.String()+"."+tm.Nsecs.String()]
			if !ok {
				t.Fatalf("hit at %s.%s is no message of cat", tm.Secs, tm.Nsecs)
			}
			delete(m, "values")
			delete(m, "publish_time")
			var w map[string]json.RawMessage
			json.Unmarshal([]byte(want), &w)
			for k, v := range w {
				if string(m[k]) != string(v) {
					t.Fatalf("%s: %s is %s, cat --json prints %s", tc.expr, k, m[k], v)
				}
			}
			if len(m) != len(w) {
				t.Fatalf("keys %d, cat's %d", len(m), len(w))
			}
		}
	}
}

// TestFindUsage: a mistake in the expression is a usage error that shows
// where it is; text output names topic, time and values.
func TestFindUsage(t *testing.T) {
	_, errOut, code := run("find", testdata+"/robot.bag", "/odom.pose.pose.positon.x > 1")
	if code != ExitUsage || !strings.Contains(errOut, "column 17") || !strings.Contains(errOut, "^^^") || !strings.Contains(errOut, "pose.pose.position.x") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	_, errOut, code = run("find", testdata+"/robot.bag", "x >")
	if code != ExitUsage || !strings.Contains(errOut, "ends early") {
		t.Errorf("exit %d: %s", code, errOut)
	}
	out, errOut, code := run("find", testdata+"/robot.bag", `level == FATAL`, "--topics", "/rosout")
	if code != 0 || strings.Count(out, "\n") != 4 || !strings.Contains(out, "/rosout  1700000002.130456789 (+2.007)  level=16") {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
	out, _, code = run("find", testdata+"/robot.bag", `level == 99`)
	if code != 0 || out != "" {
		t.Errorf("no hits: exit %d, %q", code, out)
	}
	out, _, code = run("find", testdata+"/robot.bag", `level == ERROR`, "--csv")
	if code != 0 || !strings.HasPrefix(out, "topic,log_time,log_time_ns,seconds,publish_time_ns,level\n/rosout,1700000001.630456789,") {
		t.Errorf("csv: exit %d:\n%s", code, out)
	}
}

// TestFindReportsLoss: a damaged recording's loss is said as cat says it,
// with exit 1.
func TestFindReportsLoss(t *testing.T) {
	cut := sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag"
	if _, err := os.Stat(cut); err != nil {
		t.Skipf("skipping: %v", err)
	}
	_, catErr, catCode := run("cat", cut)
	_, findErr, code := run("find", cut, "@t >= 0")
	if code != ExitProblems || catCode != ExitProblems {
		t.Fatalf("exit %d, cat's %d: %s", code, catCode, findErr)
	}
	for _, l := range strings.Split(strings.TrimSpace(catErr), "\n") {
		if strings.Contains(l, "lost") && !strings.Contains(findErr, l) {
			t.Errorf("find does not say %q:\n%s", l, findErr)
		}
	}
}

// TestFilterAndExportCommands: the commands' outputs, refusals and exit
// statuses.
func TestFilterAndExportCommands(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "errors.mcap")
	stdout, errOut, code := run("filter", testdata+"/robot.bag", out, "--where", "level >= ERROR", "--topics", "/rosout")
	if code != 0 || !strings.Contains(stdout, "8 of 20 messages read, 1 connections") {
		t.Fatalf("exit %d: %s%s", code, stdout, errOut)
	}
	if _, _, code = run("filter", testdata+"/robot.bag", out); code != ExitUsage {
		t.Errorf("over an existing OUT: exit %d", code)
	}
	if _, errOut, code = run("filter", testdata+"/robot.bag", filepath.Join(dir, "x.txt")); code != ExitUsage || !strings.Contains(errOut, "--format") {
		t.Errorf("unknown extension: exit %d %s", code, errOut)
	}
	stdout, _, code = run("filter", testdata+"/robot.bag", filepath.Join(dir, "x.txt"), "--format", "bag", "--range", "1:2")
	if code != 0 || !strings.Contains(stdout, "(ROS 1 bag)") {
		t.Errorf("--format bag: exit %d %s", code, stdout)
	}
	if _, errOut, code = run("filter", testdata+"/robot.bag", filepath.Join(dir, "y.mcap"), "--where", "levle > 1"); code != ExitUsage || !strings.Contains(errOut, "^") {
		t.Errorf("bad --where: exit %d %s", code, errOut)
	}
	stdout, errOut, code = run("export", out, filepath.Join(dir, "csv"), "--format", "csv")
	if code != 0 || !strings.Contains(stdout, "rosout.csv  8 rows") {
		t.Fatalf("export: exit %d %s%s", code, stdout, errOut)
	}
	if _, _, code = run("export", out, filepath.Join(dir, "csv"), "--format", "csv"); code != ExitUsage {
		t.Errorf("export over existing tables: exit %d", code)
	}
	if _, _, code = run("export", out, filepath.Join(dir, "x"), "--format", "xlsx"); code != ExitUsage {
		t.Errorf("export --format xlsx: exit %d", code)
	}
}

// TestMarksCommand lists the bookmarks of a recording's sidecar.
func TestMarksCommand(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "robot.bag")
	data, _ := os.ReadFile(testdata + "/robot.bag")
	os.WriteFile(rec, data, 0o644)
	side := `{"version": 1, "recording": "robot.bag", "bookmarks": [
  {"time": {"secs": 1700000002, "nsecs": 5}, "name": "slip", "note": "left wheel", "topic": "/odom", "created": "2026-01-01T00:00:00Z"}]}`
	os.WriteFile(rec+".bookmarks.json", []byte(side), 0o644)
	out, errOut, code := run("marks", rec)
	if code != 0 || !strings.Contains(out, `bookmark 1700000002.000000005 (+1.876543216)  slip  [/odom]  "left wheel"`) {
		t.Errorf("exit %d:\n%s%s", code, out, errOut)
	}
	out, _, _ = run("marks", rec, "--csv")
	if !strings.HasPrefix(out, "name,note,topic,log_time,log_time_ns,seconds,created\nslip,left wheel,/odom,1700000002.000000005,") {
		t.Errorf("csv:\n%s", out)
	}
	out, _, _ = run("marks", rec, "--json")
	if !strings.Contains(out, `"kind":"bookmark","time":{"secs":1700000002,"nsecs":5,"ns":1700000002000000005},"name":"slip"`) {
		t.Errorf("json:\n%s", out)
	}
}
