#!/usr/bin/env python3
"""dump.py PATH: the oracle. Prints 'id topic_id timestamp hex(data)' for every
messages row of the .db3 at PATH (with its -wal, as SQLite reads it), ordered
by timestamp then id. It reads a private copy: SQLite writes a -shm beside a
WAL-mode file even when opened read-only, and a recording is never written."""
import os, shutil, sqlite3, sys, tempfile

tmp = tempfile.mkdtemp(prefix="dump")
path = os.path.join(tmp, os.path.basename(sys.argv[1]))
for side in ("", "-wal", "-journal"):
    if os.path.exists(sys.argv[1] + side):
        shutil.copyfile(sys.argv[1] + side, path + side)
db = sqlite3.connect(path)
for i, t, ts, d in db.execute("SELECT id, topic_id, timestamp, data FROM messages ORDER BY timestamp, id"):
    print(i, t, ts, bytes(d).hex())
shutil.rmtree(tmp, ignore_errors=True)
