#!/usr/bin/python3
"""Writes a scene with known geometry, by the reference writer (python3-rosbag): make_scene.py OUT.bag

1 s from 1700000000. Frames (parent -> child), each rotation a quarter turn about one axis so that the
points' places in the world can be worked out by hand (scene_test.go does):
  world -> a   /tf_static: translation (1, 2, 3), yaw +90 deg
  a -> b       /tf at 10 Hz (the same transform each time): translation (0, 0, 1), roll +90 deg
  b -> c       /tf_static: translation (2, 0, 0), pitch +90 deg
  world -> far /tf at 10 Hz, moving along x: x = 10 * t (t seconds from the start)
/cloud   sensor_msgs/PointCloud2 in frame c at 5 Hz: the points (1,0,0), (0,1,0), (0,0,1) and one NaN point,
         fields x y z intensity (float32, little-endian, point_step 16), intensity 10, 20, 30, 40 times the
         message number + 1.
/scan    sensor_msgs/LaserScan in frame b at 5 Hz: angle_min 0, increment pi/2, ranges 1, 2, inf, 0.5
         (range_min 0.1, range_max 10): three points, (1,0), (0,2), (0,-0.5).
Deterministic.
"""
import math
import struct
import sys

import rosbag
import rospy
from geometry_msgs.msg import TransformStamped
from sensor_msgs.msg import LaserScan, PointCloud2, PointField
from tf2_msgs.msg import TFMessage

T0 = rospy.Time(1700000000, 0)


def at(s):
    return T0 + rospy.Duration.from_sec(s)


def tfs(parent, child, stamp, xyz, q):
    m = TransformStamped()
    m.header.stamp = stamp
    m.header.frame_id = parent
    m.child_frame_id = child
    m.transform.translation.x, m.transform.translation.y, m.transform.translation.z = xyz
    r = m.transform.rotation
    r.x, r.y, r.z, r.w = q
    return m


H = math.sqrt(0.5)


def main(out):
    with rosbag.Bag(out, 'w') as b:
        b.write('/tf_static', TFMessage(transforms=[
            tfs('world', 'a', T0, (1, 2, 3), (0, 0, H, H)),
            tfs('b', 'c', T0, (2, 0, 0), (0, H, 0, H)),
        ]), T0)
        for i in range(10):
            t = at(i * 0.1)
            b.write('/tf', TFMessage(transforms=[
                tfs('a', 'b', t, (0, 0, 1), (H, 0, 0, H)),
                tfs('world', 'far', t, (10 * i * 0.1, 0, 0), (0, 0, 0, 1)),
            ]), t)
            if i % 2 == 0:
                n = i // 2 + 1
                c = PointCloud2()
                c.header.stamp, c.header.frame_id = t, 'c'
                c.height, c.width = 1, 4
                c.fields = [PointField(name=f, offset=4 * k, datatype=PointField.FLOAT32, count=1)
                            for k, f in enumerate(['x', 'y', 'z', 'intensity'])]
                c.is_bigendian, c.point_step, c.row_step, c.is_dense = False, 16, 64, False
                pts = [(1, 0, 0, 10 * n), (0, 1, 0, 20 * n), (0, 0, 1, 30 * n), (float('nan'), 0, 0, 40 * n)]
                c.data = b''.join(struct.pack('<4f', *p) for p in pts)
                b.write('/cloud', c, t)
                s = LaserScan()
                s.header.stamp, s.header.frame_id = t, 'b'
                s.angle_min, s.angle_max, s.angle_increment = 0, 3 * math.pi / 2, math.pi / 2
                s.range_min, s.range_max = 0.1, 10
                s.ranges = [1, 2, float('inf'), 0.5]
                s.intensities = [5, 6, 7, 8]
                b.write('/scan', s, t)


if __name__ == '__main__':
    main(sys.argv[1])
