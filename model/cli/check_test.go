package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestCheckCommand checks exit statuses and the JSON form.
func TestCheckCommand(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		code  int
		first string // a finding expected in the JSON output, "" for none
		// warn is a warning expected (damage that lost no message).
		warn string
	}{
		{"clean", testdata + "/two-conns-one-topic.bag", 0, "", ""},
		// An index never written loses no message: a warning, exit 0.
		{"unindexed", sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag", 0, "", "the index cannot be used"},
		{"truncated", sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag", 1, "the file is truncated", ""},
		{"empty file", sharedBags + "/cruise-automation__rosbag.js/fixtures/empty-file.bag", 2, "", ""},
		{"not a bag", "check_test.go", 2, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, stderr, code := run("check", "--json", tc.file)
			if code != tc.code {
				t.Fatalf("exit %d, want %d: %s %s", code, tc.code, out, stderr)
			}
			if code == 2 {
				if !strings.Contains(stderr, "offset") {
					t.Fatalf("unreadable file without an offset: %s", stderr)
				}
				return
			}
			var got struct {
				Findings []struct {
					Severity string `json:"severity"`
					Offset   int64  `json:"offset"`
					Op       string `json:"op"`
					Message  string `json:"message"`
				} `json:"findings"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, out)
			}
			if tc.first == "" {
				warned := tc.warn == ""
				for _, f := range got.Findings {
					if f.Severity == "error" {
						t.Fatalf("unexpected error finding %+v", f)
					}
					warned = warned || f.Severity == "warning" && strings.Contains(f.Message, tc.warn) && f.Offset > 0
				}
				if !warned {
					t.Fatalf("no warning containing %q in %s", tc.warn, out)
				}
				return
			}
			for _, f := range got.Findings {
				if strings.Contains(f.Message, tc.first) && f.Severity == "error" && f.Offset > 0 {
					return
				}
			}
			t.Fatalf("no error finding containing %q in %s", tc.first, out)
		})
	}
}
