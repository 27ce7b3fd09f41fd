#!/usr/bin/python3
"""The reference side of the /clock time base (`bagscope plot --x clock`).

  clock_points.py write OUT.bag      writes a ROS 1 bag with the reference writer: /x
                                     (std_msgs/Float64, 20 Hz, 10 s from 1700000000.05) and /clock
                                     (rosgraph_msgs/Clock) from 1 s on, at 100 Hz, sim time starting at
                                     100 s and running at half speed, with a pause (a repeated value)
                                     from 5 s to 6 s; /x's first second lies before any /clock
  clock_points.py points BAG TOPIC   prints, for each message of TOPIC (a std_msgs/Float64), the sim
                                     time of the last /clock received at or before it, in nanoseconds,
                                     and its data, as "SIM_NS VALUE" (repr of the float); messages
                                     received before the first /clock are left out, as a node using
                                     sim time has no time then
  clock_points.py clock BAG          prints each /clock message as "LOG_NS SIM_NS"

Both read and write with the Debian rosbag (genpy), never bagscope's code.
"""
import bisect
import sys

import rosbag
import rospy
from rosgraph_msgs.msg import Clock
from std_msgs.msg import Float64

T0 = 1700000000.05


def write(out):
    with rosbag.Bag(out, "w") as b:
        events = []
        for k in range(200):  # /x at 20 Hz, 10 s
            t = T0 + k * 0.05 + 0.0013  # never at the same time as a /clock message
            m = Float64(data=(k * 0.37) % 5.0 - 2.0 + k / 1000.0)
            events.append((t, "/x", m))
        for k in range(100, 1000):  # /clock at 100 Hz from 1 s
            t = T0 + k * 0.01
            wall = k * 0.01
            sim = 100.0 + (wall if wall < 5.0 else 5.0 if wall < 6.0 else wall - 1.0) * 0.5
            c = Clock()
            c.clock = rospy.Time(int(sim), int(round((sim - int(sim)) * 1e9)))
            events.append((t, "/clock", c))
        events.sort(key=lambda e: e[0])
        for t, topic, m in events:
            b.write(topic, m, rospy.Time.from_sec(t))


def points(path, topic):
    logs, sims = [], []
    vals = []
    with rosbag.Bag(path) as b:
        for tp, m, t in b.read_messages(topics=["/clock", topic]):
            if tp == "/clock":
                logs.append(t.to_nsec())
                sims.append(m.clock.to_nsec())
            else:
                vals.append((t.to_nsec(), m.data))
    for t, v in vals:
        i = bisect.bisect_right(logs, t)
        if i == 0:
            continue
        print(sims[i - 1], repr(v))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "write":
        write(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "clock":
        with rosbag.Bag(sys.argv[2]) as b:
            for _, m, t in b.read_messages(topics=["/clock"]):
                print(t.to_nsec(), m.clock.to_nsec())
    elif len(sys.argv) == 4 and sys.argv[1] == "points":
        points(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
