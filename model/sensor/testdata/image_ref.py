#!/usr/bin/python3
"""Prints pixels of a bag's rgb8/bgr8 sensor_msgs/Image messages as rosbag reads them, for image_test.go.

Usage: image_ref.py BAG TOPIC [EVERY]

One JSON object per message, in the bag's order: width, height, encoding,
step and "pixels", a list of [x, y, r, g, b] for every EVERY-th column of
every EVERY-th row (and the last pixel), read from the raw data bytes at
y*step + x*3. Exit status 3 when rosbag is not installed.
"""
import json
import sys

try:
    import rosbag
except ImportError as e:
    print(e, file=sys.stderr)
    sys.exit(3)


def main():
    path, topic = sys.argv[1], sys.argv[2]
    every = int(sys.argv[3]) if len(sys.argv) > 3 else 7
    with rosbag.Bag(path) as b:
        for _, m, t in b.read_messages(topics=[topic]):
            data = bytes(m.data)
            pts = [(x, y) for y in range(0, m.height, every) for x in range(0, m.width, every)]
            pts.append((m.width - 1, m.height - 1))
            pixels = []
            for x, y in pts:
                i = y * m.step + x * 3
                r, g, b_ = data[i], data[i + 1], data[i + 2]
                if m.encoding == "bgr8":
                    r, b_ = b_, r
                pixels.append([x, y, r, g, b_])
            print(json.dumps({"t": t.to_nsec(), "width": m.width, "height": m.height,
                              "encoding": m.encoding, "step": m.step, "pixels": pixels}))


main()
