#!/usr/bin/python3
"""Prints every message of a bag as genpy decodes it, for message_test.go.

Usage: msg_ref.py BAG [MAX_PER_TOPIC]

One JSON object per line: topic, receive time in nanoseconds, and "fields",
a map from field path ("linear_acceleration.x", "transforms[0].child_frame_id")
to value for every number, bool, string, time and duration in the message
(times and durations as [secs, nsecs]; arrays of uint8 skipped; at most 64
elements of an array). Exit status 3 when rosbag is not installed.
"""
import json
import math
import sys

try:
    import genpy
    import rosbag
except ImportError as e:
    print(e, file=sys.stderr)
    sys.exit(3)


def flatten(v, path, out):
    if isinstance(v, (genpy.Time, genpy.Duration)):
        out[path] = [v.secs, v.nsecs]
    elif hasattr(v, "__slots__") and hasattr(v, "_slot_types"):
        for name in v.__slots__:
            flatten(getattr(v, name), path + "." + name if path else name, out)
    elif isinstance(v, (bytes, bytearray)):
        return
    elif isinstance(v, (list, tuple)):
        for i, e in enumerate(v[:64]):
            flatten(e, "%s[%d]" % (path, i), out)
    elif isinstance(v, float):
        out[path] = v if math.isfinite(v) else repr(v)
    elif isinstance(v, (bool, int, str)):
        out[path] = v


def main():
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 1 << 30
    seen = {}
    with rosbag.Bag(sys.argv[1]) as b:
        for topic, msg, t in b.read_messages():
            seen[topic] = seen.get(topic, 0) + 1
            if seen[topic] > limit:
                continue
            out = {}
            flatten(msg, "", out)
            print(json.dumps({"topic": topic, "t": t.to_nsec(), "fields": out}))


main()
