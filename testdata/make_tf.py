#!/usr/bin/python3
"""Writes tf.bag: a transform tree with every case `bagscope tf` reports, by the reference writer.

10 s from 1700000000.123456789. Frames (parent -> child):
  map -> odom            /tf 10 Hz, publisher /localization, slow yaw drift
  odom -> base_link      /tf 50 Hz, publisher /ekf, driving a circle; stamps 20 ms behind receive,
                         and every 7th message is stamped 60 ms behind (out of order)
  /base_link -> /arm     /tf 20 Hz, ROS 1 style names with a leading slash (tf2 strips it)
  arm -> tool            /tf 20 Hz, same messages as arm (two transforms per message)
  base_link -> laser     /tf_static, and camera_link in the same message; the message is written
                         again at 5 s (a latched repeat, as split recordings repeat it): counted once
  cam_mount              /tf 10 Hz: parent base_link until 5 s, then arm (a reparented frame)
  base_link -> gps       /tf 10 Hz, stops at 3 s (stale after)
  base_link -> imu_link  /tf 10 Hz, stamped 2 s ahead of receive time (future stamps)
  world_alt -> beacon    /tf_static: a second root
Rotations tilt in roll, pitch and yaw so that composition order matters.
Deterministic: run it again for the same bytes.
"""
import math
import os
import sys

import rosbag
import rospy
from geometry_msgs.msg import TransformStamped
from tf2_msgs.msg import TFMessage

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_fixtures import conn_header, write_on  # noqa: E402  (one connection per publisher)

T0 = rospy.Time(1700000000, 123456789)


def quat(roll, pitch, yaw):
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    return (sr * cp * cy - cr * sp * sy, cr * sp * cy + sr * cp * sy,
            cr * cp * sy - sr * sp * cy, cr * cp * cy + sr * sp * sy)


def tfs(parent, child, stamp, xyz, rpy):
    m = TransformStamped()
    m.header.stamp = stamp
    m.header.frame_id = parent
    m.child_frame_id = child
    m.transform.translation.x, m.transform.translation.y, m.transform.translation.z = xyz
    q = quat(*rpy)
    r = m.transform.rotation
    r.x, r.y, r.z, r.w = q
    return m


def at(s):
    return T0 + rospy.Duration.from_sec(s)


def main(out):
    ev = []  # (receive time, topic, message, callerid)
    static = TFMessage(transforms=[
        tfs('base_link', 'laser', at(0), (0.2, 0.0, 0.3), (0.0, 0.05, 0.0)),
        tfs('base_link', 'camera_link', at(0), (0.25, -0.05, 0.4), (-math.pi / 2, 0.0, -math.pi / 2)),
    ])
    ev.append((at(0), '/tf_static', static, '/robot_state_publisher'))
    ev.append((at(5), '/tf_static', static, '/robot_state_publisher'))
    ev.append((at(0.001), '/tf_static', TFMessage(transforms=[
        tfs('world_alt', 'beacon', at(0), (10.0, 5.0, 0.0), (0.0, 0.0, 1.0))]), '/beacons'))
    for i in range(100):  # map -> odom, 10 Hz
        t = at(0.05 + i * 0.1)
        ev.append((t, '/tf', TFMessage(transforms=[tfs('map', 'odom', t, (1.0 + 0.001 * i, -2.0, 0.0), (0.0, 0.0, 0.3 + 0.002 * i))]), '/localization'))
    for i in range(500):  # odom -> base_link, 50 Hz
        s = 0.02 + i * 0.02
        stamp = at(s - (0.06 if i % 7 == 3 else 0.02))
        a = 0.4 * s
        ev.append((at(s), '/tf', TFMessage(transforms=[tfs('odom', 'base_link', stamp, (2 * math.cos(a), 2 * math.sin(a), 0.0), (0.01 * math.sin(s), 0.02 * math.cos(s), a + math.pi / 2))]), '/ekf'))
    for i in range(200):  # arm and tool, 20 Hz
        s = 0.03 + i * 0.05
        ev.append((at(s), '/tf', TFMessage(transforms=[
            tfs('/base_link', '/arm', at(s), (0.1, 0.0, 0.5), (0.3 * math.sin(s), 0.5 * math.sin(0.7 * s), 0.2)),
            tfs('arm', 'tool', at(s), (0.0, 0.0, 0.4 + 0.05 * math.sin(s)), (0.0, 0.8 * math.sin(s), 0.1 * s)),
        ]), '/arm_controller'))
    for i in range(100):  # cam_mount (reparented at 5 s), gps (stops at 3 s), imu_link (future stamps)
        s = 0.07 + i * 0.1
        parent = 'base_link' if s < 5 else 'arm'
        tr = [tfs(parent, 'cam_mount', at(s), (0.05, 0.0, 0.1), (0.0, 0.3, 0.0)),
              tfs('base_link', 'imu_link', at(s + 2.0), (0.0, 0.0, 0.05), (math.pi, 0.0, 0.0))]
        if s < 3:
            tr.append(tfs('base_link', 'gps', at(s), (-0.3, 0.0, 0.8), (0.0, 0.0, 0.0)))
        ev.append((at(s), '/tf', TFMessage(transforms=tr), '/mounts'))
    ev.sort(key=lambda e: (e[0], e[1]))
    with rosbag.Bag(out, 'w', compression='lz4', chunk_threshold=16 * 1024) as bag:
        conns = {}
        for t, topic, msg, caller in ev:
            write_on(bag, conns, (topic, caller), topic, msg, t, conn_header(topic, TFMessage, caller, latching=topic == '/tf_static'))


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else 'testdata/tf.bag')
