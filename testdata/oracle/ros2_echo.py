#!/usr/bin/python3
"""ros2_echo.py: an independent `ros2 topic echo` text for recorded messages.

    node mcap_cat.mjs --typed FILE | /usr/bin/python3 ros2_echo.py [-n N] [-l N | --full-length]
        [--fields A,B] [--header]

Reads the typed JSON lines of mcap_cat.mjs or db3_cat.mjs --typed (messages
decoded by @foxglove/rosmsg2-serialization) and prints each message as
`ros2 topic echo` does, following the public source of ros2cli's echo verb,
rosidl_generator_py and rosidl_runtime_py (this is a small rewrite of their
rules, run with Debian's PyYAML):

- rclpy's Python values: bool, int, float (a float32 widened), str (UTF-8,
  cut at the first NUL: the C layer's strlen), a `byte` (IDL octet) as a
  bytes object of length 1, arrays as sequences, messages as objects whose
  fields keep their order;
- message_to_ordereddict: bytes become the characters of their code points,
  strings longer than the truncate length are cut and end in '...', arrays
  longer than it keep that many items and a last item '...' (items are
  converted the same way), messages become ordered dicts;
- message_to_yaml: yaml.dump(..., allow_unicode=True, width=sys.maxsize,
  default_flow_style=False) with ordered dicts written as mappings in order;
- echo: the YAML, then '---'. The truncate length is 128 unless -l or
  --full-length.

--fields keeps the fields named by dotted paths, each under its path (as
`bagscope cat --fields` does for both ROS versions); a path through an array,
or to no field, is left out. --header prints bagscope's "# TOPIC  TIME  TYPE"
line before each message. A message the decoder skipped ("skip",
"undecoded") is reported on stderr, and with --header printed as a line
"(not decoded by the oracle: REASON)" and '---', so that the caller can leave
it out; the run then ends with status 3.
"""

import argparse
import collections
import json
import sys

import yaml


class Msg:
    """A decoded message: its fields in definition order."""

    def __init__(self, fields):
        self.fields = fields


def value(v):
    """The Python value rclpy gives for a typed JSON value."""
    (kind, x), = v.items()
    if kind == 'm':
        return Msg([(name, value(f)) for name, f in x])
    if kind == 'a':
        return [value(e) for e in x]
    if kind == 'b':
        return bool(x)
    if kind == 'i':
        return int(x)
    if kind == 'f':
        return float(x)
    if kind == 's':
        return x.split('\0', 1)[0]
    if kind == 'y':
        return bytes([x])
    raise ValueError('unknown typed value %r' % (v,))


def convert(v, truncate):
    """rosidl_runtime_py's conversion of a field value for YAML."""
    if isinstance(v, bytes):
        if truncate is not None and len(v) > truncate:
            return ''.join(chr(c) for c in v[:truncate]) + '...'
        return ''.join(chr(c) for c in v)
    if isinstance(v, str):
        if truncate is not None and len(v) > truncate:
            return v[:truncate] + '...'
        return v
    if isinstance(v, list):
        if truncate is not None and len(v) > truncate:
            return [convert(e, truncate) for e in v[:truncate]] + ['...']
        return [convert(e, truncate) for e in v]
    if isinstance(v, Msg):
        return to_dict(v, truncate)
    return v


def to_dict(m, truncate):
    d = collections.OrderedDict()
    for name, v in m.fields:
        d[name] = convert(v, truncate)
    return d


def select(m, paths):
    """The fields of m named by dotted paths, each under its path."""
    out = Msg([])
    for p in paths:
        cur = m
        for name in p.split('.'):
            found = None
            if isinstance(cur, Msg):
                for n, v in cur.fields:
                    if n == name:
                        found = v
                        break
            cur = found
            if cur is None:
                break
        if cur is not None:
            out.fields.append((p, cur))
    return out


def represent_ordereddict(dumper, data):
    items = [(dumper.represent_data(k), dumper.represent_data(v)) for k, v in data.items()]
    return yaml.nodes.MappingNode('tag:yaml.org,2002:map', items)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('-n', type=int, default=0)
    ap.add_argument('-l', type=int, default=128)
    ap.add_argument('--full-length', action='store_true')
    ap.add_argument('--fields', default='')
    ap.add_argument('--header', action='store_true')
    args = ap.parse_args()
    truncate = None if args.full_length else args.l
    paths = [p for p in args.fields.split(',') if p]
    yaml.add_representer(collections.OrderedDict, represent_ordereddict)
    out = sys.stdout
    printed = 0
    status = 0
    for line in sys.stdin:
        rec = json.loads(line)
        if args.n and printed >= args.n:
            break
        if args.header:
            t = rec['time']
            out.write('# %s  %d.%09d  %s\n' % (rec['topic'], t['secs'], t['nsecs'], rec['type']))
        if 'msg' not in rec:
            why = rec.get('skip') or rec.get('encoding')
            sys.stderr.write('ros2_echo: %s at %s: not decoded by the oracle: %s\n' % (
                rec['topic'], rec['time'], why))
            if args.header:
                out.write('(not decoded by the oracle: %s)\n---\n' % why)
            printed += 1
            status = 3
            continue
        m = value(rec['msg'])
        if paths:
            m = select(m, paths)
        out.write(yaml.dump(to_dict(m, truncate), allow_unicode=True, width=sys.maxsize,
                            default_flow_style=False))
        out.write('---\n')
        printed += 1
    return status


if __name__ == '__main__':
    sys.exit(main())
