#!/usr/bin/python3
"""The reference for `bagscope tf`: the transform tree of a ROS 1 bag at given times, read with the
reference rosbag and composed with 4x4 matrices (not quaternions, so the two sides share no code).

usage: tf_lookup.py [--pair TARGET SOURCE] BAG [T_NS|latest]...
       tf_lookup.py [--pair TARGET SOURCE] --jsonl FILE [T_NS|latest]...
       tf_lookup.py --stamps BAG | --stamps --jsonl FILE

With --pair, "lookup" holds that pair only ({"error": ...} when either frame is not in the tree then).
With --stamps, prints one JSON line instead: {"stamps": [...]}, the distinct header stamps (ns) of the
dynamic transforms taken, sorted (the times a lookup over time can change).

With --jsonl, the messages come from FILE, the output of the MCAP oracle (mcap_cat.mjs: @mcap/core and
@foxglove/rosmsg2-serialization), one JSON message per line, for ROS 2 recordings.

For each time (nanoseconds since the epoch, or "latest" for each frame's latest transform) prints
one JSON line: {"at": T, "denorm": D, "parents": {child: parent}, "static": {child: bool},
"lookup": {"TARGET SOURCE": {"t": [x, y, z], "m": [[3x3 rotation]]} or {"error": "..."}}}
for every pair of frames. Semantics (tf2's, as bagscope documents them): a transform is placed
at its header.stamp; on each dynamic edge the latest transform stamped at or before T (ties: the
later received); a static frame (its topic ends in tf_static) takes its last received transform
and holds at every time; a frame with both uses the dynamic one when it has one. Frame names lose
a leading "/". Transforms tf2 refuses are left out. The matrices normalise each quaternion
(tf2's Matrix3x3::setRotation); tf2 composes the quaternions as they are, so where a recording's
quaternions are not unit the two differ by about D, the largest |1 - |q|^2| seen.
"""
import bisect
import json
import sys


def matrix(t, q):
    x, y, z, w = q
    d = x * x + y * y + z * z + w * w
    s = 2.0 / d
    xs, ys, zs = x * s, y * s, z * s
    wx, wy, wz = w * xs, w * ys, w * zs
    xx, xy, xz = x * xs, x * ys, x * zs
    yy, yz, zz = y * ys, y * zs, z * zs
    return [[1 - (yy + zz), xy - wz, xz + wy, t[0]],
            [xy + wz, 1 - (xx + zz), yz - wx, t[1]],
            [xz - wy, yz + wx, 1 - (xx + yy), t[2]],
            [0.0, 0.0, 0.0, 1.0]]


def mul(a, b):
    return [[sum(a[i][k] * b[k][j] for k in range(4)) for j in range(4)] for i in range(4)]


def inv(m):
    r = [[m[j][i] for j in range(3)] for i in range(3)]  # the rotation's transpose
    t = [-sum(r[i][k] * m[k][3] for k in range(3)) for i in range(3)]
    return [r[0] + [t[0]], r[1] + [t[1]], r[2] + [t[2]], [0.0, 0.0, 0.0, 1.0]]


def strip(f):
    return f[1:] if f.startswith('/') else f


def ros1_transforms(path):
    """(topic, [(stamp_ns, parent, child, (x, y, z), (qx, qy, qz, qw))]) per message, by the reference rosbag."""
    import rosbag
    with rosbag.Bag(path) as bag:
        topics = [c.topic for c in bag._connections.values() if c.datatype in ('tf/tfMessage', 'tf2_msgs/TFMessage')]
        for topic, msg, _ in bag.read_messages(topics=sorted(set(topics))):
            out = []
            for ts in msg.transforms:
                tr, q = ts.transform.translation, ts.transform.rotation
                out.append((ts.header.stamp.to_nsec(), ts.header.frame_id, ts.child_frame_id,
                            (tr.x, tr.y, tr.z), (q.x, q.y, q.z, q.w)))
            yield topic, out


