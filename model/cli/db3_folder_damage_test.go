package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/db3/db3test"
)

// damagedDB3Healthy writes a healthy 3000-message .db3 with bag/db3's
// fixture script and returns its bytes and its folder's metadata.yaml.
func damagedDB3Healthy(t *testing.T) ([]byte, string) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "h.db3")
	db3test.Write(t, p, 3000)
	out, err := exec.Command(refPython, "-c", `import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(*db.execute("SELECT min(timestamp), max(timestamp) FROM messages").fetchone())
for n, c in db.execute("SELECT t.name, count(m.id) FROM topics t LEFT JOIN messages m ON m.topic_id = t.id GROUP BY t.id ORDER BY t.id"):
    print(n, c)`, p).Output()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	var start, end int64
	var topics []db3test.Topic
	types := map[string]string{"/chatter": "std_msgs/msg/String", "/image": "sensor_msgs/msg/Image", "/silent": "std_msgs/msg/Empty"}
	for i, l := range lines {
		f := strings.Fields(l)
		if i == 0 {
			start, end = atoi64(f[0]), atoi64(f[1])
			continue
		}
		topics = append(topics, db3test.Topic{Name: f[0], Type: types[f[0]], Messages: int(atoi64(f[1]))})
	}
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b, db3test.FolderMetadata("bag_0.db3", topics, start, end)
}

func atoi64(s string) int64 {
	var n int64
	for _, c := range s {
		n = n*10 + int64(c-'0')
	}
	return n
}

// summaryLine is check's last line, which names the path.
var summaryLine = regexp.MustCompile(`(?m)^.*: (\d+) messages \((\d+) in complete chunks\); (\d+) errors, (\d+) findings in all\n?$`)

