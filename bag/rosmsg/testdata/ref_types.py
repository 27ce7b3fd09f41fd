#!/usr/bin/python3
"""Reference data for the bag/rosmsg tests, made with genmsg/genpy.

Usage: ref_types.py types     one JSON line per installed message type:
                              {type, md5, full_text}
       ref_types.py samples   several serialized instances per type:
                              {type, md5, full_text, case, hex, json}
       ref_types.py golden    the samples of a few types, kept in golden.jsonl
                              (ref_types.py golden > golden.jsonl)
       ref_types.py utf8      reads hex strings (one per line) on stdin and
                              prints bytes.decode('utf-8', 'replace') as JSON

Exit status 3 when rosbag/genpy or the message packages cannot be imported.
The "json" field is the form of `bagscope cat --json`: fields in order,
floats as repr (NaN/Infinity as strings), time/duration as {secs, nsecs},
uint8[]/char[] as base64, built from the *deserialized* genpy message.
"""
import base64
import importlib
import json
import math
import sys

try:
    import rosbag  # noqa: F401  (checks the reference is installed)
    import genpy
    import genpy.dynamic
    import genmsg.msgs
except Exception as e:  # pragma: no cover
    print("cannot import rosbag/genpy: %s" % e, file=sys.stderr)
    sys.exit(3)

PACKAGES = ["std_msgs", "sensor_msgs", "geometry_msgs", "nav_msgs", "tf2_msgs", "rosgraph_msgs"]
OPTIONAL = ["actionlib_msgs", "visualization_msgs", "diagnostic_msgs", "trajectory_msgs",
            "shape_msgs", "stereo_msgs"]

# Hand-written definitions exercising what the installed types do not:
# deprecated byte/char, constants, relative names, odd arrays, canon of time.
CUSTOM = [
    ("test_pkg/Everything", """# comment line
byte B_CONST=-5  # numeric constants lose their comment
char C_CONST = 200
string S_CONST = hello # not a comment =x
float64 PI=3.14159
bool FLAG=True
int64 BIG=-9223372036854775808
uint64 UBIG=18446744073709551615
Header header
byte b
char c
byte[] bs
char[] cs
char[5] cs5
uint8[3] u3
uint8[0] u0
bool[] flags
bool[2] flags2
time t
duration d
time[] ts
duration[2] ds
string[] names
string[2] names2
Inner inner    # relative to test_pkg
Inner[] inners
Inner[2] inners2
test_pkg/Inner qualified
float32[] f32s
int16[4] i16s
uint16[] u16s
int32[] i32s
uint32[] u32s
int64[] i64s
uint64[] u64s
float64[] f64s
int8 i8
uint8 u8
int16 i16
uint16 u16
int32 i32
uint32 u32
int64 i64
uint64 u64
float32 f32
float64 f64
string s
================================================================================
MSG: std_msgs/Header
uint32 seq
time stamp
string frame_id
================================================================================
MSG: test_pkg/Inner
int32 K=7
string label
time when
Deeper deep
geometry_msgs/Point p
================================================================================
MSG: test_pkg/Deeper
duration[] spans
float32 v
================================================================================
MSG: geometry_msgs/Point
float64 x
float64 y
float64 z"""),
    ("test_pkg/Empty", ""),
    ("test_pkg/Holder", """test_pkg/Empty e
test_pkg/Empty[] es
uint8 after
================================================================================
MSG: test_pkg/Empty
"""),
]


def installed_classes():
    out = []
    seen = set()
    for pkg in PACKAGES + OPTIONAL:
        try:
            mod = importlib.import_module(pkg + ".msg")
        except ImportError:
            if pkg in PACKAGES:
                print("cannot import %s.msg" % pkg, file=sys.stderr)
                sys.exit(3)
            continue
        for name in sorted(dir(mod)):
            cls = getattr(mod, name)
            t = getattr(cls, "_type", None)
            if isinstance(cls, type) and t and hasattr(cls, "_full_text") and t not in seen:
                seen.add(t)
                out.append(cls)
    return out


def custom_classes():
    out = []
    for t, text in CUSTOM:
        msgs = genpy.dynamic.generate_dynamic(t, text)
        out.append(msgs[t])
    return out


F32 = [1.5, -0.0, float("nan"), float("inf"), float("-inf"), 3.4028234663852886e38, 1e-45, 0.1, 1e-5, 123456.789]
F64 = [0.1, -0.0, float("nan"), float("inf"), float("-inf"), 1.7976931348623157e308, 5e-324, 1e16, 1e-5,
       123456789.125, 1e15, 100.0, -2.5e-7]
INTS = {
    "int8": (-128, 127), "byte": (-128, 127), "uint8": (0, 255), "char": (0, 255),
    "int16": (-32768, 32767), "uint16": (0, 65535), "int32": (-2**31, 2**31 - 1), "uint32": (0, 2**32 - 1),
    "int64": (-2**63, 2**63 - 1), "uint64": (0, 2**64 - 1),
}
STRS = ["", "frame", "héllo wörld ✓ 日本 🚀", "quote\" back\\slash\nnewline\ttab\x01", "x" * 300]


