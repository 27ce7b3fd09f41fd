#!/usr/bin/python3
"""Print where the reference reader finds a bag's records, as JSON.

Usage: /usr/bin/python3 bag/ros1/testdata/ref_records.py FILE

    {"index_pos": N, "conns": {"ID": "topic"},
     "chunks": [{"pos": N, "compression": "lz4", "size": N, "counts": {"ID": N}}],
     "messages": [[chunk_pos, offset, conn, secs, nsecs], ...]}

The Go test of Store.Records and Store.BlockRecords (lister_test.go)
compares the records it lists against this.
"""
import json
import sys

import rosbag


def main(path):
    with rosbag.Bag(path, 'r') as bag:
        out = {
            'index_pos': bag._index_data_pos,
            'conns': {str(c.id): c.topic for c in bag._connections.values()},
            'chunks': [],
            'messages': [],
        }
        for ci in bag._chunks:
            hdr = bag._chunk_headers[ci.pos]
            out['chunks'].append({
                'pos': ci.pos,
                'compression': hdr.compression,
                'size': hdr.uncompressed_size,
                'counts': {str(k): v for k, v in ci.connection_counts.items()},
            })
        for conn, entries in bag._connection_indexes.items():
            for e in entries:
                out['messages'].append([e.chunk_pos, e.offset, conn, e.time.secs, e.time.nsecs])
        json.dump(out, sys.stdout)


if __name__ == '__main__':
    main(sys.argv[1])
