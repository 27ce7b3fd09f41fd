#!/usr/bin/python3
"""write_db3.py: write the .db3 files make_db3s.mjs describes, with Python's
standard sqlite3 module, in rosbag2's schema.

    /usr/bin/python3 testdata/oracle/write_db3.py OUTDIR    # reads OUTDIR/spec.json

Schema versions, as rosbag2_storage_default_plugins creates them:
  1  topics(id, name, type, serialization_format), messages(id, topic_id,
     timestamp, data) and the index on timestamp
  2  topics add offered_qos_profiles (Foxy, Galactic)
  3  schema(schema_version, ros_distro) and metadata(id, metadata_version,
     metadata) tables (Humble)
  4  topics add type_description_hash; message_definitions(id, topic_type,
     encoding, encoded_message_definition, type_description_hash) (Iron and later)
Pragmas: rosbag2's defaults (journal_mode=MEMORY, synchronous=OFF), or WAL
for files marked "wal" (closed cleanly: the WAL is checkpointed and removed,
the header still says WAL).
"""

import base64
import json
import os
import sqlite3
import sys


def topics_ddl(version):
    cols = ["id INTEGER PRIMARY KEY", "name TEXT NOT NULL", "type TEXT NOT NULL", "serialization_format TEXT NOT NULL"]
    if version >= 2:
        cols.append("offered_qos_profiles TEXT NOT NULL")
    if version >= 4:
        cols.append("type_description_hash TEXT NOT NULL")
    return "CREATE TABLE topics(%s)" % ", ".join(cols)


def write(path, f, metadata_version=8):
    if os.path.exists(path):
        os.remove(path)
    v = f["version"]
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=%s" % ("WAL" if f.get("wal") else "MEMORY"))
    db.execute("PRAGMA synchronous=OFF")
    if v >= 3:
        db.execute("CREATE TABLE schema(schema_version INTEGER PRIMARY KEY, ros_distro TEXT NOT NULL)")
        db.execute("CREATE TABLE metadata(id INTEGER PRIMARY KEY, metadata_version INTEGER NOT NULL, metadata TEXT NOT NULL)")
        db.execute("INSERT INTO schema VALUES (?, ?)", (v, "jazzy" if v >= 4 else "humble"))
    db.execute(topics_ddl(v))
    if v >= 4:
        db.execute(
            "CREATE TABLE message_definitions(id INTEGER PRIMARY KEY, topic_type TEXT NOT NULL, encoding TEXT NOT NULL,"
            " encoded_message_definition TEXT NOT NULL, type_description_hash TEXT NOT NULL)"
        )
    db.execute("CREATE TABLE messages(id INTEGER PRIMARY KEY, topic_id INTEGER NOT NULL, timestamp INTEGER NOT NULL, data BLOB NOT NULL)")
    db.execute("CREATE INDEX timestamp_idx ON messages (timestamp ASC)")
    ncols = 4 + (v >= 2) + (v >= 4)
    for t in f["topics"]:
        db.execute("INSERT INTO topics VALUES (%s)" % ",".join("?" * ncols), tuple(t[:ncols]))
    for d in f["defs"]:
        db.execute("INSERT INTO message_definitions(topic_type, encoding, encoded_message_definition, type_description_hash) VALUES (?, ?, ?, ?)", tuple(d))
    db.executemany(
        "INSERT INTO messages(id, topic_id, timestamp, data) VALUES (?, ?, ?, ?)",
        ((m[0], m[1], int(m[2]), base64.b64decode(m[3])) for m in f["messages"]),
    )
    if v >= 3 and f.get("metadata"):
        db.execute("INSERT INTO metadata(metadata_version, metadata) VALUES (?, ?)", (metadata_version, f["metadata"]))
    db.commit()
    db.close()


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: write_db3.py OUTDIR")
    out = sys.argv[1]
    with open(os.path.join(out, "spec.json")) as fh:
        spec = json.load(fh)
    n = 0
    for fx in spec:
        d = os.path.join(out, fx["dir"]) if fx["dir"] else out
        os.makedirs(d, exist_ok=True)
        for f in fx["files"]:
            write(os.path.join(d, f["file"]), f)
            n += 1
        if fx.get("metadataYaml"):
            with open(os.path.join(d, "metadata.yaml"), "w") as fh:
                fh.write(fx["metadataYaml"])
    print("write_db3: %d files" % n)


if __name__ == "__main__":
    main()
