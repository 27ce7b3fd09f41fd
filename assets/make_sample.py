#!/usr/bin/python3
"""Write assets/sample.bag, the bag the GUI opens by default, with the reference ROS1 writer.

Usage: /usr/bin/python3 assets/make_sample.py [OUT]   (default: sample.bag beside this script)

20 s of a small robot driving a curve, lz4 chunks of at most ~256 KB uncompressed:
  /imu               sensor_msgs/Imu      100 Hz  sine accelerations, noise, one bump at t=12.3 s
  /odom              nav_msgs/Odometry     20 Hz
  /tf                tf2_msgs/TFMessage    30 Hz  odom -> base_link
  /camera/image_raw  sensor_msgs/Image      2 Hz  64x48 rgb8 gradient that shifts over time
  /rosout            rosgraph_msgs/Log     a few log lines
  /status            std_msgs/String        1 Hz
header.stamp is a few ms before the receive time. Deterministic: seeded noise, fixed start time.
"""
import math
import os
import random
import sys

import genpy
import rosbag
from geometry_msgs.msg import Quaternion, Transform, TransformStamped, Vector3
from nav_msgs.msg import Odometry
from rosgraph_msgs.msg import Log
from sensor_msgs.msg import Image, Imu
from std_msgs.msg import Header, String
from tf2_msgs.msg import TFMessage

T0 = 1718000000 * 10**9 + 250000000  # start of recording, ns
DURATION_MS = 20000
MS = 10**6
BUMP_MS = 12300


def stamp(ns):
    return genpy.Time(ns // 10**9, ns % 10**9)


def yaw_q(yaw):
    return Quaternion(0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))


def speed(s):  # forward speed, m/s
    return 0.8 + 0.2 * math.sin(2 * math.pi * s / 8)


def yaw_rate(s):  # rad/s: straight, then a left curve, then easing out
    return 0.35 * math.sin(math.pi * s / 20) ** 2