class Filler:
    def __init__(self, variant):
        self.v = variant
        self.n = 0

    def count(self):
        # array lengths: rich, empty, long
        return {0: 3, 1: 0, 2: 40}[self.v]

    def prim(self, t):
        self.n += 1
        n, v = self.n, self.v
        if t == "bool":
            return (n + v) % 2 == 0
        if t in INTS:
            lo, hi = INTS[t]
            if v == 1:
                return lo if n % 2 else hi
            return lo + (n * 7919 + v * 104729) % (hi - lo + 1)
        if t == "float32":
            return F32[(n + 3 * v) % len(F32)]
        if t == "float64":
            return F64[(n + 3 * v) % len(F64)]
        if t == "string":
            return STRS[(n + v) % len(STRS)]
        if t == "time":
            x = genpy.Time(0, 0)
            x.secs = [1700000000, 2**32 - 1, 0][v]
            x.nsecs = [123456789, 2**32 - 1, 1500000000][v]  # not canonical on purpose
            return x
        if t == "duration":
            x = genpy.Duration(0, 0)
            x.secs = [-5, -2**31, 2**31 - 1][v]
            x.nsecs = [999999999, -1, 2**31 - 1][v]
            return x
        raise ValueError(t)

    def value(self, t, depth):
        base, is_array, n = genmsg.msgs.parse_type(t)
        if is_array:
            if n is None:
                n = self.count()
            if base in ("uint8", "char"):
                return bytes((self.prim("uint8") for _ in range(n)))
            return [self.value(base, depth + 1) for _ in range(n)]
        if genmsg.msgs.is_builtin(base):
            return self.prim(base)
        return None  # filled by fill()

    def fill(self, msg, depth=0):
        for slot, t in zip(msg.__slots__, msg._slot_types):
            base, is_array, n = genmsg.msgs.parse_type(t)
            if genmsg.msgs.is_builtin(base):
                setattr(msg, slot, self.value(t, depth))
            elif is_array:
                proto = sub_class(msg, slot)
                if n is None:
                    n = self.count() if depth < 3 else 0
                items = []
                for _ in range(n):
                    item = proto()
                    self.fill(item, depth + 1)
                    items.append(item)
                setattr(msg, slot, items)
            else:
                self.fill(getattr(msg, slot), depth + 1)
        return msg


def sub_class(msg, slot):
    """Class of the elements of an array-of-messages slot."""
    t = msg._slot_types[list(msg.__slots__).index(slot)]
    base = genmsg.msgs.bare_msg_type(t)
    if base == "Header":
        base = "std_msgs/Header"
    if "/" not in base:
        base = msg._type.split("/")[0] + "/" + base
    mod = sys.modules[type(msg).__module__]
    pkg, name = base.split("/")
    dyn = getattr(mod, "_%s__%s" % (pkg, name), None)  # genpy.dynamic naming
    if dyn is not None:
        return dyn
    return getattr(importlib.import_module(pkg + ".msg"), name)


def to_json(msg, t=None):
    if isinstance(msg, genpy.Message):
        out = {}
        for slot, st in zip(msg.__slots__, msg._slot_types):
            out[slot] = to_json(getattr(msg, slot), st)
        return out
    if isinstance(msg, (genpy.Time, genpy.Duration)):
        return {"secs": msg.secs, "nsecs": msg.nsecs}
    if isinstance(msg, bytes):
        return base64.b64encode(msg).decode("ascii")
    if isinstance(msg, (list, tuple)):
        base = genmsg.msgs.bare_msg_type(t) if t else None
        return [to_json(x, base) for x in msg]
    if isinstance(msg, bool):
        return msg
    if isinstance(msg, float):
        if math.isnan(msg):
            return "NaN"
        if math.isinf(msg):
            return "Infinity" if msg > 0 else "-Infinity"
        return msg
    return msg


def cmd_types():
    for cls in installed_classes():
        print(json.dumps({"type": cls._type, "md5": cls._md5sum, "full_text": cls._full_text}))
    for cls in custom_classes():
        print(json.dumps({"type": cls._type, "md5": cls._md5sum, "full_text": cls._full_text}))


GOLDEN = ["sensor_msgs/Imu", "tf2_msgs/TFMessage", "sensor_msgs/LaserScan", "sensor_msgs/JointState",
          "test_pkg/Everything", "test_pkg/Holder", "rosgraph_msgs/Clock"]


def cmd_samples(only=None):
    classes = installed_classes() + custom_classes()
    for cls in classes:
        if only and cls._type not in only:
            continue
        full_text = cls._full_text
        for variant, case in enumerate(["rich", "extreme", "long"]):
            msg = Filler(variant).fill(cls())
            buf = __import__("io").BytesIO()
            msg.serialize(buf)
            data = buf.getvalue()
            back = cls().deserialize(data)
            print(json.dumps({"type": cls._type, "md5": cls._md5sum, "full_text": full_text, "case": case,
                              "hex": data.hex(), "json": json.dumps(to_json(back), ensure_ascii=False)}))


def cmd_utf8():
    for line in sys.stdin:
        line = line.strip()
        print(json.dumps(bytes.fromhex(line).decode("utf-8", "replace")))


if __name__ == "__main__":
    {"types": cmd_types, "samples": cmd_samples, "utf8": cmd_utf8,
     "golden": lambda: cmd_samples(GOLDEN)}[sys.argv[1]]()
