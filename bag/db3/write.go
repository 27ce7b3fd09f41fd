package db3

import (
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/bagscope/bagscope/bag"
)

// schemaV4 is the rosbag2 SQLite schema of Iron and later (version 4), with
// the message definitions beside the topics.
const schemaV4 = `
PRAGMA journal_mode=OFF;
PRAGMA synchronous=OFF;
CREATE TABLE schema(schema_version INTEGER PRIMARY KEY,ros_distro TEXT NOT NULL);
CREATE TABLE metadata(id INTEGER PRIMARY KEY,metadata_version INTEGER NOT NULL,metadata TEXT NOT NULL);
CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL,type_description_hash TEXT NOT NULL);
CREATE TABLE message_definitions(id INTEGER PRIMARY KEY,topic_type TEXT NOT NULL,encoding TEXT NOT NULL,encoded_message_definition TEXT NOT NULL,type_description_hash TEXT NOT NULL);
CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL, data BLOB NOT NULL);
CREATE INDEX timestamp_idx ON messages (timestamp ASC);
INSERT INTO schema VALUES (4, '');
`

// Write writes every message of src, whose messages must be CDR, as a
// rosbag2 .db3 file (schema version 4, with each type's definition) at the
// path of out, which must be an *os.File: SQLite writes through a path.
// The report counts what was written and what the read of src skipped.
func Write(out io.WriteSeeker, src bag.Storage) (*bag.RepairReport, error) {
	f, ok := out.(*os.File)
	if !ok {
		return nil, errors.New("a .db3 is written to a file")
	}
	rep := &bag.RepairReport{Kept: map[string]uint64{}, Compression: "none"}
	for _, c := range src.Connections() {
		if c.Encoding != "cdr" {
			return rep, fmt.Errorf("connection %d (%s) holds %q messages: a rosbag2 .db3 holds CDR messages; write an .mcap instead", c.ID, c.Topic, c.Encoding)
		}
	}
	db, err := sql.Open("sqlite", "file:"+f.Name())
	if err != nil {
		return rep, err
	}
	defer db.Close()
	if _, err := db.Exec(schemaV4); err != nil {
		return rep, fmt.Errorf("creating the rosbag2 schema: %w", err)
	}
	tx, err := db.Begin()
	if err != nil {
		return rep, err
	}
	defer tx.Rollback()
	defs := map[string]bool{}
	for _, c := range src.Connections() {
		if _, err := tx.Exec(`INSERT INTO topics VALUES (?, ?, ?, ?, ?, ?)`, c.ID, c.Topic, c.Type, c.Encoding, c.Metadata["offered_qos_profiles"], c.Metadata["topic_type_hash"]); err != nil {
			return rep, err
		}
		if c.Definition != "" && !defs[c.Type] {
			defs[c.Type] = true
			if _, err := tx.Exec(`INSERT INTO message_definitions (topic_type, encoding, encoded_message_definition, type_description_hash) VALUES (?, ?, ?, ?)`,
				c.Type, c.SchemaEncoding, c.Definition, c.Metadata["topic_type_hash"]); err != nil {
				return rep, err
			}
		}
	}
	ins, err := tx.Prepare(`INSERT INTO messages (topic_id, timestamp, data) VALUES (?, ?, ?)`)
	if err != nil {
		return rep, err
	}
	defer ins.Close()
	it := src.Messages(bag.MessageFilter{})
	defer it.Close()
	for it.Next() {
		m := it.Message()
		if m.Suspect != "" {
			rep.Suspect++
			continue
		}
		if _, err := ins.Exec(m.Conn.ID, m.Time.Nanos(), m.Data); err != nil {
			return rep, err
		}
		rep.Kept[m.Conn.Topic]++
		rep.Messages++
	}
	if err := it.Err(); err != nil {
		return rep, err
	}
	if sk, ok := it.(interface{ Skipped() []bag.ByteRange }); ok {
		rep.Lost = append(rep.Lost, sk.Skipped()...)
	}
	return rep, tx.Commit()
}
