#!/usr/bin/python3
"""Print every message of a bag as the reference reader yields it.

Usage: /usr/bin/python3 bag/ros1/testdata/ref_messages.py FILE

One line per message, in the reference's read order (Bag.read_messages):
    <topic> <secs> <nsecs> <payload length> <sha1 of the payload>
The Go tests compare bag.Messages against this. Ties (equal receive times)
are ordered differently by the two readers (the reference by connection,
bagscope by file position), so the tests compare each group of equal times
as a multiset.
"""
import hashlib
import sys

import rosbag


def main(path):
    w = sys.stdout.write
    with rosbag.Bag(path, 'r') as bag:
        for topic, raw, t in bag.read_messages(raw=True):
            data = raw[1]
            w('%s %d %d %d %s\n' % (topic, t.secs, t.nsecs, len(data), hashlib.sha1(data).hexdigest()))


if __name__ == '__main__':
    main(sys.argv[1])
