#!/usr/bin/python3
"""Writes depth.bag: single-channel camera frames for the Sensor view's colour map.

/depth/image_raw     3 sensor_msgs/Image 16UC1 (millimetres, 0 where invalid), 96x72
/depth/image_float   3 sensor_msgs/Image 32FC1 (metres, NaN where invalid), 96x72
/depth/image_be      1 sensor_msgs/Image mono16, big-endian, 96x72

A tilted floor with a ball in front of it that moves right frame by frame;
the top-left corner is invalid. Deterministic: run it again for the same bytes.
"""
import math
import struct
import sys

import rosbag
import rospy
from sensor_msgs.msg import Image

W, H = 96, 72


def depth_mm(x, y, frame):
    if x < 12 and y < 9:
        return 0  # invalid
    d = 1500 + 40 * y  # the floor
    cx, cy, r = 30 + 18 * frame, 36, 14
    dd = (x - cx) ** 2 + (y - cy) ** 2
    if dd < r * r:
        d = min(d, int(900 - 20 * math.sqrt(r * r - dd)))
    return d


def image(frame, enc, stamp, big=False):
    m = Image()
    m.header.seq = frame
    m.header.stamp = stamp
    m.header.frame_id = "depth_optical_frame"
    m.height, m.width, m.encoding = H, W, enc
    m.is_bigendian = 1 if big else 0
    order = ">" if big else "<"
    vals = [depth_mm(x, y, frame) for y in range(H) for x in range(W)]
    if enc == "32FC1":
        m.step = 4 * W
        m.data = struct.pack(order + "%df" % len(vals), *[v / 1000.0 if v else float("nan") for v in vals])
    else:
        m.step = 2 * W
        m.data = struct.pack(order + "%dH" % len(vals), *vals)
    return m


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "depth.bag"
    with rosbag.Bag(out, "w") as b:
        for f in range(3):
            t = rospy.Time(1700000000, f * 100000000)
            b.write("/depth/image_raw", image(f, "16UC1", t), t)
            b.write("/depth/image_float", image(f, "32FC1", t), t + rospy.Duration(0, 1000))
        t = rospy.Time(1700000000, 300000000)
        b.write("/depth/image_be", image(1, "mono16", t, big=True), t)


main()
