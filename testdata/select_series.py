#!/usr/bin/python3
"""Apply bagscope's field path selectors to decoded messages: the reference of the series tests.

Usage: genpy_dump.py FILE --topic T | /usr/bin/python3 testdata/select_series.py PATH...
   or: node testdata/oracle/mcap_cat.mjs FILE | select_series.py PATH...

Reads JSON lines {"topic", "time": {"secs","nsecs"}, "msg": {...}} (genpy_dump.py's or mcap_cat.mjs's
form) and, for each PATH (field path without the topic) and message, prints the values the path
selects, one JSON line each, in message order then element order:

    {"path": PATH, "name": ELEMENT PATH, "t": RECEIVE TIME NS, "v": VALUE}

VALUE is a float (repr, exact), or "NaN" / "Infinity" / "-Infinity". Messages whose key array and
keyed array differ in length give no value for that selector, and a line {"path", "t", "mismatch": true}.

The rules, written from the documentation of rosmsg.Selection and independent of the Go code:
  [N] index; [*] every element; [A:B] half-open range; [KEY] the element whose key is KEY;
  [FIELD=VALUE] the elements of an array of messages whose FIELD equals VALUE (strings as text,
  numbers numerically), or on an array of numbers the key array FIELD.
  Key array of array F: the nearest list of strings named name, names or *_names (name first, then
  names, then the only *_names) in the message holding F, else the enclosing message, up to the top or
  the element of an array the path went through. Without one, an array of messages is keyed by its
  elements' child_frame_id, else name. [*] and ranges name elements [KEY], [FIELD=VALUE] or [INDEX];
  a path without them names its values as written.
"""
import json
import math
import sys


def split_path(s):
    segs, i = [], 0
    while True:
        start = i
        while i < len(s) and s[i] not in '.[':
            i += 1
        name, bra = s[start:i], None
        if i < len(s) and s[i] == '[':
            j, quoted = i + 1, False
            while True:
                c = s[j]
                if quoted and c == '\\':
                    j += 2
                    continue
                if c == '"':
                    quoted = not quoted
                elif c == ']' and not quoted:
                    break
                j += 1
            bra = s[i + 1:j]
            i = j + 1
        segs.append((name, bra))
        if i == len(s):
            return segs
        assert s[i] == '.'
        i += 1


def unquote(v):
    return json.loads(v) if v.startswith('"') else v


def parse_bra(b):
    if b == '*':
        return ('all', 0, None)
    if b.isdigit():
        return ('index', int(b))
    if ':' in b:
        lo, hi = b.split(':', 1)
        if (lo == '' or lo.isdigit()) and (hi == '' or hi.isdigit()):
            return ('all', int(lo or 0), int(hi) if hi else None)
    if b.startswith('"'):
        return ('key', json.loads(b))
    if '=' in b:
        f, v = b.split('=', 1)
        return ('match', f, unquote(v))
    return ('key', b)


def quote_key(k):
    special = any(ord(c) < 0x20 or c in '[]"=\\\x7f' for c in k)
    range_like = all(c in '0123456789:' for c in k)
    if k == '' or k == '*' or special or range_like or k[0] == ' ' or k[-1] == ' ':
        return json.dumps(k)
    return k


def quote_value(v):
    if v == '' or v[0] in ' "' or v[-1] == ' ' or any(ord(c) < 0x20 or c in '[]"\\\x7f' for c in v):
        return json.dumps(v)
    return v


def is_str_list(v):
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def key_array(levels, array_name, explicit):
    for level in reversed(levels):
        cands = []
        for k, v in level.items():
            if k == array_name or not is_str_list(v):
                continue
            if explicit is not None:
                if k == explicit:
                    return v
            elif k in ('name', 'names') or k.endswith('_names'):
                cands.append(k)
        for want in ('name', 'names'):
            if want in cands:
                return level[want]
        suffixed = [k for k in cands if k.endswith('_names')]
        if len(suffixed) == 1:
            return level[suffixed[0]]
        if len(suffixed) > 1:
            raise SystemExit('ambiguous key arrays %s' % suffixed)
    return None


def number(v):
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, str):
        return {'NaN': math.nan, 'Infinity': math.inf, '-Infinity': -math.inf}[v]
    return float(v)


