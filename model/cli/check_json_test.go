package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// TestCheckJSONAgreesWithVerify checks check --json's verdict and counts:
// on a whole recording and on copies cut by a crash, it counts the
// messages verify reads, and its verdict follows its errors.
func TestCheckJSONAgreesWithVerify(t *testing.T) {
	dir := t.TempDir()
	cases := []string{testdata + "/ros2-mixed.mcap", testdata + "/robot.bag"}
	for _, src := range []string{testdata + "/ros2-mixed.mcap", testdata + "/lz4-multichunk.bag"} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		cut := filepath.Join(dir, "cut-"+filepath.Base(src))
		if err := os.WriteFile(cut, data[:len(data)*3/4], 0o644); err != nil {
			t.Fatal(err)
		}
		cases = append(cases, cut)
	}
	for _, p := range cases {
		t.Run(filepath.Base(p), func(t *testing.T) {
			cout, stderr, ccode := run("check", "--json", "--quick", p)
			var c checkJSON
			if err := json.Unmarshal([]byte(cout), &c); err != nil {
				t.Fatalf("check --json: %v: %q %s", err, cout, stderr)
			}
			vout, _, _ := run("verify", "--json", p)
			var v verifyJSON
			if err := json.Unmarshal([]byte(vout), &v); err != nil {
				t.Fatalf("verify --json: %v: %q", err, vout)
			}
			if c.Messages != v.Messages {
				t.Errorf("check counts %d messages, verify %d", c.Messages, v.Messages)
			}
			wantVerdict := map[int]string{0: "ok", 1: "errors", 2: "unreadable"}[ccode]
			if c.Verdict != wantVerdict || c.OK != (ccode == 0) || c.Errors == 0 != (ccode == 0) || c.Path != p {
				t.Errorf("exit %d: verdict %q, ok %v, %d errors, path %q", ccode, c.Verdict, c.OK, c.Errors, c.Path)
			}
		})
	}
}
