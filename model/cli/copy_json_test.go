package cli

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// verifyCounts is what `verify --json` says of a recording: messages per
// topic, and the bytes lost.
type verifyCounts struct {
	Topics []struct {
		Topic    string `json:"topic"`
		Messages int64  `json:"messages"`
	} `json:"topics"`
	Lost struct {
		Bytes int64 `json:"bytes"`
	} `json:"lost"`
}

func verifyOf(t *testing.T, args ...string) (map[string]int64, int64) {
	t.Helper()
	stdout, stderr, _ := run(append([]string{"verify", "--json"}, args...)...)
	var v verifyCounts
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatalf("verify %v: %v: %q %s", args, err, stdout, stderr)
	}
	m := map[string]int64{}
	for _, tc := range v.Topics {
		m[tc.Topic] = tc.Messages
	}
	return m, v.Lost.Bytes
}

// TestFilterExportJSON checks filter's and export's --json objects against
// what they wrote, read back (verify of the filtered copy, the rows of the
// CSV tables), and against verify of the input with the same selection:
// the counts per topic, the bytes lost, the verdict and the exit status,
// on an intact bag, a ROS 2 MCAP and a cut copy of the bag.
func TestFilterExportJSON(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(robotBag)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.bag")
	if err := os.WriteFile(cut, data[:150000], 0o644); err != nil {
		t.Fatal(err)
	}
	for i, tc := range []struct {
		in   string
		sel  []string
		out  string // filter's output name
		code int    // filter's exit status; export's is 1 where this is 3
		want string // filter's verdict
	}{
		{robotBag, nil, "all.mcap", 0, "ok"},
		{robotBag, []string{"--topics", "/rosout,/tf"}, "two.bag", 0, "ok"},
		{testdata + "/ros2-mixed.mcap", []string{"--exclude", "/imu"}, "ros2.mcap", 0, "ok"},
		{cut, nil, "cut.mcap", 3, "partial"},
	} {
		want, lost := verifyOf(t, append([]string{tc.in}, tc.sel...)...)
		out := filepath.Join(dir, tc.out)
		stdout, stderr, code := run(append([]string{"filter", "--json", tc.in, out}, tc.sel...)...)
		var f struct {
			Output   string           `json:"output"`
			Messages int64            `json:"messages"`
			Read     int64            `json:"read"`
			Topics   []topicCountJSON `json:"topics"`
			Lost     struct {
				Bytes int64 `json:"bytes"`
			} `json:"lost"`
			OK      bool   `json:"ok"`
			Verdict string `json:"verdict"`
		}
		if err := json.Unmarshal([]byte(stdout), &f); err != nil || code != tc.code {
			t.Fatalf("filter %s: exit %d (want %d), %v: %q %s", tc.in, code, tc.code, err, stdout, stderr)
		}
		if f.Output != out || f.Verdict != tc.want || f.OK != (tc.code == 0) || f.Lost.Bytes != lost {
			t.Errorf("filter %s: output %q, verdict %q, ok %v, lost %d bytes; want %q, %q, %v, %d", tc.in, f.Output, f.Verdict, f.OK, f.Lost.Bytes, out, tc.want, tc.code == 0, lost)
		}
		written, _ := verifyOf(t, out)
		var sum int64
		for _, tp := range f.Topics {
			sum += int64(tp.Messages)
			if int64(tp.Messages) != want[tp.Topic] || int64(tp.Messages) != written[tp.Topic] {
				t.Errorf("filter %s: %s: %d messages in the JSON, %d in the input's selection, %d in the copy", tc.in, tp.Topic, tp.Messages, want[tp.Topic], written[tp.Topic])
			}
		}
		if len(f.Topics) != len(want) || sum != f.Messages || f.Read != f.Messages {
			t.Errorf("filter %s: %d topics (input's selection %d), messages %d, read %d, sum %d", tc.in, len(f.Topics), len(want), f.Messages, f.Read, sum)
		}

		tables := filepath.Join(dir, "tables", string(rune('a'+i)))
		stdout, stderr, code = run(append([]string{"export", "--json", "--format", "csv", tc.in, tables}, tc.sel...)...)
		var x struct {
			Output string            `json:"output"`
			Format string            `json:"format"`
			Tables []exportTableJSON `json:"tables"`
			Lost   struct {
				Bytes int64 `json:"bytes"`
			} `json:"lost"`
			OK      bool   `json:"ok"`
			Verdict string `json:"verdict"`
		}
		wantCode := tc.code
		if wantCode == ExitPartial {
			wantCode = ExitProblems
		}
		if err := json.Unmarshal([]byte(stdout), &x); err != nil || code != wantCode {
			t.Fatalf("export %s: exit %d (want %d), %v: %q %s", tc.in, code, wantCode, err, stdout, stderr)
		}
		if x.Output != tables || x.Format != "csv" || x.OK != (code == 0) || (x.Verdict == "ok") != (code == 0) || x.Lost.Bytes != lost {
			t.Errorf("export %s: %+v", tc.in, x)
		}
		if len(x.Tables) != len(want) {
			t.Errorf("export %s: %d tables, the selection has %d topics", tc.in, len(x.Tables), len(want))
		}
		for _, tb := range x.Tables {
			fh, err := os.Open(tb.Path)
			if err != nil {
				t.Errorf("export %s: %v", tc.in, err)
				continue
			}
			recs, err := csv.NewReader(fh).ReadAll()
			fh.Close()
			if err != nil || len(recs) < 1 || int64(len(recs)-1) != tb.Rows || len(recs[0]) != tb.Columns {
				t.Errorf("export %s: %s: %d records, %v; JSON says %d rows, %d columns", tc.in, tb.Path, len(recs), err, tb.Rows, tb.Columns)
			}
			if tb.Rows != want[tb.Topic] {
				t.Errorf("export %s: %s: %d rows, the input's selection has %d messages", tc.in, tb.Topic, tb.Rows, want[tb.Topic])
			}
		}
	}
}
