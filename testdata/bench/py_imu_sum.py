#!/usr/bin/python3
"""The Python reference for "/imu.linear_acceleration.x": read_messages on
/imu (deserialised by genpy) summing linear_acceleration.x.

    py_imu_sum.py FILE
"""
import sys

import rosbag

n, total = 0, 0.0
with rosbag.Bag(sys.argv[1]) as bag:
    for _topic, msg, _t in bag.read_messages(topics=["/imu"]):
        n += 1
        total += msg.linear_acceleration.x
print(f"{n} messages, sum of linear_acceleration.x {total!r}")
