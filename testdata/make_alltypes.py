#!/usr/bin/python3
"""Write std-all-types.bag: one message of every type in the installed message packages
(std_msgs, sensor_msgs, geometry_msgs, nav_msgs, tf2_msgs, rosgraph_msgs, actionlib_msgs),
in three variants each (rich values; extremes with NaN/Inf and min/max integers, empty
arrays; long arrays), written with the reference writer, one topic per type, lz4.

Usage: /usr/bin/python3 testdata/make_alltypes.py [OUT]   (default testdata/std-all-types.bag)

The values come from bag/rosmsg/testdata/ref_types.py (the decoder's own oracle), so the
decoder tests and `cat --json` tests share one definition of "every type, every edge".
"""
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, '..', 'bag', 'rosmsg', 'testdata'))

import genpy  # noqa: E402
import rosbag  # noqa: E402
import ref_types  # noqa: E402


def main(out):
    with rosbag.Bag(out, 'w', compression='lz4') as bag:
        i = 0
        for cls in ref_types.installed_classes():
            topic = '/' + cls._type.replace('/', '_')
            for variant in range(3):
                msg = ref_types.Filler(variant).fill(cls())
                bag.write(topic, msg, genpy.Time(1700000000 + i // 10, (i % 10) * 10**8))
                i += 1


if __name__ == '__main__':
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, 'std-all-types.bag'))
