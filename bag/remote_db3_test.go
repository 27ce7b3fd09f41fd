package bag_test

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
)

// A remote .db3's info reads its schema pages and its metadata (the
// metadata table, or the folder's metadata.yaml), never its rows: a few
// requests and well under 1 MB of a 4 MB file (issue 25: 10 round trips,
// 1 MB). The figures must equal the local file's, whose counts come from
// its rows (a GROUP BY), and nginx must have served exactly the requests
// the client counts. A file whose metadata does not describe it alone (a
// split recording's later file) is counted from its rows, and still
// agrees.

// writeDB3 writes a rosbag2 schema-4 .db3 as rosbag2 Jazzy does (the
// metadata table filled at close) with n messages of size bytes over
// three topics, and returns the metadata YAML it wrote into the table.
// files lists the storage files the metadata names (the bag's, as the
// writer knows them when it closes this one).
func writeDB3(t *testing.T, path string, n, size int, files []string) string {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range []string{
		"CREATE TABLE schema(schema_version INTEGER PRIMARY KEY, ros_distro TEXT NOT NULL)",
		"INSERT INTO schema VALUES (4, 'jazzy')",
		"CREATE TABLE metadata(id INTEGER PRIMARY KEY, metadata_version INTEGER NOT NULL, metadata TEXT NOT NULL)",
		"CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, serialization_format TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL, type_description_hash TEXT NOT NULL)",
		"CREATE TABLE message_definitions(id INTEGER PRIMARY KEY, topic_type TEXT NOT NULL, encoding TEXT NOT NULL, encoded_message_definition TEXT NOT NULL, type_description_hash TEXT NOT NULL)",
		"CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, timestamp INTEGER NOT NULL, data BLOB NOT NULL)",
		"CREATE INDEX timestamp_idx ON messages (timestamp ASC)",
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	topics := []string{"/a", "/b", "/c"}
	for i, name := range topics {
		if _, err := db.Exec("INSERT INTO topics VALUES (?, ?, 'std_msgs/msg/String', 'cdr', '', '')", i+1, name); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := db.Exec("INSERT INTO message_definitions VALUES (1, 'std_msgs/msg/String', 'ros2msg', 'string data', '')"); err != nil {
		t.Fatal(err)
	}
	tx, err := db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	counts := make([]int, len(topics))
	const start = int64(1_700_000_000_000_000_000)
	data := make([]byte, size)
	for i := 0; i < n; i++ {
		topic := i % 5 % len(topics) // uneven: /a gets 2 of 5
		counts[topic]++
		data[0] = byte(i)
		if _, err := tx.Exec("INSERT INTO messages (topic_id, timestamp, data) VALUES (?, ?, ?)", topic+1, start+int64(i)*1_000_000, data); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "version: 9\nstorage_identifier: sqlite3\nduration:\n  nanoseconds: %d\nstarting_time:\n  nanoseconds_since_epoch: %d\nmessage_count: %d\ntopics_with_message_count:\n", int64(n-1)*1_000_000, start, n)
	for i, name := range topics {
		fmt.Fprintf(&b, "  - topic_metadata:\n      name: %s\n      type: std_msgs/msg/String\n      serialization_format: cdr\n      offered_qos_profiles: []\n      type_description_hash: \"\"\n    message_count: %d\n", name, counts[i])
	}
	b.WriteString("compression_format: \"\"\ncompression_mode: \"\"\nrelative_file_paths:\n")
	for _, f := range files {
		fmt.Fprintf(&b, "  - %s\n", f)
	}
	b.WriteString("files:\n")
	for _, f := range files {
		fmt.Fprintf(&b, "  - path: %s\n    starting_time:\n      nanoseconds_since_epoch: %d\n    duration:\n      nanoseconds: %d\n    message_count: %d\n", f, start, int64(n-1)*1_000_000, n/len(files))
	}
	b.WriteString("custom_data: ~\nros_distro: jazzy\n")
	if _, err := db.Exec("INSERT INTO metadata VALUES (1, 9, ?)", b.String()); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// summaryOf is what info shows of a recording: counts, times, topics.
func summaryOf(t *testing.T, s bag.Storage) string {
	t.Helper()
	sum, err := s.Summary()
	if err != nil {
		t.Fatalf("summary: %v", err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d messages %v..%v\n", sum.Messages, sum.Start, sum.End)
	for _, tp := range sum.Topics {
		fmt.Fprintf(&b, "%s %s %d\n", tp.Topic, tp.Type, tp.Messages)
	}
	return b.String()
}

func TestRemoteDB3InfoReadsMetadataNotRows(t *testing.T) {
	root := t.TempDir()
	alone := filepath.Join(root, "alone")
	folder := filepath.Join(root, "run")
	split := filepath.Join(root, "split")
	for _, d := range []string{alone, folder, split} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const n, size = 4000, 1000 // about 4.5 MB
	writeDB3(t, filepath.Join(alone, "alone_0.db3"), n, size, []string{"alone_0.db3"})
	md := writeDB3(t, filepath.Join(folder, "run_0.db3"), n, size, []string{"run_0.db3"})
	yaml := "rosbag2_bagfile_information:\n" + indent(md, "  ")
	if err := os.WriteFile(filepath.Join(folder, "metadata.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	// The second file of a split recording: its metadata counts both.
	writeDB3(t, filepath.Join(split, "split_1.db3"), n, size, []string{"split_0.db3", "split_1.db3"})

	web := remotetest.Nginx(t, root)
	defer remote.SetDefault(nil)
	for _, tc := range []struct {
		name, rel, local, file string
		fromMetadata           bool
	}{
		{"lone file, metadata table", "alone/alone_0.db3", "alone/alone_0.db3", "alone/alone_0.db3", true},
		{"folder, metadata.yaml", "run/metadata.yaml", "run", "run/run_0.db3", true},
		{"folder's file alone", "run/run_0.db3", "run/run_0.db3", "run/run_0.db3", true},
		{"split set's later file: counted", "split/split_1.db3", "split/split_1.db3", "split/split_1.db3", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			local, err := bag.Open(filepath.Join(root, tc.local))
			if err != nil {
				t.Fatal(err)
			}
			want := summaryOf(t, local)
			local.Close()

			c := remote.NewClient(remote.Options{})
			remote.SetDefault(c)
			logged := served(t, web)
			s, err := bag.Open(web.URL + tc.rel)
			if err != nil {
				t.Fatal(err)
			}
			got := summaryOf(t, s)
			conns := len(s.Connections())
			s.Close()
			if got != want {
				t.Errorf("remote summary\n%s\nlocal\n%s", got, want)
			}
			if conns != 3 {
				t.Errorf("%d topics, want 3", conns)
			}
			st := c.Stats()
			if n := servedBy(t, web, logged, st.Requests); int64(n) != st.Requests {
				t.Errorf("nginx served %d requests, the client counted %d", n, st.Requests)
			}
			fi, err := os.Stat(filepath.Join(root, tc.file))
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s: %d requests, %d bytes of a %d-byte file", tc.rel, st.Requests, st.Bytes, fi.Size())
			if tc.fromMetadata {
				// The suffix, the first block, metadata.yaml's look-up
				// and the messages table's last leaf: 4 requests.
				if st.Requests > 4 || st.Bytes > 1<<20 {
					t.Errorf("fetched %d bytes in %d requests; want at most 1 MiB in 4", st.Bytes, st.Requests)
				}
			} else if st.Bytes < fi.Size()/2 {
				t.Errorf("fetched %d bytes of %d: the rows were not counted", st.Bytes, fi.Size())
			}
		})
	}
}

// served counts the requests in nginx's access log.
func served(t *testing.T, web *remotetest.HTTPServer) int {
	n := 0
	for _, l := range web.Requests(t) {
		if l != "" {
			n++
		}
	}
	return n
}

// servedBy is how many requests nginx logged since logged, once it has
// logged want of them: nginx writes a request's line after its last byte
// went out, so under load the client can count a request before its line
// is in the log. It waits up to 30 s, and returns at once with more than
// want.
func servedBy(t *testing.T, web *remotetest.HTTPServer, logged int, want int64) int {
	deadline := time.Now().Add(30 * time.Second)
	for {
		n := served(t, web) - logged
		if int64(n) >= want || time.Now().After(deadline) {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func indent(s, pre string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = pre + l
	}
	return strings.Join(lines, "\n") + "\n"
}
