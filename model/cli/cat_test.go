package cli

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/oracletest"
)

// TestCatJSONMatchesReference compares `cat --json` with the reference's
// decoding (genpy, through testdata/genpy_dump.py) message by message on
// every real bag and fixture.
func TestCatJSONMatchesReference(t *testing.T) {
	requireRef(t)
	for _, p := range allBags(t) {
		t.Run(name(p), func(t *testing.T) {
			t.Parallel()
			out, stderr, code := run("cat", "--json", p)
			cmd := exec.Command(refPython, testdata+"/genpy_dump.py", p)
			var refErr bytes.Buffer
			cmd.Stderr = &refErr
			ref, err := cmd.Output()
			if err != nil {
				// The reference cannot read unindexed or empty bags; bagscope
				// reads what it can (compared with reindex in the scan tests).
				if code == 2 || (code == 1 && strings.Contains(stderr, "offset")) || strings.Contains(refErr.String(), "nindexed") {
					return
				}
				t.Fatalf("genpy_dump.py failed: %v\n%s", err, refErr.String())
			}
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			got := jsonLines(t, out)
			want := jsonLines(t, string(ref))
			if len(got) != len(want) {
				t.Fatalf("got %d messages, reference has %d", len(got), len(want))
			}
			sortJSONTies(got)
			sortJSONTies(want)
			for i := range got {
				if !reflect.DeepEqual(got[i], want[i]) {
					g, _ := json.Marshal(got[i])
					w, _ := json.Marshal(want[i])
					t.Fatalf("message %d differs:\n got %.600s\nwant %.600s", i, g, w)
				}
			}
		})
	}
}

// jsonLines parses one JSON object per line, keeping numbers exact.
func jsonLines(t *testing.T, s string) []map[string]any {
	t.Helper()
	return oracletest.MustJSONLines(t, "JSON lines", []byte(s))
}

// sortJSONTies orders messages by time, then by their text, so that the
// readers' different tie orders (and the reference's unsorted-chunk order)
// do not matter.
func sortJSONTies(ms []map[string]any) {
	key := func(m map[string]any) (string, string) {
		tm := m["time"].(map[string]any)
		b, _ := json.Marshal(m)
		return padNum(tm["secs"]) + "." + padNum(tm["nsecs"]), string(b)
	}
	slices.SortStableFunc(ms, func(a, b map[string]any) int {
		ta, ja := key(a)
		tb, jb := key(b)
		if c := strings.Compare(ta, tb); c != 0 {
			return c
		}
		return strings.Compare(ja, jb)
	})
}

func padNum(v any) string {
	s := string(v.(json.Number))
	return strings.Repeat("0", max(0, 12-len(s))) + s
}

// TestCatFilters checks --topic, --start and --end on a fixture.
func TestCatFilters(t *testing.T) {
	f := testdata + "/none-multichunk.bag"
	count := func(args ...string) int {
		out, stderr, code := run(append(append([]string{"cat", "--json"}, args...), f)...)
		if code != 0 {
			t.Fatalf("cat %v: exit %d: %s", args, code, stderr)
		}
		return strings.Count(out, "\n")
	}
	tests := []struct {
		name string
		args []string
		want int
	}{
		{"all", nil, 286},
		{"one topic", []string{"--topic", "/imu"}, 150},
		{"two topics", []string{"--topic", "/imu", "--topic", "/odom"}, 180},
		{"relative start", []string{"--start", "+1.5"}, 0},
		{"relative window", []string{"--topic", "/imu", "--start", "+0", "--end", "+0.1"}, 6},
		{"absolute end", []string{"--topic", "/imu", "--end", "1700000000.123456789"}, 1},
	}
	tests[3].want = -1
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := count(tc.args...)
			if tc.want >= 0 && got != tc.want {
				t.Fatalf("%d messages, want %d", got, tc.want)
			}
			if tc.want < 0 && (got == 0 || got >= 286) {
				t.Fatalf("%d messages: --start +1.5 should drop some and keep some", got)
			}
		})
	}
	if _, stderr, code := run("cat", "--start", "yesterday", f); code == 0 || !strings.Contains(stderr, "bad time") {
		t.Fatalf("bad --start accepted: %d %s", code, stderr)
	}
}
