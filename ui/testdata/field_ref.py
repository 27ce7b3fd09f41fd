#!/usr/bin/python3
"""Print the receive time and one field of every message of a topic, read with the reference reader.

Usage: /usr/bin/python3 ui/testdata/field_ref.py FILE TOPIC FIELD

One line per message, in bag.read_messages() order: "NANOSECONDS VALUE", VALUE being
FIELD (a dotted path, e.g. linear_acceleration.x) as Python's repr of the float.
"""
import sys

import rosbag


def field(msg, path):
    for name in path.split('.'):
        msg = getattr(msg, name)
    return msg


def main():
    path, topic, fld = sys.argv[1:4]
    with rosbag.Bag(path) as bag:
        for _, msg, t in bag.read_messages(topics=[topic]):
            sys.stdout.write('%d %r\n' % (t.to_nsec(), float(field(msg, fld))))


if __name__ == '__main__':
    main()
