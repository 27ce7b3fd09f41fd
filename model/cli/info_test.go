package cli

import (
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestInfoJSONMatchesReference compares `info --json` with the reference's
// view of every real bag (testdata/ref_info.py), key by key.
func TestInfoJSONMatchesReference(t *testing.T) {
	requireRef(t)
	for _, p := range allBags(t) {
		t.Run(name(p), func(t *testing.T) {
			t.Parallel()
			ref, err := exec.Command(refPython, testdata+"/ref_info.py", p).Output()
			if err != nil {
				t.Fatalf("ref_info.py: %v", err)
			}
			var want map[string]any
			if err := json.Unmarshal(ref, &want); err != nil {
				t.Fatal(err)
			}
			out, stderr, code := run("info", "--json", p)
			if refErr, ok := want["error"]; ok {
				if strings.Contains(fmt.Sprint(refErr), "Unindexed") {
					// bagscope scans what the reference refuses. Exit 1
					// only when the scan lost part of the file (a cut
					// recording), with the loss in the JSON and each
					// lost range's offset on stderr; a bag whose index
					// was never written loses nothing (exit 0), and its
					// counts are those of the reference's own reindexed
					// copy.
					var got infoJSON
					if err := json.Unmarshal([]byte(out), &got); err != nil || got.Lost == nil {
						t.Fatalf("unindexed bag: exit %d, %v: %s", code, err, out)
					}
					lost := len(got.Lost.Ranges) > 0 || got.Lost.Messages().Min > 0 || got.Lost.Suspect > 0
					if got.Indexed || lost != (code == 1) || !lost && code != 0 {
						t.Fatalf("unindexed bag: exit %d, %s %s", code, out, stderr)
					}
					if lost && !strings.Contains(stderr, "lost") || lost && !strings.Contains(stderr, "offset") {
						t.Fatalf("unindexed bag with a loss: stderr %q", stderr)
					}
					if lost {
						return
					}
					ref := refReindexed(t, p)
					if got.Messages != ref.Messages || len(got.Topics) != len(ref.Topics) {
						t.Fatalf("unindexed bag: %d messages in %d topics, the reindexed reference %d in %d", got.Messages, len(got.Topics), ref.Messages, len(ref.Topics))
					}
					for i, tp := range ref.Topics {
						if g := got.Topics[i]; g.Topic != tp.Topic || g.Messages != tp.Messages || g.Type != tp.Type {
							t.Errorf("topic %d: %+v, the reindexed reference %+v", i, g, tp)
						}
					}
					return
				}
				if code == 0 {
					t.Fatalf("reference fails (%v) but info succeeded: %s", refErr, out)
				}
				if stderr == "" || !strings.Contains(stderr, "offset") {
					t.Fatalf("error without an offset: %q", stderr)
				}
				return
			}
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			var got map[string]any
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("output is not one JSON object: %v\n%s", err, out)
			}
			stripStatsKeys(got)
			for k := range want {
				if !reflect.DeepEqual(got[k], want[k]) {
					t.Errorf("%s:\n got %v\nwant %v", k, got[k], want[k])
				}
			}
			if got["format"] != "ROS 1 bag" {
				t.Errorf("format %v, want ROS 1 bag", got["format"])
			}
			delete(got, "format") // the reference reads only ROS 1 bags
			// The reference says nothing of loss: these recordings lost none.
			if l, ok := got["lost"].(map[string]any); !ok || l["messages"] != float64(0) || len(l["ranges"].([]any)) != 0 {
				t.Errorf("lost %v, want none", got["lost"])
			}
			delete(got, "lost")
			// An intact indexed bag's counts are its index's.
			if got["counted"] != "index" {
				t.Errorf("counted %v, want index", got["counted"])
			}
			delete(got, "counted")
			for k := range got {
				if _, ok := want[k]; !ok {
					t.Errorf("unexpected key %q", k)
				}
			}
		})
	}
}

// TestInfoText checks the human-readable summary of a fixture.
func TestInfoText(t *testing.T) {
	out, stderr, code := run("info", testdata+"/two-conns-one-topic.bag")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"version:     2.0",
		"messages:    14",
		"compression: none [1/1 chunks]",
		"std_msgs/String [992ce8a1687cec8c8bd883ec73ca41d1]",
		"(3 connections)",
		"/robot_mode",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestInfoScansUnindexed checks that info reads an unindexed bag by
// scanning and says so, and that the 100 bytes the truncation cost are
// reported on stderr with their offset and make the exit status 1.
func TestInfoScansUnindexed(t *testing.T) {
	out, stderr, code := run("info", sharedBags+"/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag")
	if code != 1 || !strings.Contains(stderr, "offset 5892: ") || !strings.Contains(stderr, "recovered 3 messages") || !strings.Contains(stderr, "100 B unreadable") {
		t.Fatalf("exit %d, stderr %q; want 1 and the lost 100 bytes at 5892", code, stderr)
	}
	for _, want := range []string{
		"indexed:     no",
		"scanned:     offset 17 (bag header record): bag header has index_pos 0",
		"cut none chunk at 4117: 3 messages salvaged",
		"skipped bytes 5892..5992 (100 bytes)",
		"/rosout_agg   3 msgs",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestCommandErrors checks exit statuses and messages for bad input.
func TestCommandErrors(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		code     int
		contains string
	}{
		{"no file", []string{"info"}, 2, "info: missing FILE"},
		{"missing file", []string{"info", "/nonexistent.bag"}, 2, "no such file"},
		{"empty file", []string{"info", sharedBags + "/cruise-automation__rosbag.js/fixtures/empty-file.bag"}, 2, "offset 0: empty file"},
		{"not a bag", []string{"records", "helpers_test.go"}, 2, "offset 0: the file starts with"},
		{"truncated records", []string{"records", sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag"}, 1, "offset 4117 (chunk record): chunk record declares 5544 data bytes but only 1826 remain"},
		{"unknown command", []string{"frobnicate"}, 2, "unknown command"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, stderr, code := run(tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			if !strings.Contains(stderr, tc.contains) {
				t.Errorf("stderr %q lacks %q", stderr, tc.contains)
			}
		})
	}
}

// refReindexed is the reference's info of a copy of the unindexed bag p
// that the reference reindexed (what `rosbag reindex` does).
func refReindexed(t *testing.T, p string) infoJSON {
	t.Helper()
	cp := filepath.Join(t.TempDir(), filepath.Base(p))
	script := `import rosbag, shutil, sys
shutil.copy(sys.argv[1], sys.argv[2])
with rosbag.Bag(sys.argv[2], 'a', allow_unindexed=True) as b:
    for _ in b.reindex():
        pass`
	if out, err := exec.Command(refPython, "-c", script, p, cp).CombinedOutput(); err != nil {
		t.Fatalf("rosbag reindex: %v: %s", err, out)
	}
	ref, err := exec.Command(refPython, testdata+"/ref_info.py", cp).Output()
	if err != nil {
		t.Fatalf("ref_info.py: %v", err)
	}
	var v infoJSON
	if err := json.Unmarshal(ref, &v); err != nil {
		t.Fatal(err)
	}
	return v
}
