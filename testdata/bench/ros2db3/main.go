// Command ros2db3 writes the ROS 2 .db3 benchmark recording: the messages
// of package ros2gen, the same 1,000,000 as testdata/bench/ros2mcap, in a rosbag2
// folder as Iron and later write it: one .db3 in schema version 4 (topics
// with QoS and type hashes, message_definitions with the ros2msg texts, the
// schema and metadata tables, the timestamp index) and a metadata.yaml
// (version 9). Written with modernc.org/sqlite in one transaction through a
// prepared insert, with rosbag2's pragmas (journal_mode=MEMORY,
// synchronous=OFF).
//
//	go run ./testdata/bench/ros2db3 OUTDIR   # OUTDIR/mixed_ros2_db3/{metadata.yaml,mixed_ros2_db3_0.db3}
//
// GEN_DURATION (seconds, default 1000) shortens the recording for tests.
package main

import (
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "modernc.org/sqlite"

	"github.com/bagscope/bagscope/testdata/bench/ros2gen"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: ros2db3 OUTDIR")
		os.Exit(2)
	}
	dur, err := ros2gen.Duration()
	if err != nil {
		fmt.Fprintln(os.Stderr, "ros2db3: GEN_DURATION:", err)
		os.Exit(2)
	}
	ev := ros2gen.Events(dur)
	dir := filepath.Join(os.Args[1], "mixed_ros2_db3")
	if err := write(dir, "mixed_ros2_db3_0.db3", ev); err != nil {
		fmt.Fprintln(os.Stderr, "ros2db3:", err)
		os.Exit(1)
	}
	fmt.Println(dir, len(ev), "messages")
}

// write writes dir/name and dir/metadata.yaml; both are replaced.
func write(dir, name string, ev []ros2gen.Event) (err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, name)
	for _, p := range []string{path, path + "-journal", path + "-wal", path + "-shm", filepath.Join(dir, "metadata.yaml")} {
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(MEMORY)&_pragma=synchronous(OFF)")
	if err != nil {
		return err
	}
	defer func() {
		if cerr := db.Close(); err == nil {
			err = cerr
		}
	}()
	db.SetMaxOpenConns(1)
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, q := range []string{
		"CREATE TABLE schema(schema_version INTEGER PRIMARY KEY, ros_distro TEXT NOT NULL)",
		"CREATE TABLE metadata(id INTEGER PRIMARY KEY, metadata_version INTEGER NOT NULL, metadata TEXT NOT NULL)",
		"CREATE TABLE topics(id INTEGER PRIMARY KEY, name TEXT NOT NULL, type TEXT NOT NULL, serialization_format TEXT NOT NULL, offered_qos_profiles TEXT NOT NULL, type_description_hash TEXT NOT NULL)",
		"CREATE TABLE message_definitions(id INTEGER PRIMARY KEY, topic_type TEXT NOT NULL, encoding TEXT NOT NULL, encoded_message_definition TEXT NOT NULL, type_description_hash TEXT NOT NULL)",
		"CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, timestamp INTEGER NOT NULL, data BLOB NOT NULL)",
		"CREATE INDEX timestamp_idx ON messages (timestamp ASC)",
		"INSERT INTO schema VALUES (4, 'jazzy')",
	} {
		if _, err := tx.Exec(q); err != nil {
			return fmt.Errorf("%s: %w", q, err)
		}
	}
	ids := map[string]int{}
	for i, t := range ros2gen.Topics {
		hash := fmt.Sprintf("RIHS01_%064x", i+1) // a placeholder: nothing checks it
		if _, err := tx.Exec("INSERT INTO topics VALUES (?, ?, ?, 'cdr', ?, ?)", i+1, t.Name, t.Type, ros2gen.QoS, hash); err != nil {
			return err
		}
		if _, err := tx.Exec("INSERT INTO message_definitions(topic_type, encoding, encoded_message_definition, type_description_hash) VALUES (?, 'ros2msg', ?, ?)", t.Type, t.Definition, hash); err != nil {
			return err
		}
		ids[t.Name] = i + 1
	}
	ins, err := tx.Prepare("INSERT INTO messages(topic_id, timestamp, data) VALUES (?, ?, ?)")
	if err != nil {
		return err
	}
	defer ins.Close()
	g := ros2gen.NewGenerator()
	counts := map[string]int{}
	for _, e := range ev {
		data, _ := g.Message(e)
		if _, err := ins.Exec(ids[e.Topic], e.T, data); err != nil {
			return err
		}
		counts[e.Topic]++
	}
	meta := metadata(name, ev, counts)
	inner := strings.ReplaceAll(strings.TrimPrefix(meta, "rosbag2_bagfile_information:\n"), "\n  ", "\n")
	inner = strings.TrimPrefix(inner, "  ")
	if _, err := tx.Exec("INSERT INTO metadata(metadata_version, metadata) VALUES (9, ?)", inner); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(meta), 0o644)
}

// metadata is the folder's metadata.yaml, version 9 (QoS as structures).
func metadata(file string, ev []ros2gen.Event, counts map[string]int) string {
	start, end := ev[0].T, ev[0].T
	for _, e := range ev {
		start, end = min(start, e.T), max(end, e.T)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "rosbag2_bagfile_information:\n  version: 9\n  storage_identifier: sqlite3\n")
	fmt.Fprintf(&b, "  duration:\n    nanoseconds: %d\n  starting_time:\n    nanoseconds_since_epoch: %d\n  message_count: %d\n", end-start, start, len(ev))
	b.WriteString("  topics_with_message_count:\n")
	for i, t := range ros2gen.Topics {
		fmt.Fprintf(&b, "    - topic_metadata:\n        name: %s\n        type: %s\n        serialization_format: cdr\n", t.Name, t.Type)
		b.WriteString("        offered_qos_profiles:\n          - history: keep_last\n            depth: 0\n            reliability: reliable\n" +
			"            durability: volatile\n            deadline:\n              sec: 9223372036\n              nsec: 854775807\n" +
			"            lifespan:\n              sec: 9223372036\n              nsec: 854775807\n            liveliness: automatic\n" +
			"            liveliness_lease_duration:\n              sec: 9223372036\n              nsec: 854775807\n" +
			"            avoid_ros_namespace_conventions: false\n")
		fmt.Fprintf(&b, "        type_description_hash: RIHS01_%064x\n      message_count: %d\n", i+1, counts[t.Name])
	}
	b.WriteString("  compression_format: \"\"\n  compression_mode: \"\"\n")
	fmt.Fprintf(&b, "  relative_file_paths:\n    - %s\n", file)
	fmt.Fprintf(&b, "  files:\n    - path: %s\n      starting_time:\n        nanoseconds_since_epoch: %d\n      duration:\n        nanoseconds: %d\n      message_count: %d\n", file, start, end-start, len(ev))
	b.WriteString("  custom_data: ~\n  ros_distro: jazzy\n")
	return b.String()
}
