#!/usr/bin/env python3
"""diag.py: the reference side of the diagnostics tests (model/diag/diagtest).

  diag.py write SPEC.json OUT.bag   write a ROS 1 bag of diagnostic_msgs/DiagnosticArray
                                    messages with the reference rosbag and Debian's
                                    diagnostic_msgs (python3-diagnostic-msgs)
  diag.py dump BAG                  read every DiagnosticArray message of BAG with the
                                    reference rosbag and print one JSON line each:
      {"topic": T, "time_ns": N, "statuses": [{"level", "name", "message",
                                               "hardware_id", "values": [[K, V], ...]}]}

SPEC.json is {"messages": [{"topic", "time_ns", "stamp_ns", "statuses": [...]}]}, the
statuses as dump prints them, the times as decimal strings.
"""
import json
import sys

import rosbag
import rospy
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue


def write(spec_path, out_path):
    with open(spec_path) as f:
        spec = json.load(f)
    with rosbag.Bag(out_path, "w", chunk_threshold=4096) as bag:
        for m in spec["messages"]:
            arr = DiagnosticArray()
            arr.header.stamp = rospy.Time(nsecs=int(m["stamp_ns"]))
            for s in m["statuses"]:
                st = DiagnosticStatus(level=s["level"], name=s["name"], message=s["message"], hardware_id=s["hardware_id"])
                st.values = [KeyValue(key=k, value=v) for k, v in s["values"]]
                arr.status.append(st)
            bag.write(m["topic"], arr, rospy.Time(nsecs=int(m["time_ns"])))


def level_of(b):
    # rosbag gives a ROS 1 byte (int8) as an int; some genpy versions give bytes.
    if isinstance(b, (bytes, bytearray)):
        return b[0]
    return b & 0xFF


def dump(bag_path):
    out = sys.stdout
    with rosbag.Bag(bag_path) as bag:
        for topic, msg, t in bag.read_messages():
            if msg._type != "diagnostic_msgs/DiagnosticArray":
                continue
            sts = [{"level": level_of(s.level), "name": s.name, "message": s.message, "hardware_id": s.hardware_id,
                    "values": [[kv.key, kv.value] for kv in s.values]} for s in msg.status]
            out.write(json.dumps({"topic": topic, "time_ns": t.to_nsec(), "statuses": sts}) + "\n")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "write":
        write(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 3 and sys.argv[1] == "dump":
        dump(sys.argv[2])
    else:
        sys.stderr.write(__doc__)
        sys.exit(2)
