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

--fields with several dotted paths keeps the fields named, each under its
path (as `bagscope cat --fields` does); a path through an array, or to no
field, is left out. With one path it is echo's --field (ros2cli's echo verb):
the field reached by getattr along the path, a message printed as
message_to_yaml prints it, anything else with print(), as rclpy gives it:
a sequence of numbers as an array.array, a fixed array of numbers as a
numpy array (numpy's own str), other arrays as lists, a byte as bytes. A
message without the field, or whose field is an array of messages (whose
generated __repr__ is not modelled here), is left out and said on stderr
(status 3). --header prints bagscope's "# TOPIC  TIME  TYPE"
line before each message. A message the decoder skipped ("skip",
"undecoded") is reported on stderr, and with --header printed as a line
"(not decoded by the oracle: REASON)" and '---', so that the caller can leave
it out; the run then ends with status 3.
"""

import argparse
import array
import collections
import json
import sys

import yaml


class Msg:
    """A decoded message: its fields in definition order."""

    def __init__(self, fields):
        self.fields = fields


# rosidl_generator_py's SPECIAL_NESTED_BASIC_TYPES: the number types whose
# sequences rclpy keeps in an array.array and fixed arrays in numpy.
TYPECODES = {'float32': 'f', 'float64': 'd', 'int8': 'b', 'uint8': 'B', 'char': 'B',
             'int16': 'h', 'uint16': 'H', 'int32': 'i', 'uint32': 'I', 'int64': 'q',
             'uint64': 'Q'}


class NotModelled(Exception):
    pass


def raw_value(v):
    """The Python object rclpy gives for a typed JSON value, arrays of
    numbers as array.array (sequences) or numpy arrays (fixed)."""
    if 'a' in v and v.get('e') in TYPECODES:
        code = TYPECODES[v['e']]
        nums = [float(e['f']) if 'f' in e else int(e['i']) for e in v['a']]
        if v.get('n') is None:
            return array.array(code, nums)
        import numpy
        return numpy.array(nums, dtype=numpy.dtype(code))
    if 'a' in v:
        if v.get('e') == 'message':
            raise NotModelled('an array of messages (its __repr__)')
        return [raw_value(e) for e in v['a']]
    if 'm' in v:
        return value(v)
    return value(v)


def field_of(typed_msg, path):
    """getattr along path in a typed message, or None."""
    cur = typed_msg
    for name in path.split('.'):
        if 'm' not in cur:
            return None
        found = None
        for n, f in cur['m']:
            if n == name:
                found = f
                break
        if found is None:
            return None
        cur = found
    return cur


def value(v):
    """The Python value rclpy gives for a typed JSON value."""
    (kind, x), = [(k, x) for k, x in v.items() if k not in ('e', 'n')]
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
        if len(paths) == 1:
            f = field_of(rec['msg'], paths[0])
            why = None
            if f is None:
                why = 'no field %s' % paths[0]
            else:
                try:
                    sub = raw_value(f)
                except NotModelled as e:
                    why = str(e)
            if why is not None:
                sys.stderr.write('ros2_echo: %s at %s: left out: %s\n' % (rec['topic'], rec['time'], why))
                status = 3
                continue
            if isinstance(sub, Msg):
                out.write(yaml.dump(to_dict(sub, truncate), allow_unicode=True, width=sys.maxsize,
                                    default_flow_style=False))
                out.write('---\n')
            else:
                print(sub, end='\n---\n', file=out)
            printed += 1
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