def simulate():
    """Pose (x, y, yaw) every millisecond, Euler-integrated."""
    x = y = yaw = 0.0
    poses = []
    for ms in range(DURATION_MS + 200):
        poses.append((x, y, yaw))
        s = ms / 1000
        x += speed(s) * math.cos(yaw) * 1e-3
        y += speed(s) * math.sin(yaw) * 1e-3
        yaw += yaw_rate(s) * 1e-3
    return poses


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), 'sample.bag')
    rng = random.Random(20240601)
    poses = simulate()
    events = []  # (receive_ns, topic, msg)

    def hdr(seq, ns, frame):
        return Header(seq=seq, stamp=stamp(ns), frame_id=frame)

    for i in range(DURATION_MS // 10):  # /imu 100 Hz
        ms = i * 10
        s = ms / 1000
        sampled = T0 + ms * MS + rng.randint(-200, 200) * 1000  # sensor clock jitter, +-0.2 ms
        recv = sampled + 2 * MS
        ax = 0.6 * math.sin(2 * math.pi * s / 4) + rng.gauss(0, 0.03)
        ay = speed(s) * yaw_rate(s) + rng.gauss(0, 0.03)  # centripetal
        az = 9.81 + 0.05 * math.sin(2 * math.pi * s * 1.5) + rng.gauss(0, 0.02)
        if ms == BUMP_MS:  # the robot hits a bump
            ax, az = ax + 3.5, az + 6.2
        m = Imu(header=hdr(i, sampled, 'imu_link'), orientation=yaw_q(poses[ms][2]),
                angular_velocity=Vector3(rng.gauss(0, 0.002), rng.gauss(0, 0.002), yaw_rate(s) + rng.gauss(0, 0.002)),
                linear_acceleration=Vector3(ax, ay, az))
        m.orientation_covariance = [0.0025 if k in (0, 4, 8) else 0.0 for k in range(9)]
        m.angular_velocity_covariance = [0.0004 if k in (0, 4, 8) else 0.0 for k in range(9)]
        m.linear_acceleration_covariance = [0.01 if k in (0, 4, 8) else 0.0 for k in range(9)]
        events.append((recv, '/imu', m))

    for i in range(DURATION_MS // 50):  # /odom 20 Hz
        ms = i * 50 + 3
        s = ms / 1000
        x, y, yaw = poses[ms]
        m = Odometry(header=hdr(i, T0 + ms * MS, 'odom'), child_frame_id='base_link')
        m.pose.pose.position = Vector3(x, y, 0.0)
        m.pose.pose.orientation = yaw_q(yaw)
        m.pose.covariance = [0.001 * (1 + s) if k in (0, 7) else (0.01 if k == 35 else 0.0) for k in range(36)]
        m.twist.twist.linear = Vector3(speed(s) + rng.gauss(0, 0.01), 0.0, 0.0)
        m.twist.twist.angular = Vector3(0.0, 0.0, yaw_rate(s) + rng.gauss(0, 0.005))
        m.twist.covariance = [0.002 if k in (0, 35) else 0.0 for k in range(36)]
        events.append((T0 + ms * MS + 5 * MS, '/odom', m))

    for i in range(DURATION_MS * 30 // 1000):  # /tf 30 Hz
        ms = i * 100 // 3 + 1
        x, y, yaw = poses[ms]
        ts = TransformStamped(header=hdr(0, T0 + ms * MS, 'odom'), child_frame_id='base_link',
                              transform=Transform(translation=Vector3(x, y, 0.0), rotation=yaw_q(yaw)))
        events.append((T0 + ms * MS + rng.randint(1, 3) * MS, '/tf', TFMessage(transforms=[ts])))

    for i in range(DURATION_MS // 500):  # /camera/image_raw 2 Hz, 64x48 rgb8
        ms = i * 500 + 17
        w, h = 64, 48
        data = bytearray()
        for row in range(h):
            for col in range(w):
                data += bytes(((col * 4 + i * 6) % 256, (row * 5) % 256, int(128 + 96 * math.sin(i / 6 + col / 20))))
        m = Image(header=hdr(i, T0 + ms * MS, 'camera_optical_frame'), height=h, width=w, encoding='rgb8',
                  is_bigendian=0, step=w * 3, data=bytes(data))
        events.append((T0 + ms * MS + 31 * MS, '/camera/image_raw', m))

    logs = [(120, Log.INFO, 'Driver started, publishing /imu at 100 Hz', 'start', 88),
            (540, Log.INFO, 'Odometry initialised at (0.00, 0.00)', 'init', 142),
            (5000, Log.INFO, 'Entering curve', 'plan', 301),
            (BUMP_MS + 4, Log.WARN, 'IMU spike: |a| = 16.5 m/s^2', 'check_imu', 217),
            (15500, Log.ERROR, 'Camera frame dropped (timeout 150 ms)', 'grab', 412),
            (19000, Log.INFO, 'Battery at 41%', 'battery', 57)]
    for i, (ms, level, text, fn, line) in enumerate(logs):
        m = Log(header=hdr(i, T0 + ms * MS, ''), level=level, name='/robot_driver', msg=text,
                file='robot_driver.cpp', function=fn, line=line, topics=['/imu', '/odom', '/rosout'])
        events.append((T0 + ms * MS + 1 * MS, '/rosout', m))

    for i in range(DURATION_MS // 1000):  # /status 1 Hz
        ms = i * 1000 + 500
        events.append((T0 + ms * MS, '/status', String('OK: v=%.2f m/s, battery %d%%' % (speed(ms / 1000), 60 - i))))

    events.sort(key=lambda e: e[0])
    with rosbag.Bag(out, 'w', compression='lz4', chunk_threshold=256 * 1024) as bag:
        for ns, topic, msg in events:
            bag.write(topic, msg, stamp(ns))
    print('%s: %d messages, %d bytes' % (out, len(events), os.path.getsize(out)))


if __name__ == '__main__':
    main()
