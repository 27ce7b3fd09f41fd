#!/usr/bin/python3
"""Reindex a copy of a bag with the reference and print its messages.

Usage: /usr/bin/python3 bag/ros1/testdata/ref_reindex.py FILE

Does what `rosbag reindex` does (Bag(..., 'a', allow_unindexed=True), reindex(), close()) on a
temporary copy, then prints the copy's messages in the format of ref_messages.py. If the
reference cannot reindex the bytes at all it prints nothing and exits 0, with the reason on
stderr: it recovered zero messages.
"""
import hashlib
import os
import shutil
import sys
import tempfile

import rosbag


def main(path):
    with tempfile.TemporaryDirectory() as d:
        tmp = os.path.join(d, 'copy.bag')
        shutil.copyfile(path, tmp)
        try:
            with rosbag.Bag(tmp, 'a', allow_unindexed=True) as b:
                for _ in b.reindex():
                    pass
        except Exception as ex:  # the reference gives up: nothing recovered
            print('reindex failed: %s: %s' % (type(ex).__name__, ex), file=sys.stderr)
            return
        try:
            with rosbag.Bag(tmp, 'r') as b:
                for topic, raw, t in b.read_messages(raw=True):
                    data = raw[1]
                    sys.stdout.write('%s %d %d %d %s\n' % (topic, t.secs, t.nsecs, len(data),
                                                           hashlib.sha1(data).hexdigest()))
        except Exception as ex:
            print('reading the reindexed copy failed: %s: %s' % (type(ex).__name__, ex), file=sys.stderr)


if __name__ == '__main__':
    main(sys.argv[1])
