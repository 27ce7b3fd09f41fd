package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestCheckSaysWhere: check names a finding's place as the window's
// Findings tab does: the file of a recording of several and the offset in
// it, or "recording" for a finding about the whole recording, never
// "offset 0" for it; --json gives the file beside the offset.
func TestCheckSaysWhere(t *testing.T) {
	src := filepath.Join(sharedBags, "ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag")
	tests := []struct {
		name   string
		damage func(t *testing.T, dir string)
		// line must match a line of check's text; file is the JSON
		// "file" of the finding whose message contains message.
		line, message, file string
		offset              int64
	}{
		{
			name:    "a file missing",
			damage:  func(t *testing.T, dir string) { must(t, os.Remove(filepath.Join(dir, "wbag_0.db3"))) },
			line:    `^error   recording: metadata\.yaml lists 1 file\(s\) that are not in the folder: wbag_0\.db3`,
			message: "not in the folder",
		},
		{
			name:    "a file cut",
			damage:  func(t *testing.T, dir string) { must(t, os.Truncate(filepath.Join(dir, "wbag_2.db3"), 50000)) },
			line:    `^error   wbag_2\.db3 offset 49152 \(page\): wbag_2\.db3: page 13 of tree messages`,
			message: "page 13 of tree messages",
			file:    "wbag_2.db3",
			offset:  49152,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyRecording(t, src, t.TempDir())
			tc.damage(t, dir)
			out, _, code := run("check", dir)
			if code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if !regexp.MustCompile(`(?m)` + tc.line).MatchString(out) {
				t.Errorf("no line matches %q:\n%s", tc.line, out)
			}
			bare0 := regexp.MustCompile(`^(error|warning|info) +offset 0:`)
			for _, l := range strings.Split(out, "\n") {
				if bare0.MatchString(l) {
					t.Errorf("a finding at \"offset 0\" with no file or record: %s", l)
				}
			}
			js, _, _ := run("check", "--json", dir)
			var rep struct {
				Findings []findingJSON `json:"findings"`
			}
			must(t, json.Unmarshal([]byte(js), &rep))
			found := false
			for _, f := range rep.Findings {
				if strings.Contains(f.Message, tc.message) {
					found = true
					if f.File != tc.file || f.Offset != tc.offset {
						t.Errorf("--json: file %q offset %d, want %q %d: %+v", f.File, f.Offset, tc.file, tc.offset, f)
					}
				}
			}
			if !found {
				t.Errorf("--json: no finding says %q", tc.message)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
