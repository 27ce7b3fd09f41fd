#!/usr/bin/python3
"""The Python reference for "every message": rosbag's read_messages over all
messages (raw=True: the serialized bytes, no deserialisation), printing the
count and the total payload bytes. Run with /usr/bin/python3.

    py_read_all.py FILE
"""
import sys

import rosbag

n = size = 0
with rosbag.Bag(sys.argv[1]) as bag:
    for _topic, raw, _t in bag.read_messages(raw=True):
        n += 1
        size += len(raw[1])
print(f"{n} messages, {size} bytes")
