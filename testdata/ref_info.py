#!/usr/bin/python3
"""Print one JSON object describing a bag as the reference implementation (rosbag.Bag) sees it.

Usage: /usr/bin/python3 testdata/ref_info.py FILE

Go tests compare `bagscope info --json FILE` against this, key by key:

  {"path": str, "version": "2.0", "size": int, "indexed": true,
   "start": {"secs","nsecs","ns"}, "end": {"secs","nsecs","ns"}, "duration": seconds,
   "messages": int, "chunks": int,
   "compression": {name: chunk count}, "topics": [{"topic","type","md5sum","messages","connections"}]}

On any error the reference raises while opening or reading the index, it prints
{"error": "<exception class name>: <message>"} and exits 0.

Decisions (where `rosbag info` itself is loose):
- The bag is opened with the reference defaults (skip_index=False), so the per-connection index
  records are read. As in the reference, connections without any index entry are dropped.
- topic: the `topic` field of the connection RECORD header (_ConnectionInfo.topic, read from the
  index section by read_connection_record), not the `topic` inside the connection header; this is
  what `rosbag info` and get_type_and_topic_info() group by. Topics are compared as exact strings
  (rosbag info additionally merges names that roslib canonicalize_name() makes equal, e.g. '/a/').
- type/md5sum: from the connection header (`type`, `md5sum`) of the topic's connection with the
  lowest id. `rosbag info` shows connections[0].datatype in index-section order, which is the
  same for bags written by rosbag; it shows the md5 only per type, never per topic.
- messages (per topic): number of index entries of the topic's connections (len of
  bag._connection_indexes[id]). `rosbag info` sums chunk-info connection_counts instead; the
  two agree for well-formed bags. Top-level messages is the sum over topics.
- connections: number of connections whose record-header topic is this topic.
- start/end: min start_time / max end_time over all chunk infos, exact secs/nsecs. (`rosbag info`
  prints _chunks[0].start_time and _chunks[-1].end_time, wrong for bags with unsorted chunks.)
  No chunks: both {"secs": 0, "nsecs": 0}.
- chunks: number of chunk info records; compression: chunk headers counted by `compression`.
"""
import json
import os
import sys

import rosbag


def time_obj(t):
    return {'secs': int(t.secs), 'nsecs': int(t.nsecs), 'ns': int(t.secs) * 10**9 + int(t.nsecs)}


def describe(path):
    with rosbag.Bag(path, 'r') as bag:
        chunks = bag._chunks
        if chunks:
            start = min((c.start_time for c in chunks), key=lambda t: (t.secs, t.nsecs))
            end = max((c.end_time for c in chunks), key=lambda t: (t.secs, t.nsecs))
            start, end = time_obj(start), time_obj(end)
        else:
            start = end = {'secs': 0, 'nsecs': 0, 'ns': 0}

        compression = {}
        for h in bag._chunk_headers.values():
            compression[h.compression] = compression.get(h.compression, 0) + 1

        by_topic = {}
        for c in sorted(bag._connections.values(), key=lambda c: c.id):
            by_topic.setdefault(c.topic, []).append(c)
        topics = []
        for topic in sorted(by_topic):
            conns = by_topic[topic]
            topics.append({
                'topic': topic,
                'type': conns[0].datatype,
                'md5sum': conns[0].md5sum,
                'messages': sum(len(bag._connection_indexes.get(c.id, [])) for c in conns),
                'connections': len(conns),
            })

        return {
            'path': path,
            'version': '%d.%d' % (bag.version // 100, bag.version % 100),
            'size': os.path.getsize(path),
            'indexed': True,
            'start': start,
            'end': end,
            'duration': (end['ns'] - start['ns']) / 1e9,
            'messages': sum(t['messages'] for t in topics),
            'chunks': len(chunks),
            'compression': compression,
            'topics': topics,
        }


def main():
    if len(sys.argv) != 2:
        sys.exit('usage: ref_info.py FILE')
    try:
        out = describe(sys.argv[1])
    except Exception as ex:  # the reference's own exception, reported by class name
        out = {'error': '%s: %s' % (type(ex).__name__, ex)}
    print(json.dumps(out, ensure_ascii=False))


if __name__ == '__main__':
    main()
