#!/usr/bin/python3
"""Dump a ROS 1 bag or a rosbag2 .db3 file as its reference reader sees it, payloads untouched.

Usage: /usr/bin/python3 testdata/raw_dump.py FILE.bag|FILE.db3

One JSON line per connection first, then one per message in the reader's order:

  {"conn": {"topic", "type", "md5sum", "definition", "callerid", "latching", "qos", "encoding"}}
  {"topic": T, "t": NANOSECONDS, "data": BASE64}

- .bag: the rosbag package (python3-rosbag), read_messages(raw=True): receive time order; the
  connection headers as rosbag parsed them.
- .db3: Python's standard sqlite3 module: the topics table (offered_qos_profiles as "qos"), the
  message_definitions table when there is one, and the messages by (timestamp, id).
"""
import base64
import json
import os
import shutil
import sqlite3
import sys
import tempfile


def dump_bag(path):
    import rosbag
    bag = rosbag.Bag(path)
    for c in bag._connections.values():
        h = c.header
        print(json.dumps({"conn": {
            "topic": c.topic, "type": c.datatype, "md5sum": c.md5sum, "definition": c.msg_def,
            "callerid": h.get("callerid", b"").decode() if isinstance(h.get("callerid", b""), bytes) else h.get("callerid", ""),
            "latching": (h.get("latching", b"0") in (b"1", "1")), "encoding": "ros1"}}, sort_keys=True))
    for topic, raw, t in bag.read_messages(raw=True):
        print(json.dumps({"topic": topic, "t": t.secs * 10**9 + t.nsecs, "data": base64.b64encode(raw[1]).decode()}))


def private_copy(path):
    """A copy of the .db3 with its -wal and -journal in a temporary folder. SQLite writes a -shm
    beside a WAL-mode file even when opened read-only, and a recording is never written."""
    d = tempfile.mkdtemp(prefix="raw_dump")
    dst = os.path.join(d, os.path.basename(path))
    for side in ("", "-wal", "-journal"):
        if os.path.exists(path + side):
            shutil.copyfile(path + side, dst + side)
    return d, dst


def dump_db3(path):
    tmp, path = private_copy(path)
    try:
        dump_db3_file(path)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def dump_db3_file(path):
    db = sqlite3.connect("file:" + path + "?mode=ro", uri=True)
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    defs = {}
    if "message_definitions" in tables:
        for typ, enc, text in db.execute("SELECT topic_type, encoding, encoded_message_definition FROM message_definitions"):
            defs[typ] = text
    cols = [r[1] for r in db.execute("PRAGMA table_info(topics)")]
    names = {}
    for row in db.execute("SELECT * FROM topics ORDER BY id"):
        r = dict(zip(cols, row))
        names[r["id"]] = r["name"]
        print(json.dumps({"conn": {"topic": r["name"], "type": r["type"], "encoding": r["serialization_format"],
                                   "qos": r.get("offered_qos_profiles", ""), "definition": defs.get(r["type"], "")}}, sort_keys=True))
    for tid, ts, data in db.execute("SELECT topic_id, timestamp, data FROM messages ORDER BY timestamp, id"):
        print(json.dumps({"topic": names[tid], "t": ts, "data": base64.b64encode(data).decode()}))


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    path = sys.argv[1]
    if path.endswith(".db3"):
        dump_db3(path)
    else:
        dump_bag(path)


main()
