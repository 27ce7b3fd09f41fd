#!/usr/bin/python3
"""Messages stamped before they are received, with a moving frame, by the reference writer and reader.

make_stamped.py write OUT.bag: from 1700000000 (T0):
/tf       odom -> base_link, received and stamped at 1.0, 1.1, ... 10.0 s: translation (t, 0, 0), yaw 0.2 t rad
/pose     geometry_msgs/PoseStamped in base_link at (1, 0, 0), received at 1.5, 2.0, ... 10.0 s, stamped 0.5 s earlier
/early    geometry_msgs/PoseStamped in base_link at (1, 0, 0), received at 2.0 s, stamped 0.5 s (before any transform)
/markers  visualization_msgs/MarkerArray received with /pose, stamped 0.5 s earlier: text "stamped" at (0, 1, 0) in
          base_link, and text "locked" at (0, 2, 0) in base_link with frame_locked
Deterministic.

make_stamped.py ref BAG T: prints, as JSON, where tf2 places each topic's latest message received at or before
T0 + T seconds in odom, computed from the raw messages read by the reference reader: the transform of base_link
stamped at or before the message's stamp (the latest one at or before T for a frame-locked marker, or when no
transform is stamped at or before the stamp: "extrapolated").
"""
import json
import math
import sys

import rosbag
import rospy
from geometry_msgs.msg import PoseStamped, TransformStamped
from tf2_msgs.msg import TFMessage
from visualization_msgs.msg import Marker, MarkerArray

T0 = rospy.Time(1700000000, 0)


def at(s):
    return T0 + rospy.Duration.from_sec(s)


def pose(stamp):
    p = PoseStamped()
    p.header.stamp, p.header.frame_id = stamp, 'base_link'
    p.pose.position.x = 1.0
    p.pose.orientation.w = 1.0
    return p


def text(stamp, name, y, locked):
    m = Marker()
    m.header.stamp, m.header.frame_id = stamp, 'base_link'
    m.ns, m.id, m.type, m.action = name, 0, Marker.TEXT_VIEW_FACING, Marker.ADD
    m.text = name
    m.pose.position.y = y
    m.pose.orientation.w = 1.0
    m.scale.z = 0.2
    m.color.r = m.color.a = 1.0
    m.frame_locked = locked
    return m


def write(out):
    with rosbag.Bag(out, 'w') as b:
        for k in range(10, 101):
            t = k / 10.0
            tr = TransformStamped()
            tr.header.stamp, tr.header.frame_id, tr.child_frame_id = at(t), 'odom', 'base_link'
            tr.transform.translation.x = t
            tr.transform.rotation.z, tr.transform.rotation.w = math.sin(0.1 * t), math.cos(0.1 * t)
            b.write('/tf', TFMessage(transforms=[tr]), at(t))
            if k % 5 == 0 and k >= 15:
                stamp = at(t - 0.5)
                b.write('/pose', pose(stamp), at(t))
                b.write('/markers', MarkerArray(markers=[text(stamp, 'stamped', 1.0, False), text(stamp, 'locked', 2.0, True)]), at(t))
            if k == 20:
                b.write('/early', pose(at(0.5)), at(t))


def rotate(q, v):
    x, y, z, w = q
    # v + 2 w (q x v) + 2 q x (q x v)
    cx, cy, cz = y * v[2] - z * v[1], z * v[0] - x * v[2], x * v[1] - y * v[0]
    dx, dy, dz = y * cz - z * cy, z * cx - x * cz, x * cy - y * cx
    return (v[0] + 2 * (w * cx + dx), v[1] + 2 * (w * cy + dy), v[2] + 2 * (w * cz + dz))


def ref(path, sec):
    T = at(sec)
    tfs, latest = [], {}
    with rosbag.Bag(path) as b:
        for topic, m, t in b.read_messages():
            if t > T:
                continue
            if topic == '/tf':
                for tr in m.transforms:
                    tfs.append(tr)
            else:
                latest[topic] = m

    def lookup(stamp):
        best = None
        for tr in tfs:
            if tr.header.stamp <= stamp and (best is None or tr.header.stamp >= best.header.stamp):
                best = tr
        return best

    def place(frame_stamp, local, locked=False):
        tr = None if locked else lookup(frame_stamp)
        extrapolated = False
        if tr is None:
            tr, extrapolated = lookup(T), not locked
        tt, r = tr.transform.translation, tr.transform.rotation
        p = rotate((r.x, r.y, r.z, r.w), local)
        return {'x': tt.x + p[0], 'y': tt.y + p[1], 'z': tt.z + p[2], 'extrapolated': extrapolated,
                'used': tr.header.stamp.to_sec() - T0.to_sec()}

    out = {}
    for topic in ('/pose', '/early'):
        m = latest.get(topic)
        if m is not None:
            pp = m.pose.position
            out[topic] = place(m.header.stamp, (pp.x, pp.y, pp.z))
    m = latest.get('/markers')
    if m is not None:
        for mk in m.markers:
            pp = mk.pose.position
            out[mk.text] = place(mk.header.stamp, (pp.x, pp.y, pp.z), mk.frame_locked)
    print(json.dumps(out))


if __name__ == '__main__':
    if sys.argv[1] == 'write':
        write(sys.argv[2])
    else:
        ref(sys.argv[2], float(sys.argv[3]))
