package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/model/human"
)

// cutDB3Sources are real .db3 files of the shared recordings, and
// whether each is large enough (a few hundred pages) that every cut
// must be estimated: in a file of 20 pages, a cut past the last
// message page leaves nothing to estimate from.
var cutDB3Sources = []struct {
	path  string
	large bool
}{
	{"facontidavide__PlotJuggler/datasamples/rosbag2_test/rosbag2_test_0.db3", true},
	{"facontidavide__PlotJuggler/@7365c822/datasamples/rosbag2_test/rosbag2_2020_05_03-09_38_43_0.db3", true},
	{"ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag/wbag_0.db3", false},
	{"ros2__rosbag2/@a1dae364/rosbag2_tests/resources/reindex_test_bags/message_compression/message_compression_0.db3", false},
	{"ros2__rosbag2/@a1dae364/rosbag2_tests/resources/reindex_test_bags/multiple_files/multiple_files_0.db3", false},
}

// sqliteRows counts a .db3's messages rows and pages with Python's
// sqlite3 (the reference reader of the file).
func sqliteRows(t *testing.T, path string) (rows, pages uint64) {
	t.Helper()
	out, err := exec.Command(refPython, "-c", `import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro&immutable=1", uri=True)
print(db.execute("SELECT count(*) FROM messages").fetchone()[0], db.execute("PRAGMA page_count").fetchone()[0])`, path).Output()
	if err != nil {
		t.Skipf("python3 with sqlite3 is needed: %v", err)
	}
	f := strings.Fields(string(out))
	r, _ := strconv.ParseUint(f[0], 10, 64)
	p, _ := strconv.ParseUint(f[1], 10, 64)
	return r, p
}

// TestCutDB3EstimatesItsLoss: a lone .db3 cut short (no metadata.yaml,
// no count of its own) cannot bound what it lost, but its missing pages
// can be estimated from the keys of the leaves cut off and the pages
// read. Cut copies of real .db3 files, at offsets along each, must say
// "about N" lost with N near the truth (the intact original's rows,
// counted by SQLite, less those read: within 25%, or one page's rows,
// as many as the tree's last leaf, being filled, may hold or not), a
// floor ("at least") never above the truth, and a bound, when given, not
// below it; verify (text and --json), info, check and fix say the same
// figure in the same words.
func TestCutDB3EstimatesItsLoss(t *testing.T) {
	estimated := 0
	for _, src := range cutDB3Sources {
		orig := filepath.Join(sharedBags, src.path)
		if _, err := os.Stat(orig); err != nil {
			t.Skipf("the shared recordings are needed: %v", err)
		}
		total, pages := sqliteRows(t, orig)
		data, err := os.ReadFile(orig)
		if err != nil {
			t.Fatal(err)
		}
		perPage := float64(total) / float64(pages)
		for _, frac := range []float64{0.3, 0.45, 0.6, 0.75, 0.9} {
			cut := int64(float64(len(data))*frac) + 123
			name := fmt.Sprintf("%s cut at %d of %d", filepath.Base(src.path), cut, len(data))
			p := filepath.Join(t.TempDir(), filepath.Base(src.path))
			if err := os.WriteFile(p, data[:cut], 0o644); err != nil {
				t.Fatal(err)
			}
			out, vErr, code := run("verify", "--json", p)
			if code != 1 {
				t.Errorf("%s: verify exit %d, want 1: %s", name, code, vErr)
				continue
			}
			var v struct {
				Lost struct {
					Read  uint64  `json:"read"`
					Min   *uint64 `json:"messages_min"`
					Max   *uint64 `json:"messages_max"`
					Exact *uint64 `json:"messages"`
					About uint64  `json:"messages_about"`
				} `json:"lost"`
			}
			if err := json.Unmarshal([]byte(out), &v); err != nil {
				t.Fatalf("%s: %v: %.300s", name, err, out)
			}
			l := v.Lost
			truth := total - l.Read
			switch {
			case l.Exact != nil:
				if *l.Exact != truth {
					t.Errorf("%s: verify says exactly %d lost; %d were", name, *l.Exact, truth)
				}
				continue
			case l.Min == nil:
				t.Errorf("%s: verify gives no loss: %.300s", name, out)
				continue
			case *l.Min > truth:
				t.Errorf("%s: verify says at least %d lost; %d were", name, *l.Min, truth)
			case l.Max != nil && *l.Max < truth:
				t.Errorf("%s: verify says at most %d lost; %d were", name, *l.Max, truth)
			}
			if l.Max != nil {
				continue // bounded: nothing to estimate
			}
			if l.About == 0 {
				if src.large {
					t.Errorf("%s: verify says at least %d lost and gives no estimate; %d were lost", name, *l.Min, truth)
				}
				continue
			}
			estimated++
			diff := float64(l.About) - float64(truth)
			if diff < 0 {
				diff = -diff
			}
			if diff > 0.25*float64(truth) && diff > perPage {
				t.Errorf("%s: verify estimates about %d lost; %d were (%.0f rows a page)", name, l.About, truth, perPage)
			}
			t.Logf("%s: %d read, %d lost, about %d said (at least %d)", name, l.Read, truth, l.About, *l.Min)
			// The same words for the same figure everywhere.
			words := "about " + human.Count(l.About) + " messages (at least " + human.Count(*l.Min) + ") lost"
			_, text, _ := run("verify", p)
			_, info, _ := run("info", p)
			_, check, _ := run("check", p)
			fixOut, fixErr, _ := run("fix", p, filepath.Join(t.TempDir(), "fixed.mcap"))
			for what, s := range map[string]string{"verify": text, "info": info, "check": check, "fix": fixOut + fixErr} {
				if !strings.Contains(s, words) {
					t.Errorf("%s: %s does not say %q:\n%s", name, what, words, s)
				}
			}
		}
	}
	if estimated == 0 {
		t.Errorf("no cut copy was estimated")
	}
}
