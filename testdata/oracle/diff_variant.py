#!/usr/bin/python3
"""Write a copy of a ROS 1 bag with one message changed, dropped or added, with the reference
rosbag (python3-rosbag), and print what was done as one JSON line, for `bagscope diff`'s tests.

Usage: /usr/bin/python3 testdata/oracle/diff_variant.py IN.bag OUT.bag MODE TOPIC N [FIELD DELTA]

MODE is
  change  message N of TOPIC (from 0) with the float FIELD (a dotted path) plus DELTA
  drop    message N of TOPIC left out
  add     message N of TOPIC written again, 1 microsecond later
Every other message is copied raw, byte for byte, at its receive time.
Prints {"topic", "index", "ns", "mode"}: the message's receive time in nanoseconds (the added
copy's, for add).
"""
import json
import sys

import rosbag
import rospy


def main():
    src, dst, mode, topic, n = sys.argv[1:6]
    n = int(n)
    field, delta = (sys.argv[6], float(sys.argv[7])) if mode == "change" else (None, 0.0)
    seen = 0
    done = None
    with rosbag.Bag(src) as bag, rosbag.Bag(dst, "w") as out:
        for tp, raw, when in bag.read_messages(raw=True):
            if tp == topic and seen == n and done is None:
                seen += 1
                ns = when.secs * 10**9 + when.nsecs
                if mode == "drop":
                    done = ns
                    continue
                if mode == "add":
                    out.write(tp, raw, when, raw=True)
                    later = rospy.Time(0, ns + 1000)
                    out.write(tp, raw, later, raw=True)
                    done = ns + 1000
                    continue
                if mode == "change":
                    cls = raw[4]
                    msg = cls()
                    msg.deserialize(raw[1])
                    obj = msg
                    parts = field.split(".")
                    for p in parts[:-1]:
                        obj = getattr(obj, p)
                    setattr(obj, parts[-1], getattr(obj, parts[-1]) + delta)
                    out.write(tp, msg, when)
                    done = ns
                    continue
            elif tp == topic:
                seen += 1
            out.write(tp, raw, when, raw=True)
    if done is None:
        sys.exit("message %d of %s not found" % (n, topic))
    print(json.dumps({"topic": topic, "index": n, "ns": done, "mode": mode}))


if __name__ == "__main__":
    main()