def field_of(elem, path):
    cur = elem
    for part in path.split('.'):
        cur = cur[part]
    return cur


class Selector:
    def __init__(self, path):
        self.path = path
        self.segs = split_path(path)

    def run(self, msg):
        self.out, self.mismatch = [], False
        self.eval([msg], self.segs, '')
        if all(b is None or parse_bra(b)[0] != 'all' for _, b in self.segs):
            # A path without [*] and ranges names its values as written.
            self.out = [(self.path, v) for _, v in self.out]
        return self.out

    def leaf(self, value, name, rest):
        if rest:
            (part, _), = rest
            self.out.append((name + '.' + part, float(value[part])))
            return
        self.out.append((name, number(value)))

    def eval(self, levels, segs, name):
        cur = levels[-1]
        fname, bra = segs[0]
        value = cur[fname]
        name += fname
        rest = segs[1:]
        if bra is None:
            if isinstance(value, dict) and rest and rest[0][0] not in ('secs', 'nsecs') or \
                    isinstance(value, dict) and 'secs' not in value:
                self.eval(levels + [value], rest, name + '.')
            else:
                self.leaf(value, name, rest)
            return
        spec = parse_bra(bra)

        def elem(i, ename):
            e = value[i]
            if isinstance(e, dict) and not ('secs' in e and len(e) == 2 and rest and rest[0][0] in ('secs', 'nsecs')):
                self.eval([e], rest, ename + '.')
            else:
                self.leaf(e, ename, rest)

        if spec[0] == 'index':
            if spec[1] < len(value):
                elem(spec[1], '%s[%d]' % (name, spec[1]))
            return
        is_msgs = len(value) > 0 and isinstance(value[0], dict)
        explicit = spec[1] if spec[0] == 'match' and not is_msgs else None
        keys = None
        if spec[0] != 'match' or explicit is not None:
            keys = key_array(levels, fname, explicit)
        if keys is not None and len(keys) != len(value):
            if value:
                self.mismatch = True
            return
        nat = None
        if keys is None and is_msgs:
            for k in ('child_frame_id', 'name'):
                if isinstance(value[0].get(k), str):
                    nat = k
                    break
        n = len(value)
        for i in range(n):
            kind = spec[0]
            if kind == 'all':
                lo, hi = spec[1], spec[2]
                if i < lo or hi is not None and i >= hi:
                    continue
                if keys is not None:
                    elem(i, '%s[%s]' % (name, quote_key(keys[i])))
                elif nat is not None:
                    elem(i, '%s[%s=%s]' % (name, nat, quote_value(value[i][nat])))
                else:
                    elem(i, '%s[%d]' % (name, i))
            elif kind == 'key':
                if keys is not None:
                    if keys[i] == spec[1]:
                        elem(i, '%s[%s]' % (name, quote_key(spec[1])))
                elif value[i][nat] == spec[1]:
                    elem(i, '%s[%s=%s]' % (name, nat, quote_value(spec[1])))
            else:
                f, want = spec[1], spec[2]
                if explicit is not None:
                    if keys[i] == want:
                        elem(i, '%s[%s=%s]' % (name, f, quote_value(want)))
                    continue
                got = field_of(value[i], f)
                ok = got == want if isinstance(got, str) else number(got) == (1.0 if want == 'true' else float(want))
                if ok:
                    elem(i, '%s[%s=%s]' % (name, f, quote_value(want)))


def fmt(v):
    if math.isnan(v):
        return 'NaN'
    if math.isinf(v):
        return 'Infinity' if v > 0 else '-Infinity'
    return v


def main():
    sels = [Selector(p) for p in sys.argv[1:]]
    out = sys.stdout
    for line in sys.stdin:
        d = json.loads(line)
        if 'msg' not in d:
            continue
        t = d['time']['secs'] * 1000000000 + d['time']['nsecs']
        for s in sels:
            for name, v in s.run(d['msg']):
                out.write(json.dumps({'path': s.path, 'name': name, 't': t, 'v': fmt(v)}) + '\n')
            if s.mismatch:
                out.write(json.dumps({'path': s.path, 't': t, 'mismatch': True}) + '\n')


if __name__ == '__main__':
    main()
