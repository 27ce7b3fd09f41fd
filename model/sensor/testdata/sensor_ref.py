#!/usr/bin/python3
"""Prints sensor messages of a ROS 1 bag as the reference rosbag decodes them, for sensor_test.go.

Usage: sensor_ref.py KIND BAG TOPIC [FIELD]

KIND is one of:
  scan   per sensor_msgs/LaserScan: t, angle_min, angle_max, angle_increment,
         range_min, range_max, ranges (NaN and infinities as the strings
         "nan", "inf", "-inf"), intensities
  cloud  per sensor_msgs/PointCloud2: t, width, height, point_step, row_step,
         is_bigendian, fields [name, offset, datatype, count], and points:
         [x, y, FIELD] of every point as sensor_msgs.point_cloud2.read_points
         reads them (skip_nans=False), non-finite values as strings
  log    per rosgraph_msgs/Log: t, stamp, level, name, msg, file, function, line
  image  per 16UC1/mono16/32FC1 sensor_msgs/Image: t, width, height,
         encoding, and [x, y, value] for a grid of pixels (struct-unpacked
         from data at y*step + x*size, honouring is_bigendian)

One JSON object per message, in the bag's order. Exit status 3 when rosbag
is not installed.
"""
import json
import math
import struct
import sys

try:
    import rosbag
    from sensor_msgs import point_cloud2
except ImportError as e:
    print(e, file=sys.stderr)
    sys.exit(3)


def num(v):
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    return v


def main():
    kind, path, topic = sys.argv[1], sys.argv[2], sys.argv[3]
    field = sys.argv[4] if len(sys.argv) > 4 else "z"
    with rosbag.Bag(path) as b:
        for _, m, t in b.read_messages(topics=[topic]):
            out = {"t": t.to_nsec()}
            if kind == "scan":
                out.update(angle_min=m.angle_min, angle_max=m.angle_max, angle_increment=m.angle_increment,
                           range_min=m.range_min, range_max=m.range_max,
                           ranges=[num(r) for r in m.ranges], intensities=[num(r) for r in m.intensities])
            elif kind == "cloud":
                out.update(width=m.width, height=m.height, point_step=m.point_step, row_step=m.row_step,
                           is_bigendian=bool(m.is_bigendian),
                           fields=[[f.name, f.offset, f.datatype, f.count] for f in m.fields])
                names = ("x", "y", field) if field else ("x", "y")
                out["points"] = [[num(v) for v in p]
                                 for p in point_cloud2.read_points(m, field_names=names, skip_nans=False)]
            elif kind == "log":
                out.update(stamp=m.header.stamp.to_nsec(), level=m.level, name=m.name, msg=m.msg,
                           file=m.file, function=m.function, line=m.line)
            elif kind == "image":
                fmt, size = {"16UC1": ("H", 2), "mono16": ("H", 2), "32FC1": ("f", 4)}[m.encoding]
                order = ">" if m.is_bigendian else "<"
                data = bytes(m.data)
                px = []
                for y in range(0, m.height, 7):
                    for x in range(0, m.width, 7):
                        i = y * m.step + x * size
                        px.append([x, y, num(struct.unpack(order + fmt, data[i:i + size])[0])])
                out.update(width=m.width, height=m.height, encoding=m.encoding, pixels=px)
            else:
                sys.exit("unknown kind " + kind)
            print(json.dumps(out))


main()
