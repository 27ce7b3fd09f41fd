#!/usr/bin/python3
"""Write killed recordings with the reference ROS1 writer (rosbag.Bag).

Usage: /usr/bin/python3 testdata/make_killed.py OUTDIR

For each compression (none, bz2, lz4) and chunk threshold (small: 4 KB, so there are many
closed chunks; default: 768 KB, so everything sits in one open chunk) it records the same
messages and, while the bag is still open, copies the file as it is on disk after a flush
(what a recorder killed at that moment leaves): NAME.snapK.bag.active for a few moments K.
It then closes the bag normally (NAME.closed.bag): the closed bag holds every message
written, so a salvaged snapshot must read back a prefix of it.

The messages (deterministic) mix Imu at 100 Hz, String at 10 Hz and a 4 KB Image at 5 Hz,
with strictly increasing receive times, so write order is time order.
"""
import os
import random
import shutil
import sys

import genpy
import rosbag
from sensor_msgs.msg import Image, Imu
from std_msgs.msg import Header, String

T0 = 1700000000


def messages(n):
    rng = random.Random(7)
    for i in range(n):
        t = genpy.Time(T0 + i // 100, (i % 100) * 10**7)
        if i % 20 == 0:
            img = Image(header=Header(seq=i, stamp=t, frame_id='cam'), height=32, width=32,
                        encoding='rgb8', is_bigendian=0, step=96,
                        data=bytes(rng.randrange(256) for _ in range(32 * 32 * 3)))
            yield '/camera/image_raw', img, t
        elif i % 10 == 0:
            yield '/status', String(data='status %d %s' % (i, 'ok' * rng.randrange(10))), t
        else:
            m = Imu(header=Header(seq=i, stamp=t, frame_id='imu'))
            m.linear_acceleration.x = rng.gauss(0, 1)
            m.angular_velocity.z = i * 0.001
            yield '/imu', m, t


def record(outdir, compression, threshold, label, n=600, snaps=(150, 333, 599)):
    name = '%s-%s' % (compression, label)
    path = os.path.join(outdir, name + '.closed.bag')
    bag = rosbag.Bag(path, 'w', compression=compression, chunk_threshold=threshold)
    for i, (topic, msg, t) in enumerate(messages(n)):
        bag.write(topic, msg, t)
        if i in snaps:
            bag._file.flush()
            shutil.copyfile(path, os.path.join(outdir, '%s.snap%d.bag.active' % (name, i)))
    bag.close()


def main(outdir):
    os.makedirs(outdir, exist_ok=True)
    for compression in ('none', 'bz2', 'lz4'):
        record(outdir, compression, 4096, 'small')
        record(outdir, compression, 768 * 1024, 'default')


if __name__ == '__main__':
    main(sys.argv[1])
