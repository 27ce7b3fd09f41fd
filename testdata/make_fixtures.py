#!/usr/bin/python3
"""Write the small test bags in testdata/ with the reference ROS1 writer (rosbag.Bag).

Usage: /usr/bin/python3 testdata/make_fixtures.py [OUTDIR]   (default: this script's directory)

Output is deterministic (fixed times, seeded values): re-running gives byte-identical bags.
"""
import io
import math
import os
import random
import sys

import genpy
import genpy.dynamic
import rosbag
from geometry_msgs.msg import Quaternion, Transform, TransformStamped, Vector3
from nav_msgs.msg import Odometry
from rosgraph_msgs.msg import Log
from sensor_msgs.msg import Imu, JointState, LaserScan
from std_msgs.msg import Header, Int32, String
from tf2_msgs.msg import TFMessage

T0 = 1700000000 * 10**9 + 123456789  # base receive time, in nanoseconds
MS = 10**6


def stamp(ns):
    return genpy.Time(ns // 10**9, ns % 10**9)


def yaw_quaternion(yaw):
    return Quaternion(0.0, 0.0, math.sin(yaw / 2), math.cos(yaw / 2))


# ---------------------------------------------------------------- multichunk bags

def multichunk_events():
    """Messages as (write_order_ns, t_ns, topic, msg), before sorting into write order.

    /imu (50 Hz) and /tf (25 Hz) share receive times every 40 ms (ties across topics).
    /odom and /scan are written 35 ms / 60 ms after their receive time, as a recorder with
    busy subscriber queues does, so receive times are not monotonic in file order and
    consecutive chunks overlap in time. /chatter has two messages with the same time.
    """
    rng = random.Random(1)
    ev = []
    for i in range(150):  # /imu, 50 Hz
        t = T0 + i * 20 * MS
        m = Imu(header=Header(seq=i, stamp=stamp(t - 2 * MS), frame_id='imu_link'),
                orientation=yaw_quaternion(0.01 * i),
                angular_velocity=Vector3(rng.gauss(0, 0.01), rng.gauss(0, 0.01), 0.1),
                linear_acceleration=Vector3(math.sin(i / 10), rng.gauss(0, 0.05), 9.81))
        m.orientation_covariance[0] = -1.0  # "orientation unknown", as many drivers send
        ev.append((t, t, '/imu', m))
    for i in range(75):  # /tf, 25 Hz; every 5th message carries a second transform
        t = T0 + i * 40 * MS
        tfs = [TransformStamped(header=Header(seq=0, stamp=stamp(t), frame_id='odom'),
                                child_frame_id='base_link',
                                transform=_transform(0.02 * i, 0.001 * i * i, 0.01 * i))]
        if i % 5 == 0:
            tfs.append(TransformStamped(header=Header(seq=0, stamp=stamp(t), frame_id='base_link'),
                                        child_frame_id='laser', transform=_transform(0.1, 0.0, 0.0)))
        ev.append((t, t, '/tf', TFMessage(transforms=tfs)))
    for i in range(30):  # /odom, 10 Hz, written 35 ms late
        t = T0 + i * 100 * MS + 5 * MS
        m = Odometry(header=Header(seq=i, stamp=stamp(t - 3 * MS), frame_id='odom'), child_frame_id='base_link')
        m.pose.pose.position = Vector3(0.2 * i, 0.01 * i * i, 0.0)
        m.pose.pose.orientation = yaw_quaternion(0.05 * i)
        m.pose.covariance = [0.01 if k % 7 == 0 else 0.0 for k in range(36)]
        m.twist.twist.linear = Vector3(2.0, 0.0, 0.0)
        m.twist.twist.angular = Vector3(0.0, 0.0, 0.5)
        ev.append((t + 35 * MS, t, '/odom', m))
    for i in range(15):  # /scan, 5 Hz, written 60 ms late; one NaN and one +Inf range
        t = T0 + i * 200 * MS + 1 * MS
        ranges = [round(2.0 + math.sin(k / 4 + i), 3) for k in range(32)]
        ranges[5], ranges[20] = float('nan'), float('inf')
        m = LaserScan(header=Header(seq=i, stamp=stamp(t - 10 * MS), frame_id='laser'),
                      angle_min=-math.pi / 2, angle_max=math.pi / 2, angle_increment=math.pi / 31,
                      time_increment=0.0, scan_time=0.2, range_min=0.05, range_max=30.0,
                      ranges=ranges, intensities=[float(k % 3) for k in range(32)])
        ev.append((t + 60 * MS, t, '/scan', m))
    for i in range(15):  # /chatter, 5 Hz; message 7 is followed by a second one at the same time
        t = T0 + i * 200 * MS + 7 * MS
        ev.append((t, t, '/chatter', String('hello %d' % i)))
        if i == 7:
            ev.append((t, t, '/chatter', String('h\u00e9llo again \u2713 (same time)')))
    ev.sort(key=lambda e: e[0])  # stable: equal write times keep generation order
    return ev


def _transform(x, y, yaw):
    return Transform(translation=Vector3(x, y, 0.0), rotation=yaw_quaternion(yaw))


def write_multichunk(path, compression):
    with rosbag.Bag(path, 'w', compression=compression, chunk_threshold=2048) as bag:
        for _, t, topic, msg in multichunk_events():
            bag.write(topic, msg, stamp(t))


# ---------------------------------------------------------------- several connections on one topic

def conn_header(topic, msg_class, callerid, latching=False):
    """A connection header as `rosbag record` stores it (keys in std::map order)."""
    h = {'callerid': callerid}
    if latching:
        h['latching'] = '1'
    h.update({'md5sum': msg_class._md5sum, 'message_definition': msg_class._full_text,
              'topic': topic, 'type': msg_class._type})
    return h


def write_on(bag, conns, key, topic, msg, t, header):
    """Bag.write keeps ONE connection per topic (bag._topic_connections[topic]) and uses the
    connection_header only when it creates that connection. To record several connections on
    one topic, as `rosbag record` does, point that entry at the connection we want (or drop it
    to make a new one). Everything else is the reference writer's own code."""
    if key in conns:
        bag._topic_connections[topic] = conns[key]
    else:
        bag._topic_connections.pop(topic, None)
    bag.write(topic, msg, t, connection_header=header)
    conns[key] = bag._topic_connections[topic]


def write_two_conns(path):
    """/chatter: connections 0 (/talker_a) and 1 (/talker_b), both std_msgs/String, and
    connection 3 (/counter) of type std_msgs/Int32. /robot_mode: connection 2, latched.
    One message of /talker_b has the same time as one of /talker_a."""
    conns = {}
    with rosbag.Bag(path, 'w') as bag:
        a = conn_header('/chatter', String, '/talker_a')
        b = conn_header('/chatter', String, '/talker_b')
        c = conn_header('/chatter', Int32, '/counter')
        mode = conn_header('/robot_mode', String, '/mode_server', latching=True)
        for i in range(5):
            t = T0 + i * 100 * MS
            write_on(bag, conns, 'a', '/chatter', String('a says %d' % i), stamp(t), a)
            tb = t if i == 2 else t + 50 * MS
            write_on(bag, conns, 'b', '/chatter', String('b says %d' % i), stamp(tb), b)
            if i == 0:
                write_on(bag, conns, 'mode', '/robot_mode', String('AUTONOMOUS'), stamp(t + 1 * MS), mode)
            if i in (1, 3, 4):
                write_on(bag, conns, 'c', '/chatter', Int32(i * 1000), stamp(t + 70 * MS), c)


# ---------------------------------------------------------------- a custom type with every field kind

ALL_TYPES_DEF = """\
# Every ROS1 field kind once. Not an installed package: readers must use this embedded text.
int8 SMALL=-5
float64 RATIO=0.25
string GREETING=hello # this is part of the string constant
std_msgs/Header header
bool b
int8 i8
uint8 u8
int16 i16
uint16 u16
int32 i32
uint32 u32
int64 i64
uint64 u64
float32 f32
float64 f64
string s
time t
duration d
byte by
char ch
uint8[] u8_dyn
uint8[4] u8_fixed
char[] ch_dyn
char[3] ch_fixed
int8[] i8_dyn
bool[2] b_fixed
float32[] f32_dyn
float64[3] f64_fixed
string[] s_dyn
time[2] t_fixed
duration[] d_dyn
Inner inner
Inner[] inners
Inner[2] inners_fixed
================================================================================
MSG: std_msgs/Header
uint32 seq
time stamp
string frame_id
================================================================================
MSG: bagscope_test/Inner
int16 x
string name
"""


def write_custom_all_types(path):
    """Three bagscope_test/AllTypes messages: all zero/empty, extremes, and one whose string holds
    invalid UTF-8 (written raw, since genpy only serializes valid str)."""
    cls = genpy.dynamic.generate_dynamic('bagscope_test/AllTypes', ALL_TYPES_DEF)['bagscope_test/AllTypes']
    Inner = type(cls().inner)
    zero = cls()
    big = cls(header=Header(seq=7, stamp=stamp(T0), frame_id='base_link'),
              b=True, i8=-128, u8=255, i16=-32768, u16=65535, i32=-2**31, u32=2**32 - 1,
              i64=-2**63, u64=2**64 - 1, f32=float('-inf'), f64=-0.0, s='\u00fcber \u2603 \U0001F916',
              t=genpy.Time(4294967295, 999999999), d=genpy.Duration(-1, 999999999), by=-1, ch=255,
              u8_dyn=bytes(range(250, 256)), u8_fixed=b'\x00\x01\xfe\xff', ch_dyn=b'chars\x00', ch_fixed=b'abc',
              i8_dyn=[-128, 0, 127], b_fixed=[True, False], f32_dyn=[float('nan'), 1.5, 1e-45, 3.4028234663852886e38],
              f64_fixed=[float('inf'), 5e-324, 1.7976931348623157e308], s_dyn=['', 'a', 'two words'],
              t_fixed=[genpy.Time(0, 1), genpy.Time(1, 0)], d_dyn=[genpy.Duration(-5, 0), genpy.Duration(0, 5)],
              inner=Inner(x=-2, name='in'), inners=[Inner(x=1, name='one'), Inner(x=2, name='two')],
              inners_fixed=[Inner(x=3, name=''), Inner(x=4, name='four')])
    bad = cls(s='ok??', header=Header(seq=8, frame_id='bad_utf8'))
    raw = _serialize(bad).replace(b'ok??', b'ok\xff\xfe', 1)  # invalid UTF-8 in field s
    with rosbag.Bag(path, 'w') as bag:
        bag.write('/all_types', zero, stamp(T0))
        bag.write('/all_types', big, stamp(T0 + 10 * MS))
        bag.write('/all_types', (cls._type, raw, cls._md5sum, cls), stamp(T0 + 20 * MS), raw=True)


def _serialize(msg):
    buf = io.BytesIO()
    msg.serialize(buf)
    return buf.getvalue()


# ---------------------------------------------------------------- trivial bags

def write_empty(path):
    rosbag.Bag(path, 'w').close()


def write_single(path):
    with rosbag.Bag(path, 'w') as bag:
        bag.write('/answer', Int32(42), stamp(T0))


# ---------------------------------------------------------------- a small robot

JOINTS = ['shoulder_pan', 'shoulder_lift', 'elbow', 'wrist_1', 'wrist_2', 'wrist_3']


def write_robot(path):
    """robot.bag: what the plots, XY, sensor and log views of issue 15 are shown on.

    10 s of a robot driving a circle (/odom 20 Hz, radius 2 m) while a 6-joint arm waves
    (/joint_states 50 Hz, named joints, each a sine of its own frequency); /tf at 25 Hz with three
    frames in one message (odom->base_link, base_link->arm_link, arm_link->gripper); a LaserScan
    of a square room seen from the robot (/scan 10 Hz, 180 beams, some out of range); /rosout at
    every level. lz4 chunks.
    """
    rng = random.Random(15)
    with rosbag.Bag(path, 'w', compression='lz4', chunk_threshold=64 * 1024) as bag:
        ev = []
        for i in range(500):  # /joint_states, 50 Hz
            t = T0 + i * 20 * MS
            sec = i * 0.02
            js = JointState(header=Header(seq=i, stamp=stamp(t), frame_id=''), name=list(JOINTS),
                            position=[math.sin(sec * (k + 1) * 0.6 + k) * (1.0 + 0.1 * k) for k in range(6)],
                            velocity=[math.cos(sec * (k + 1) * 0.6 + k) * (k + 1) * 0.6 for k in range(6)],
                            effort=[rng.gauss(0, 0.05) + 2.0 - 0.3 * k for k in range(6)])
            ev.append((t, '/joint_states', js))
        for i in range(200):  # /odom, 20 Hz: a circle of radius 2 m, one turn in 10 s
            t = T0 + i * 50 * MS
            a = 2 * math.pi * i / 200
            o = Odometry(header=Header(seq=i, stamp=stamp(t), frame_id='odom'), child_frame_id='base_link')
            o.pose.pose.position.x, o.pose.pose.position.y = 2 * math.cos(a), 2 * math.sin(a)
            o.pose.pose.orientation = yaw_quaternion(a + math.pi / 2)
            o.twist.twist.linear.x, o.twist.twist.angular.z = 2 * 2 * math.pi / 10, 2 * math.pi / 10
            ev.append((t, '/odom', o))
        for i in range(250):  # /tf, 25 Hz, three frames per message
            t = T0 + i * 40 * MS
            a = 2 * math.pi * i / 250
            sec = i * 0.04
            tfs = []
            for parent, child, (x, y, yaw) in (
                    ('odom', 'base_link', (2 * math.cos(a), 2 * math.sin(a), a + math.pi / 2)),
                    ('base_link', 'arm_link', (0.2, 0.0, math.sin(sec * 0.6))),
                    ('arm_link', 'gripper', (0.5 + 0.1 * math.sin(sec * 1.2), 0.0, 0.0))):
                tfs.append(TransformStamped(header=Header(seq=i, stamp=stamp(t), frame_id=parent),
                                            child_frame_id=child, transform=_transform(x, y, yaw)))
            ev.append((t, '/tf', TFMessage(transforms=tfs)))
        for i in range(100):  # /scan, 10 Hz: a 6 m square room around the robot
            t = T0 + i * 100 * MS
            n = 180
            amin, inc = -math.pi, 2 * math.pi / n
            ranges = []
            for k in range(n):
                th = amin + k * inc
                r = 3.0 / max(abs(math.cos(th)), abs(math.sin(th)))
                if k % 37 == 5:
                    r = float('inf')  # no return
                ranges.append(r + rng.gauss(0, 0.01))
            ev.append((t, '/scan', LaserScan(header=Header(seq=i, stamp=stamp(t), frame_id='base_laser'),
                                              angle_min=amin, angle_max=amin + (n - 1) * inc,
                                              angle_increment=inc, time_increment=0.0, scan_time=0.1,
                                              range_min=0.1, range_max=4.0, ranges=ranges,
                                              intensities=[100.0 + 50 * math.cos(amin + k * inc) for k in range(n)])))
        levels = [(Log.DEBUG, 'planner: replanning'), (Log.INFO, 'arm: trajectory started'),
                  (Log.WARN, 'base: wheel slip detected'), (Log.ERROR, 'laser: 3 beams without return'),
                  (Log.FATAL, 'gripper: driver lost')]
        for i in range(20):  # /rosout, every level
            t = T0 + i * 500 * MS + 7 * MS
            level, text = levels[i % len(levels)]
            node = '/' + text.split(':')[0]
            ev.append((t, '/rosout', Log(header=Header(seq=i, stamp=stamp(t)), level=level, name=node,
                                         msg=text + ' (%d)' % i, file='robot.py', function='step', line=10 + i,
                                         topics=['/rosout'])))
        ev.sort(key=lambda e: e[0])
        for t, topic, msg in ev:
            bag.write(topic, msg, stamp(t))


# ---------------------------------------------------------------- a 7-DoF arm

ARM7_JOINTS = ['panda_joint%d' % (k + 1) for k in range(7)]


def write_arm7(path):
    """arm7.bag: a 7-DoF arm (Franka Panda joint names) for the plots' colours and legend (issue 23).

    10 s of /joint_states at 100 Hz, seven named joints whose positions overlap on purpose (sines of
    close amplitude and frequency about 0), as a real arm's do, so a plot of position[*] shows
    whether each joint can be told apart; velocity and effort too. lz4 chunks.
    """
    rng = random.Random(23)
    with rosbag.Bag(path, 'w', compression='lz4', chunk_threshold=64 * 1024) as bag:
        for i in range(1000):
            t = T0 + i * 10 * MS
            sec = i * 0.01
            pos = [0.4 * math.sin(sec * (0.5 + 0.15 * k) + 0.9 * k) + 0.1 * (k - 3) for k in range(7)]
            vel = [0.4 * (0.5 + 0.15 * k) * math.cos(sec * (0.5 + 0.15 * k) + 0.9 * k) for k in range(7)]
            eff = [rng.gauss(0, 0.2) + 10.0 - 1.2 * k for k in range(7)]
            js = JointState(header=Header(seq=i, stamp=stamp(t), frame_id=''), name=list(ARM7_JOINTS),
                            position=pos, velocity=vel, effort=eff)
            bag.write('/joint_states', js, stamp(t))


FIXTURES = {
    'none-multichunk.bag': lambda p: write_multichunk(p, 'none'),
    'bz2-multichunk.bag': lambda p: write_multichunk(p, 'bz2'),
    'lz4-multichunk.bag': lambda p: write_multichunk(p, 'lz4'),
    'two-conns-one-topic.bag': write_two_conns,
    'custom-all-types.bag': write_custom_all_types,
    'empty.bag': write_empty,
    'single-message.bag': write_single,
    'robot.bag': write_robot,
    'arm7.bag': write_arm7,
}


def main():
    outdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    os.makedirs(outdir, exist_ok=True)
    for name, write in FIXTURES.items():
        path = os.path.join(outdir, name)
        write(path)
        print('%-26s %7d bytes' % (name, os.path.getsize(path)))


if __name__ == '__main__':
    main()
