package db3

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tableYAML is a metadata table's text as rosbag2 Jazzy writes it at
// close, for files listed; fix edits it.
func tableYAML(files []string, fileCount int, fix func(string) string) string {
	var b strings.Builder
	b.WriteString("version: 9\nstorage_identifier: sqlite3\nduration:\n  nanoseconds: 5000\nstarting_time:\n  nanoseconds_since_epoch: 1000\nmessage_count: 30\ntopics_with_message_count:\n")
	b.WriteString("  - topic_metadata:\n      name: /a\n      type: std_msgs/msg/String\n      serialization_format: cdr\n      offered_qos_profiles:\n        - history: keep_last\n          depth: 0\n    message_count: 10\n")
	b.WriteString("  - topic_metadata:\n      name: /b\n      type: std_msgs/msg/String\n      serialization_format: cdr\n      offered_qos_profiles: []\n    message_count: 20\n")
	b.WriteString("compression_format: \"\"\ncompression_mode: \"\"\nrelative_file_paths:\n")
	for _, f := range files {
		b.WriteString("  - " + f + "\n")
	}
	b.WriteString("files:\n")
	for _, f := range files {
		b.WriteString("  - path: " + f + "\n    starting_time:\n      nanoseconds_since_epoch: 1000\n    duration:\n      nanoseconds: 5000\n    message_count: " + map[bool]string{true: "30", false: "15"}[fileCount == 30] + "\n")
	}
	s := b.String()
	if fix != nil {
		s = fix(s)
	}
	return s
}

func TestTableCounts(t *testing.T) {
	keep := func(s string) string { return s }
	for _, tc := range []struct {
		name, path, yaml string
		ok               bool
	}{
		{"one file, this one", "/x/bag_0.db3", tableYAML([]string{"bag_0.db3"}, 30, keep), true},
		{"by URL, with a query", "https://h/r/bag_0.db3?X-Amz-Signature=abc", tableYAML([]string{"bag_0.db3"}, 30, keep), true},
		{"one file, another name", "/x/other.db3", tableYAML([]string{"bag_0.db3"}, 30, keep), false},
		{"a split set's second file", "/x/bag_1.db3", tableYAML([]string{"bag_0.db3", "bag_1.db3"}, 15, keep), false},
		{"topics do not add up", "/x/bag_0.db3", tableYAML([]string{"bag_0.db3"}, 30, func(s string) string {
			return strings.Replace(s, "message_count: 20", "message_count: 21", 1)
		}), false},
		{"file count differs", "/x/bag_0.db3", tableYAML([]string{"bag_0.db3"}, 15, keep), false},
		{"no starting time", "/x/bag_0.db3", tableYAML([]string{"bag_0.db3"}, 30, func(s string) string {
			return strings.Replace(s, "starting_time:\n  nanoseconds_since_epoch: 1000\n", "", 1)
		}), false},
		{"written at open, not at close", "/x/bag_0.db3", "version: 9\nmessage_count: 0\ntopics_with_message_count: []\nfiles: []\n", false},
		{"not YAML", "/x/bag_0.db3", "{{{", false},
		{"empty", "/x/bag_0.db3", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			by, start, end, ok := tableCounts(tc.yaml, tc.path)
			if ok != tc.ok {
				t.Fatalf("ok = %v, want %v", ok, tc.ok)
			}
			if !ok {
				return
			}
			if by["/a"] != 10 || by["/b"] != 20 || len(by) != 2 || start != 1000 || end != 6000 {
				t.Errorf("got %v %d..%d, want /a 10, /b 20, 1000..6000", by, start, end)
			}
		})
	}
}

// A file read through the VFS (remote, or in memory) whose GROUP BY
// outgrows SQLite's sorter memory: the sorter's temporary file cannot be
// made through the read-only VFS, so it must stay in memory (it was "disk
// I/O error (10)" on the 1M-message bench .db3 over HTTP). A small page
// cache makes 50,000 rows spill as a million do with the default one.
func TestVFSCountSpillsToMemory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.db3")
	makeBag(t, path, 50000, "--small")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := openBytes(data, "")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	conn, err := s.sq.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "PRAGMA cache_size=8"); err != nil {
		t.Fatal(err)
	}
	var got int64
	rows, err := conn.QueryContext(ctx, "SELECT topic_id, count(*), min(timestamp), max(timestamp) FROM messages GROUP BY topic_id")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var id, n, lo, hi int64
		if err := rows.Scan(&id, &n, &lo, &hi); err != nil {
			t.Fatal(err)
		}
		got += n
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("GROUP BY through the VFS: %v", err)
	}
	rows.Close()
	out, err := exec.Command(python, "-c", "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM messages').fetchone()[0])", path).Output()
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.TrimSpace(string(out)); strconv.FormatInt(got, 10) != want {
		t.Errorf("%d messages, python's sqlite3 counts %s", got, want)
	}
}
