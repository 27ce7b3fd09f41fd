#!/usr/bin/python3
"""Write the small damaged bags the robustness tests read (deterministic).

Usage: /usr/bin/python3 bag/ros1/testdata/make_damaged.py [OUTDIR]   (default: this folder)

- bomb-bz2.bag: three bz2 chunks that each declare and inflate to 1 GiB of zeros (a bz2
  stream of 1 GiB of zeros is a few hundred bytes), each with an index data record and a
  chunk info naming one message in it. Reading it must cost bounded memory.
- len-ffffffff-none.bag, len-ffffffff-bz2.bag: five std_msgs/String messages written by the
  reference writer in one chunk, whose data length field is then overwritten with
  0xffffffff; the chunk's contents and the index are intact. The reference reads all five
  through the index (for the uncompressed one); bagscope must too.
"""
import bz2
import os
import struct
import sys

import genpy
import rosbag
from std_msgs.msg import String

HERE = os.path.dirname(os.path.abspath(__file__))


def header(fields):
    out = b''
    for k, v in fields:
        f = k.encode() + b'=' + v
        out += struct.pack('<I', len(f)) + f
    return out


def record(fields, data):
    h = header(fields)
    return struct.pack('<I', len(h)) + h + struct.pack('<I', len(data)) + data


def u32(v):
    return struct.pack('<I', v)


def u64(v):
    return struct.pack('<Q', v)


def op(v):
    return bytes([v])


def t(sec, nsec=0):
    return struct.pack('<II', sec, nsec)


def bz2_zeros(n):
    c = bz2.BZ2Compressor(9)
    out = b''
    step = 64 << 20
    zeros = bytes(step)
    for _ in range(n // step):
        out += c.compress(zeros)
    return out + c.flush()


def bag_header(index_pos, conns, chunks):
    """The bag header record, padded to 4096 header+data bytes like rosbag's."""
    h = header([('op', op(3)), ('index_pos', u64(index_pos)), ('conn_count', u32(conns)),
                ('chunk_count', u32(chunks))])
    pad = 4096 - len(h)
    return struct.pack('<I', len(h)) + h + u32(pad) + b' ' * pad


def write_bomb(path):
    size = 1 << 30
    data = bz2_zeros(size)
    conn_fields = [('topic', b'/bomb'), ('type', b'std_msgs/String'),
                   ('md5sum', b'992ce8a1687cec8c8bd883ec73ca41d1'),
                   ('message_definition', b'string data\n')]
    conn = record([('op', op(7)), ('conn', u32(0)), ('topic', b'/bomb')], header(conn_fields))
    pos = 13 + len(bag_header(0, 1, 3))  # the header's length does not depend on its values
    body = b''
    infos = []
    for i in range(3):
        chunk_pos = pos + len(body)
        body += record([('op', op(5)), ('compression', b'bz2'), ('size', u32(size))], data)
        body += record([('op', op(4)), ('ver', u32(1)), ('conn', u32(0)), ('count', u32(1))],
                       t(1700000000 + i) + u32(0))
        infos.append(record([('op', op(6)), ('ver', u32(1)), ('chunk_pos', u64(chunk_pos)),
                             ('start_time', t(1700000000 + i)), ('end_time', t(1700000000 + i)),
                             ('count', u32(1))], u32(0) + u32(1)))
    out = b'#ROSBAG V2.0\n' + bag_header(pos + len(body), 1, 3) + body + conn + b''.join(infos)
    with open(path, 'wb') as f:
        f.write(out)


def write_len_ffffffff(path, compression):
    with rosbag.Bag(path, 'w', compression=compression) as bag:
        for i in range(5):
            bag.write('/chatter', String(data='hello %d' % i), genpy.Time(1700000000 + i, 123456789))
    with open(path, 'r+b') as f:
        data = f.read()
        # The first chunk record after the bag header: its header, then data_len.
        off = 13
        hlen, = struct.unpack_from('<I', data, off)
        dlen, = struct.unpack_from('<I', data, off + 4 + hlen)
        off = off + 4 + hlen + 4 + dlen  # the chunk record
        hlen, = struct.unpack_from('<I', data, off)
        assert b'op=\x05' in data[off + 4:off + 4 + hlen]
        f.seek(off + 4 + hlen)
        f.write(struct.pack('<I', 0xffffffff))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else HERE
    os.makedirs(out, exist_ok=True)
    write_bomb(os.path.join(out, 'bomb-bz2.bag'))
    write_len_ffffffff(os.path.join(out, 'len-ffffffff-none.bag'), 'none')
    write_len_ffffffff(os.path.join(out, 'len-ffffffff-bz2.bag'), 'bz2')


if __name__ == '__main__':
    main()
