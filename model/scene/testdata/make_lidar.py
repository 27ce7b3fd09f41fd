#!/usr/bin/python3
"""Writes a lidar drive, by the reference writer (python3-rosbag): make_lidar.py OUT.bag [POINTS]

A robot drives a circle of radius 5 m in a 40 x 30 m room with four pillars for 5 s from 1700000000.
  map -> odom         /tf_static: identity
  odom -> base_link   /tf at 20 Hz: the circle (yaw along it)
  base_link -> lidar  /tf_static: (0.2, 0, 1.5), no rotation
  base_link -> laser  /tf_static: (0.3, 0, 0.3), no rotation
/points  sensor_msgs/PointCloud2 in lidar at 2 Hz: POINTS points (default 300,000): a spinning lidar's beams
         (64 rings from -25 to +15 deg) cast on the floor, the walls and the pillars; fields x y z intensity
         ring (float32 x4, uint16), intensity by surface.
/scan    sensor_msgs/LaserScan in laser at 10 Hz: 720 beams of the same room at the laser's height.
Deterministic (the noise is seeded).
"""
import math
import sys

import numpy as np
import rosbag
import rospy
from geometry_msgs.msg import TransformStamped
from sensor_msgs.msg import LaserScan, PointCloud2, PointField
from tf2_msgs.msg import TFMessage

T0 = rospy.Time(1700000000, 0)
ROOM_X, ROOM_Y = 20.0, 15.0
PILLARS = [(6, 4, 0.6), (-7, 3, 0.8), (3, -8, 0.5), (-5, -6, 1.0)]


def at(s):
    return T0 + rospy.Duration.from_sec(s)


def tfs(parent, child, stamp, xyz, yaw=0.0):
    m = TransformStamped()
    m.header.stamp, m.header.frame_id, m.child_frame_id = stamp, parent, child
    m.transform.translation.x, m.transform.translation.y, m.transform.translation.z = xyz
    m.transform.rotation.z, m.transform.rotation.w = math.sin(yaw / 2), math.cos(yaw / 2)
    return m


def pose(s):
    a = s * 0.4
    return (5 * math.cos(a), 5 * math.sin(a), 0.0), a + math.pi / 2


def cast(ox, oy, oz, dx, dy, dz):
    """Ranges along unit directions from (ox, oy, oz) to the floor, walls and pillars; surface ids."""
    inf = np.full(dx.shape, np.inf)
    t, surf = inf.copy(), np.zeros(dx.shape, dtype=np.int32)
    with np.errstate(divide='ignore', invalid='ignore'):
        tg = np.where(dz < 0, -oz / dz, np.inf)
        for wall, d, o in ((ROOM_X, dx, ox), (-ROOM_X, dx, ox), (ROOM_Y, dy, oy), (-ROOM_Y, dy, oy)):
            tw = (wall - o) / d
            tw = np.where(tw > 0, tw, np.inf)
            z = oz + tw * dz
            tw = np.where(z < 4.0, tw, np.inf)
            better = tw < t
            t, surf = np.where(better, tw, t), np.where(better, 2, surf)
        better = tg < t
        t, surf = np.where(better, tg, t), np.where(better, 1, surf)
        for px, py, r in PILLARS:
            fx, fy = ox - px, oy - py
            a = dx * dx + dy * dy
            b = 2 * (fx * dx + fy * dy)
            c = fx * fx + fy * fy - r * r
            disc = b * b - 4 * a * c
            tp = np.where(disc >= 0, (-b - np.sqrt(np.maximum(disc, 0))) / (2 * a), np.inf)
            tp = np.where((tp > 0) & (oz + tp * dz < 3.0) & (oz + tp * dz > 0), tp, np.inf)
            better = tp < t
            t, surf = np.where(better, tp, t), np.where(better, 3, surf)
    return t, surf


def cloud(n, stamp, s, rng):
    (x, y, _), yaw = pose(s)
    ox, oy, oz = x + 0.2 * math.cos(yaw), y + 0.2 * math.sin(yaw), 1.5
    rings = 64
    per = n // rings
    el = np.radians(np.linspace(-25, 15, rings))
    az = np.linspace(0, 2 * math.pi, per, endpoint=False)
    E, A = np.meshgrid(el, az, indexing='ij')
    dxl, dyl, dz = np.cos(E) * np.cos(A), np.cos(E) * np.sin(A), np.sin(E)
    dx = dxl * math.cos(yaw) - dyl * math.sin(yaw)
    dy = dxl * math.sin(yaw) + dyl * math.cos(yaw)
    t, surf = cast(ox, oy, oz, dx.ravel(), dy.ravel(), dz.ravel())
    t = t + rng.normal(0, 0.01, t.shape)
    rng_ok = np.isfinite(t) & (t < 60)
    t = np.where(rng_ok, t, np.nan)
    pts = np.zeros(rings * per, dtype=[('x', '<f4'), ('y', '<f4'), ('z', '<f4'), ('intensity', '<f4'), ('ring', '<u2'), ('pad', '<u2')])
    pts['x'], pts['y'], pts['z'] = (dxl.ravel() * t), (dyl.ravel() * t), (dz.ravel() * t)
    pts['intensity'] = np.choose(surf, [0, 20, 60, 100]) + rng.uniform(0, 10, t.shape)
    pts['ring'] = np.repeat(np.arange(rings), per)
    m = PointCloud2()
    m.header.stamp, m.header.frame_id = stamp, 'lidar'
    m.height, m.width = rings, per
    m.fields = [PointField('x', 0, 7, 1), PointField('y', 4, 7, 1), PointField('z', 8, 7, 1),
                PointField('intensity', 12, 7, 1), PointField('ring', 16, 4, 1)]
    m.is_bigendian, m.point_step, m.row_step, m.is_dense = False, 20, 20 * per, False
    m.data = pts.tobytes()
    return m


def scan(stamp, s, rng):
    (x, y, _), yaw = pose(s)
    ox, oy = x + 0.3 * math.cos(yaw), y + 0.3 * math.sin(yaw)
    a = np.linspace(-math.pi, math.pi, 720, endpoint=False)
    dx, dy = np.cos(a + yaw), np.sin(a + yaw)
    t, _ = cast(ox, oy, 0.3, dx, dy, np.zeros_like(dx))
    m = LaserScan()
    m.header.stamp, m.header.frame_id = stamp, 'laser'
    m.angle_min, m.angle_increment = -math.pi, 2 * math.pi / 720
    m.angle_max = m.angle_min + 719 * m.angle_increment
    m.range_min, m.range_max = 0.1, 30.0
    m.ranges = [float(v) for v in np.minimum(t + rng.normal(0, 0.01, t.shape), 31)]
    m.intensities = [100.0] * 720
    return m


def main(out, n):
    rng = np.random.default_rng(7)
    with rosbag.Bag(out, 'w') as b:
        b.write('/tf_static', TFMessage(transforms=[
            tfs('map', 'odom', T0, (0, 0, 0)), tfs('base_link', 'lidar', T0, (0.2, 0, 1.5)),
            tfs('base_link', 'laser', T0, (0.3, 0, 0.3))]), T0)
        for i in range(100):
            s = i * 0.05
            t = at(s)
            p, yaw = pose(s)
            b.write('/tf', TFMessage(transforms=[tfs('odom', 'base_link', t, p, yaw)]), t)
            if i % 2 == 0:
                b.write('/scan', scan(t, s, rng), t)
            if i % 10 == 0:
                b.write('/points', cloud(n, t, s, rng), t)


if __name__ == '__main__':
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 300000)
