#!/usr/bin/env python3
"""Writes rosbag2-schema .db3 files for bag/db3's tests.

mkdb3.py PATH N [options]   N messages on /chatter (small) and /image (every
10th, 5-20 kB, so it spills onto overflow pages), timestamps jittered so some
rows are written out of timestamp order.
  --wal            journal_mode=WAL, and exit without checkpointing: the rows
                   stay in PATH-wal (a recorder killed after commit)
  --uncommitted K  with --wal: write K more rows in an open transaction, then
                   exit (a recorder killed mid-transaction)
  --unknown-topic  add one message whose topic_id names no topic
  --metadata N     write a metadata table that counts N messages
  --small          messages of 4-200 bytes only
  --page-size P    the database page size
"""
import os, random, sqlite3, sys

args = sys.argv[1:]
path, n = args[0], int(args[1])
opt = lambda k: k in args
val = lambda k, d: int(args[args.index(k) + 1]) if k in args else d
for suffix in ("", "-wal", "-shm", "-journal"):
    if os.path.exists(path + suffix):
        os.remove(path + suffix)
db = sqlite3.connect(path, isolation_level=None)
db.execute("PRAGMA page_size=%d" % val("--page-size", 4096))
if opt("--wal"):
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA wal_autocheckpoint=0")
db.executescript("""
CREATE TABLE schema(schema_version INTEGER PRIMARY KEY,ros_distro TEXT NOT NULL);
CREATE TABLE metadata(id INTEGER PRIMARY KEY,metadata_version INTEGER NOT NULL,metadata TEXT NOT NULL);
CREATE TABLE topics(id INTEGER PRIMARY KEY,name TEXT NOT NULL,type TEXT NOT NULL,serialization_format TEXT NOT NULL,offered_qos_profiles TEXT NOT NULL,type_description_hash TEXT NOT NULL);
CREATE TABLE message_definitions(id INTEGER PRIMARY KEY,topic_type TEXT NOT NULL,encoding TEXT NOT NULL,encoded_message_definition TEXT NOT NULL,type_description_hash TEXT NOT NULL);
CREATE TABLE messages(id INTEGER PRIMARY KEY,topic_id INTEGER NOT NULL,timestamp INTEGER NOT NULL, data BLOB NOT NULL);
CREATE INDEX timestamp_idx ON messages (timestamp ASC);
INSERT INTO schema VALUES(4,'rolling');
""")
db.execute("INSERT INTO topics VALUES(1,'/chatter','std_msgs/msg/String','cdr','- history: keep_last\n  depth: 10\n','RIHS01_aa')")
db.execute("INSERT INTO topics VALUES(2,'/image','sensor_msgs/msg/Image','cdr','','RIHS01_bb')")
db.execute("INSERT INTO topics VALUES(3,'/silent','std_msgs/msg/Empty','cdr','','RIHS01_cc')")
db.execute("INSERT INTO message_definitions VALUES(1,'std_msgs/msg/String','ros2msg','string data','RIHS01_aa')")
if opt("--metadata"):
    db.execute("INSERT INTO metadata VALUES(1,9,?)", ("rosbag2_bagfile_information:\n  version: 9\n  message_count: %d\n" % val("--metadata", 0),))
r = random.Random(1)


def row(i):
    big = i % 10 == 0 and not opt("--small")
    size = r.randint(5000, 20000) if big else r.randint(4, 200)
    data = b"\x00\x01\x00\x00" + r.randbytes(size)
    return (2 if big else 1, 1_000_000_000 + i * 1000 + r.randint(0, 1500), data)


db.execute("BEGIN")
db.executemany("INSERT INTO messages(topic_id,timestamp,data) VALUES(?,?,?)", (row(i) for i in range(n)))
if opt("--unknown-topic"):
    db.execute("INSERT INTO messages(topic_id,timestamp,data) VALUES(99,5,x'00010000')")
db.execute("COMMIT")
if opt("--wal"):
    k = val("--uncommitted", 0)
    if k:
        db.execute("BEGIN")
        db.executemany("INSERT INTO messages(topic_id,timestamp,data) VALUES(?,?,?)", (row(n + i) for i in range(k)))
        sys.stdout.flush()
    os._exit(0)  # no checkpoint, no cleanup: the WAL stays
db.close()
