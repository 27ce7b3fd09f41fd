#!/usr/bin/env python3
"""dump.py PATH: the oracle. Prints 'id topic_id timestamp hex(data)' for every
messages row of the .db3 at PATH (with its -wal, as SQLite reads it), ordered
by timestamp then id. Run it on a copy: SQLite may write beside the file."""
import sqlite3, sys

db = sqlite3.connect(sys.argv[1])
for i, t, ts, d in db.execute("SELECT id, topic_id, timestamp, data FROM messages ORDER BY timestamp, id"):
    print(i, t, ts, bytes(d).hex())
