#!/usr/bin/python3
"""Print, per bag, one JSON line of per-topic timing statistics as the reference (rosbag.Bag) sees them.

Usage: /usr/bin/python3 testdata/ref_freq.py FILE...

Go tests (model/topicstats_test.go) compare bagscope's topic statistics with this:

  {"path": str, "topics": {topic: {
      "info": "50.0 Hz" or null,      # what `rosbag info --freq` prints after '@' (str(bag) with the index read)
      "yaml": "50.0000" or null,      # the `frequency:` of `rosbag info --yaml --freq` (_get_yaml_info)
      "frequency": float or null,     # 1 / median interval, the reference's own code (_get_entries, _median)
      "messages": int, "first": ns, "last": ns,
      "min": ns, "median": ns, "max": ns, "jitter": float ns, "gaps": [[start ns, end ns], ...]}},
   "conns": {"<id>": {"frequency": ..., "messages": ..., "min": ..., ...}}}

frequency is computed exactly as _print_info/_get_yaml_info do: each index entry's time.to_sec() (float
seconds), the differences of consecutive entries of the topic's connections merged by time, rosbag.bag._median,
1.0 / median when the median is > 0 and there are >= 2 messages. "info" and "yaml" are read back from the
reference's own text, so the test also checks the rounding.

Where the entries are not in time order (chunks out of order), see ordered_figures: the figures are
of the sorted entries, and "info"/"yaml" stay what the reference prints.

The other figures are bagscope's definitions, computed here independently from the same entries'
to_nsec(): intervals in integer nanoseconds; median of an even count = floor of the mean of the two
middle ones; jitter = population standard deviation (statistics.pstdev); a gap is an interval longer
than 3 x the median (none when the median is 0).

On any error the reference raises, it prints {"path": ..., "error": "<class>: <message>"}.
"""
import json
import re
import statistics
import sys

import rosbag
from rosbag.bag import _median


def figures(entries):
    ns = [e.time.to_nsec() for e in entries]
    secs = [e.time.to_sec() for e in entries]
    out = {'messages': len(ns), 'first': ns[0] if ns else 0, 'last': ns[-1] if ns else 0, 'frequency': None}
    if len(secs) > 1:
        periods = [s1 - s0 for s1, s0 in zip(secs[1:], secs[:-1])]
        med_period = _median(periods)
        if med_period > 0.0:
            out['frequency'] = 1.0 / med_period
    iv = [b - a for a, b in zip(ns[:-1], ns[1:])]
    if iv:
        s = sorted(iv)
        n = len(s)
        med = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) // 2
        out.update({'min': s[0], 'median': med, 'max': s[-1], 'jitter': statistics.pstdev(iv)})
        out['gaps'] = [[a, b] for a, b in zip(ns[:-1], ns[1:]) if med > 0 and b - a > 3 * med]
    else:
        out.update({'min': 0, 'median': 0, 'max': 0, 'jitter': 0.0, 'gaps': []})
    return out


def ordered_figures(entries):
    """figures of the entries in time order. The reference merges each connection's index as it lies in
    the file, so in a bag whose chunks are not in time order its intervals go negative and it shows no
    rate (or a wrong one): bagscope sorts by time. Such a topic says "unsorted": true, with the
    reference's own frequency as "reference_frequency"."""
    ns = [e.time.to_nsec() for e in entries]
    if all(a <= b for a, b in zip(ns[:-1], ns[1:])):
        return figures(entries)
    out = figures(sorted(entries, key=lambda e: e.time.to_nsec()))
    out['unsorted'] = True
    out['reference_frequency'] = figures(entries)['frequency']
    return out


TOPIC_LINE = re.compile(r'^(?:topics:)?\s+(\S+)\s+\d+ msgs?\s+(?:@\s+(\S+ \S+))?\s*:')


def describe(path):
    with rosbag.Bag(path, 'r', skip_index=False) as bag:
        info = {}
        in_topics = False
        for line in str(bag).splitlines():
            if line.startswith('topics:'):
                in_topics = True
            elif line and not line[0].isspace():
                in_topics = False
            if in_topics:
                m = TOPIC_LINE.match(line)
                if m:
                    info[m.group(1)] = m.group(2)
        yaml = {}
        topic = None
        for line in bag._get_yaml_info().splitlines():
            m = re.match(r'^\s+- topic: (.*)$', line)
            if m:
                topic = m.group(1)
                yaml[topic] = None
            m = re.match(r'^\s+frequency: (.*)$', line)
            if m and topic is not None:
                yaml[topic] = m.group(1)

        topics, conns = {}, {}
        for topic in sorted(set(c.topic for c in bag._get_connections())):
            cs = list(bag._get_connections(topic))
            t = ordered_figures(list(bag._get_entries(cs)))
            t['info'] = info.get(topic)
            t['yaml'] = yaml.get(topic)
            topics[topic] = t
            for c in cs:
                conns[str(c.id)] = ordered_figures(list(bag._get_entries([c])))
        return {'path': path, 'topics': topics, 'conns': conns}


def main():
    if len(sys.argv) < 2:
        sys.exit('usage: ref_freq.py FILE...')
    for path in sys.argv[1:]:
        try:
            out = describe(path)
        except Exception as ex:  # the reference's own exception, reported by class name
            out = {'path': path, 'error': '%s: %s' % (type(ex).__name__, ex)}
        print(json.dumps(out, ensure_ascii=False))
        sys.stdout.flush()


if __name__ == '__main__':
    main()
