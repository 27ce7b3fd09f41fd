#!/usr/bin/python3
"""Dump every message of a bag, in the reference reader's order, one JSON line per message.

Usage: /usr/bin/python3 testdata/genpy_dump.py FILE [--topic T]...

Each line: {"topic": str, "time": {"secs","nsecs","ns"}, "type": str, "msg": {...}}

- Order is bag.read_messages(): receive time, ties in connection order (heapq.merge).
- Messages are decoded by genpy. The classes come from the connection's embedded
  message_definition (rosbag generates them dynamically), so custom types work without
  their packages installed.
- "msg" holds the fields in definition order (__slots__ / _slot_types); constants are left out.
- integers: JSON numbers, exact. floats: numbers (float32 widened to float64 by genpy, printed
  with Python's shortest repr); NaN and infinities as "NaN", "Infinity", "-Infinity".
- bool: true/false. string: genpy decodes UTF-8, invalid bytes become U+FFFD.
- time/duration: {"secs","nsecs"} as genpy gives them: canonicalized on decode (nsecs folded
  into 0..999999999, e.g. a duration stored as secs=0, nsecs=-1 shows as secs=-1, nsecs=999999999).
- uint8[] and char[] (fixed or variable length): standard padded base64 of the bytes.
  Other arrays: lists. Nested messages: objects.
"""
import argparse
import base64
import json
import math
import sys

import rosbag


def convert_float(v):
    if math.isnan(v):
        return 'NaN'
    if math.isinf(v):
        return 'Infinity' if v > 0 else '-Infinity'
    return v


def _text(v):
    return v.decode('utf-8') if isinstance(v, bytes) else v


def convert(value, slot_type):
    base, is_array = slot_type, False
    if slot_type.endswith(']'):
        base, is_array = slot_type[:slot_type.index('[')], True
    if is_array:
        if base in ('uint8', 'char'):
            if not isinstance(value, (bytes, bytearray)):
                value = bytes(value)
            return base64.b64encode(bytes(value)).decode('ascii')
        return [convert(v, base) for v in value]
    if base in ('time', 'duration'):
        return {'secs': int(value.secs), 'nsecs': int(value.nsecs)}
    if base == 'bool':
        return bool(value)
    if base in ('float32', 'float64'):
        return convert_float(float(value))
    if base == 'string':
        return value
    if hasattr(value, '__slots__') and hasattr(value, '_slot_types'):  # nested message
        return convert_msg(value)
    return int(value)  # int8..uint64, byte, char


def convert_msg(msg):
    return {name: convert(getattr(msg, name), t) for name, t in zip(msg.__slots__, msg._slot_types)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('file')
    ap.add_argument('--topic', action='append', default=None, help='only this topic (repeatable)')
    args = ap.parse_args()

    out = sys.stdout.buffer
    try:
        bag = rosbag.Bag(args.file, 'r')
    except Exception as ex:
        sys.exit('genpy_dump: %s: %s' % (type(ex).__name__, ex))
    with bag:
        # The type is the connection's datatype: rosbag reuses the message class of the
        # first connection with the same md5 (tf/tfMessage and tf2_msgs/TFMessage share
        # one), so msg._type can name another type than the bag says.
        for topic, msg, t, conn in bag.read_messages(topics=args.topic, raw=False,
                                                     return_connection_header=True):
            line = {
                'topic': topic,
                'time': {'secs': int(t.secs), 'nsecs': int(t.nsecs), 'ns': int(t.secs) * 10**9 + int(t.nsecs)},
                'type': _text(conn['type']),
                'msg': convert_msg(msg),
            }
            out.write(json.dumps(line, ensure_ascii=False, separators=(',', ':'), allow_nan=False).encode('utf-8'))
            out.write(b'\n')


if __name__ == '__main__':
    try:
        main()
    except BrokenPipeError:  # e.g. piped into head
        sys.stderr.close()