// TestCheckDamagedDB3Folder runs check (--quick: the fixture's messages
// are random bytes, not CDR) and info on each damaged variant of a .db3,
// alone and in a bag folder whose metadata.yaml describes the healthy
// file (so the folder opens without counting the rows). check must exit
// the same on both with the same findings, each naming its offset: 1 when
// the copy lost messages (or cannot tell), 0 when it lost none; info must
// show the rescue and the loss when the damage is found without reading
// the rows (a cut file, a damaged header), as it does for the lone file.
func TestCheckDamagedDB3Folder(t *testing.T) {
	healthy, meta := damagedDB3Healthy(t)
	write := func(t *testing.T, data []byte) (lone, folder string) {
		lone = filepath.Join(t.TempDir(), "bag_0.db3")
		folder = t.TempDir()
		for p, b := range map[string][]byte{lone: data, filepath.Join(folder, "bag_0.db3"): data, filepath.Join(folder, "metadata.yaml"): []byte(meta)} {
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return lone, folder
	}
	t.Run("healthy", func(t *testing.T) {
		_, folder := write(t, healthy)
		if out, stderr, code := run("check", "--quick", folder); code != 0 {
			t.Fatalf("check of the healthy folder: exit %d\n%s%s", code, out, stderr)
		}
	})
	// errorLines are check's errors, without the file name a folder puts
	// before them (the folder adds warnings of its own: metadata.yaml
	// disagrees with what the damaged file holds).
	errorLines := func(out string) string {
		var keep []string
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "error") {
				// The folder's check names the file (in the place and in
				// the message), the lone file's does not.
				l = strings.Replace(l, "bag_0.db3 offset ", "offset ", 1)
				keep = append(keep, strings.ReplaceAll(l, "bag_0.db3: ", ""))
			}
		}
		return strings.Join(keep, "\n")
	}
	for _, tc := range db3test.Damaged(healthy) {
		t.Run(tc.Name, func(t *testing.T) {
			data, _ := tc.Damage(healthy)
			lone, folder := write(t, data)
			lout, lerr, lcode := run("check", "--quick", lone)
			for _, p := range []string{folder, filepath.Join(folder, "metadata.yaml")} {
				out, stderr, code := run("check", "--quick", p)
				if code == 2 && strings.Contains(lout, "the file cannot be read") {
					// Nothing of the file opens: the recording is unreadable.
					if !offsetLine.MatchString(stderr) {
						t.Errorf("check %s: exit 2 and no offset: %s", p, stderr)
					}
					continue
				}
				if code != lcode || errorLines(out) != errorLines(lout) {
					t.Errorf("check %s: exit %d\n%s%s\nthe lone file: exit %d\n%s%s", p, code, out, stderr, lcode, lout, lerr)
				}
			}
			// The truth, from the healthy file's 3000 messages: a copy
			// that reads fewer lost some, and every command exits 1; one
			// that reads them all exits 0 unless the report cannot tell
			// (a range that may hold rows, suspect rows). A damaged header
			// or index page, or a free page, loses nothing.
			ij, _, _ := run("info", "--json", "--read-all", lone)
			var info infoJSON
			json.Unmarshal([]byte(ij), &info)
			wantLoss := info.Messages < 3000
			if l := info.Lost; l != nil {
				if wantLoss && len(l.Ranges) == 0 && l.Messages().Min == 0 {
					t.Errorf("%d of 3000 messages read, and the loss is not said: %s", info.Messages, ij)
				}
				wantLoss = wantLoss || len(l.Ranges) > 0 || l.Messages().Min > 0 || l.Suspect > 0
			}
			if lout != "" && (lcode == 1) != wantLoss {
				t.Fatalf("check of the damaged file: exit %d, %d of 3000 messages read, %s\n%s", lcode, info.Messages, ij, lout)
			}
			for _, l := range strings.Split(strings.TrimSpace(lout), "\n") {
				if !strings.HasPrefix(l, "error") && !strings.HasPrefix(l, "warning") && !strings.HasPrefix(l, "info") && !summaryLine.MatchString(l+"\n") {
					t.Errorf("check: a line that is no finding: %s", l)
				}
				if strings.HasPrefix(l, "error") && !offsetLine.MatchString(l) {
					t.Errorf("check: an error without an offset: %s", l)
				}
			}
			found := strings.HasPrefix(tc.Name, "cut at") || tc.Name == "header zeroed" || tc.Name == "page 1 garbage"
			lo, le, lc := run("info", lone)
			fo, _, fc := run("info", folder)
			// info exits 1 when it lost part of the file, saying where on
			// stderr. A folder whose metadata.yaml gives the counts opens
			// without reading the rows, so damage in a data page is
			// found at the first read, not by info (exit 0 there).
			if fc != lc && (found || fc > lc) {
				t.Errorf("info: exit %d; the lone file's %d", fc, lc)
			}
			if lc == 1 && !offsetLine.MatchString(le) {
				t.Errorf("info: exit 1 without a loss at an offset on stderr: %q", le)
			}
			if lo != "" && (lc == 1) != wantLoss {
				t.Errorf("info: exit %d, %d of 3000 messages read\n%s", lc, info.Messages, lo)
			}
			if wantLoss && lo != "" && !strings.Contains(lo, "skipped bytes") {
				t.Errorf("info: a loss, and no skipped bytes listed\n%s", lo)
			}
			if !found || lo == "" {
				return // not found at open, or the file cannot be read at all
			}
			scan := func(out string) string {
				var keep []string
				for _, l := range strings.Split(out, "\n") {
					if strings.HasPrefix(l, "Messages:") || strings.HasPrefix(l, "Indexed:") || strings.Contains(l, "skipped bytes") || strings.Contains(l, "lost") {
						keep = append(keep, strings.ReplaceAll(l, "bag_0.db3: ", ""))
					}
				}
				return strings.Join(keep, "\n")
			}
			if !strings.Contains(lo, "Indexed:           no") || scan(fo) != scan(lo) {
				t.Errorf("info of the folder:\n%s\nof the lone file:\n%s", fo, lo)
			}
		})
	}
}