def jsonl_transforms(path):
    """The same from the MCAP oracle's JSON lines (ROS 2: stamps are {sec, nanosec})."""
    with open(path) as f:
        for line in f:
            m = json.loads(line)
            if m.get('type') not in ('tf2_msgs/msg/TFMessage', 'tf2_msgs/TFMessage', 'tf/tfMessage') or 'msg' not in m:
                continue
            out = []
            for ts in m['msg']['transforms']:
                st = ts['header']['stamp']
                tr, q = ts['transform']['translation'], ts['transform']['rotation']
                out.append((int(st['sec']) * 1000000000 + int(st['nanosec']), ts['header']['frame_id'], ts['child_frame_id'],
                            tuple(float(tr[k]) for k in 'xyz'), tuple(float(q[k]) for k in 'xyzw')))
            yield m['topic'], out


def main():
    argv, pair, stamps_only = sys.argv[1:], None, False
    if argv[0] == '--pair':
        pair, argv = (strip(argv[1]), strip(argv[2])), argv[3:]
    elif argv[0] == '--stamps':
        stamps_only, argv = True, argv[1:]
    if argv[0] == '--jsonl':
        messages, times = jsonl_transforms(argv[1]), argv[2:]
    else:
        messages, times = ros1_transforms(argv[0]), argv[1:]
    dyn, sta = {}, {}  # child -> list of (stamp_ns, seq, parent, matrix)
    seq, denorm = 0, 0.0
    for topic, transforms in messages:
        static = topic == 'tf_static' or topic.endswith('/tf_static')
        for stamp, parent, child, t, q in transforms:
            n = sum(v * v for v in q)
            # tf2 refuses these transforms (buffer_core.cpp: TF_NO_FRAME_ID, TF_SELF_TRANSFORM,
            # TF_NAN_INPUT, TF_DENORMALIZED_QUATERNION at 10e-3).
            if not strip(child) or not strip(parent) or strip(child) == strip(parent) or \
                    any(v != v or v in (float('inf'), float('-inf')) for v in tuple(t) + tuple(q)) or abs(n - 1) >= 10e-3:
                continue
            denorm = max(denorm, abs(n - 1))
            seq += 1
            (sta if static else dyn).setdefault(strip(child), []).append((stamp, seq, strip(parent), matrix(t, q)))
    if stamps_only:
        print(json.dumps({'stamps': sorted({s[0] for l in dyn.values() for s in l})}))
        return
    # Each child's transforms by (stamp, seq): the latest at or before a bound is the last one
    # stamped at or before it (ties: the later received).
    for l in dyn.values():
        l.sort(key=lambda s: (s[0], s[1]))
    keys = {c: [s[0] for s in l] for c, l in dyn.items()}
    for at in times:
        bound = None if at == 'latest' else int(at)
        edge, static = {}, {}
        for child in set(dyn) | set(sta):
            n = len(dyn.get(child, [])) if bound is None else bisect.bisect_right(keys.get(child, []), bound)
            if n:
                edge[child] = dyn[child][n - 1]
            elif child in sta:
                edge[child] = max(sta[child], key=lambda s: s[1])
            static[child] = n == 0
        parents = {c: e[2] for c, e in edge.items()}
        frames = set(parents) | set(parents.values())

        def to_root(f):
            m, seen = matrix((0, 0, 0), (0, 0, 0, 1)), set()
            while f in parents:
                if f in seen:
                    return None, None
                seen.add(f)
                m = mul(edge[f][3], m)
                f = parents[f]
            return f, m

        lookup = {}
        pairs = [pair] if pair else [(a, b) for a in sorted(frames) for b in sorted(frames)]
        for a, b in pairs:
            key = a + ' ' + b
            if a not in frames or b not in frames:
                lookup[key] = {'error': 'no frame'}
                continue
            (ra, ma), (rb, mb) = to_root(a), to_root(b)
            if ra is None or rb is None or ra != rb:
                lookup[key] = {'error': 'not connected'}
                continue
            m = mul(inv(ma), mb)
            lookup[key] = {'t': [m[0][3], m[1][3], m[2][3]], 'm': [row[:3] for row in m[:3]]}
        print(json.dumps({'at': at, 'denorm': denorm, 'parents': parents,
                          'static': {c: static[c] for c in edge}, 'lookup': lookup}))

if __name__ == '__main__':
    main()
