#!/usr/bin/env node
// make_echo_mcap.mjs: an MCAP of ROS 2 messages with the values whose YAML
// is hard to get right, for the `ros2 topic echo` comparison.
//
//   node testdata/oracle/make_echo_mcap.mjs OUT.mcap
//
// One topic, /edge, of a type with strings (empty, YAML keywords and
// numbers, indicators, leading and trailing spaces, line breaks, tabs,
// non-ASCII, astral characters, invalid UTF-8, an embedded NUL, strings
// around the 128 truncate length), floats (NaN, infinities, -0, exponents
// at Python's repr limits, float32 values), byte (octet) values 0 to 255,
// char and uint8 arrays, 64-bit extremes, nested and fixed arrays of
// messages, empty arrays, a Time, fixed arrays of integers and floats
// (numpy arrays in rclpy), one of 1000 elements that numpy wraps and one of
// more than 1000 that it cuts. The CDR is written here by hand
// (little endian, XCDR1 alignment from after the 4-byte header) because
// @foxglove/rosmsg2-serialization's MessageWriter cuts non-ASCII strings;
// each message is read back with its MessageReader before it is written.

import fs from "node:fs";
import { MemWritable, require, scriptArgs } from "./lib.mjs";

const { McapWriter } = require("@mcap/core");
const { parse } = require("@foxglove/rosmsg");
const { MessageReader } = require("@foxglove/rosmsg2-serialization");

const [out] = scriptArgs("node make_echo_mcap.mjs OUT.mcap", 1);

const sep = "=".repeat(80);
const definition = `string one
string[] texts
float64[] doubles
float32[] floats
byte b
byte[] bytes
char c
uint8[] u8s
int8 i8
int64 big
uint64 ubig
bool[] flags
builtin_interfaces/Time stamp
bagscope_test/Point[] pts
bagscope_test/Point[2] fixed_pts
float64[3] fixed3
int16[4] fixed_ints
float32[3] fixed_f32
uint16[1000] many
int8[1001] summarised
${sep}
MSG: bagscope_test/Point
float64 x
string label
${sep}
MSG: builtin_interfaces/Time
int32 sec
uint32 nanosec
`;

const utf8 = (s) => Buffer.from(s, "utf8");
const strings = [
  "", "a", "yes", "No", "on", "OFF", "null", "~", "1", "1.5", "-1", "0x1F", "1e5", "1_000", ".inf", ".NaN",
  "2001-12-14", "=", "<<", "-", "- a", "-a", ":", "a: b", "a:b", "#x", "a #b", "a#b", "'quoted'", '"dq"',
  " lead", "trail ", "two  spaces", "line\nbreak", "\n", "a\n\nb", "a \nb", "a\n b", "tab\there", "ünï✓",
  "日本語", "emoji 😀", "\u0085nel", "x\u2028y", "bell\u0007", "nul\u0000cut", "---", "...", "a...",
  "[x]", "{y}", "&a", "*b", "!c", "|d", ">e", "%f", "@g", "`h", "?", "? x", "x?", "a,b", "ü",
  "\u00a0nbsp", "x\ufeffbom", "back\\slash", "\u0080c1", "\u00ffy", "\ud7ff\ue000\ufffd",
  "x".repeat(128), "y".repeat(129), "é".repeat(130), "word ".repeat(40), "Z".repeat(127) + "\n",
].map(utf8);
strings.push(Buffer.from([0xff]), Buffer.from([0x61, 0xe2, 0x82]), Buffer.from([0xc3, 0x28]), Buffer.from([0xed, 0xa0, 0x80]));

const doubles = [0, -0, 1, 0.1, 1e16, 1e15, 1e-5, 1.5e-5, 1e-4, 123456789.123, NaN, Infinity, -Infinity, 1e300, 5e-324,
  1e22, -2.5, 0.30000000000000004, 9007199254740993, 1234567890123456789];
const floats = [0, 0.1, 1e-5, 3.4028234663852886e38, 1.401298464324817e-45, 16777217, -0, NaN, Infinity, 0.3];
const byteValues = [0, 32, 39, 34, 49, 65, 126, 127, 128, 133, 160, 233, 255, 35, 45, 58, 10, 9, 92, 116];

class CDR {
  parts = [Buffer.from([0, 1, 0, 0])];
  len = 0;
  raw(b) {
    this.parts.push(b);
    this.len += b.length;
  }
  align(n) {
    const pad = (n - (this.len % n)) % n;
    if (pad) this.raw(Buffer.alloc(pad));
  }
  num(kind, v) {
    const size = { u8: 1, i8: 1, i16: 2, u16: 2, u32: 4, i32: 4, f32: 4, f64: 8, i64: 8, u64: 8 }[kind];
    this.align(size);
    const b = Buffer.alloc(size);
    ({
      u8: () => b.writeUInt8(v), i8: () => b.writeInt8(v), i16: () => b.writeInt16LE(v), u16: () => b.writeUInt16LE(v), u32: () => b.writeUInt32LE(v), i32: () => b.writeInt32LE(v),
      f32: () => b.writeFloatLE(v), f64: () => b.writeDoubleLE(v), i64: () => b.writeBigInt64LE(v), u64: () => b.writeBigUInt64LE(v),
    })[kind]();
    this.raw(b);
  }
  str(bytes) {
    this.num("u32", bytes.length + 1);
    this.raw(Buffer.concat([bytes, Buffer.from([0])]));
  }
  seq(items, write) {
    this.num("u32", items.length);
    for (const it of items) write(it);
  }
  bytes() {
    return Buffer.concat(this.parts);
  }
}

const pick = (list, i, n) => Array.from({ length: n }, (_, k) => list[(i * 7 + k) % list.length]);

function message(i) {
  const w = new CDR();
  w.str(strings[i % strings.length]);
  w.seq(i === 0 ? strings : pick(strings, i, i % 5), (s) => w.str(s));
  w.seq(i === 1 ? Array.from({ length: 130 }, (_, k) => k / 7) : i === 0 ? doubles : pick(doubles, i, 3), (v) => w.num("f64", v));
  w.seq(i === 0 ? floats : pick(floats, i, 2), (v) => w.num("f32", v));
  w.num("u8", byteValues[i % byteValues.length]);
  w.seq(i === 0 ? Array.from({ length: 256 }, (_, k) => k) : i === 2 ? [] : pick(byteValues, i, 4), (v) => w.num("u8", v));
  w.num("u8", [0, 65, 200, 255][i % 4]);
  w.seq(Array.from({ length: [0, 3, 128, 129, 200][i % 5] }, (_, k) => (k * 37 + i) % 256), (v) => w.num("u8", v));
  w.num("i8", [-128, 127, 0, -1][i % 4]);
  w.num("i64", [-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n][i % 4]);
  w.num("u64", [2n ** 64n - 1n, 0n, 2n ** 53n + 1n][i % 3]);
  w.seq([true, false, i % 2 === 0].slice(0, i % 4), (v) => w.num("u8", v ? 1 : 0));
  w.num("i32", [0, 1700000000, -1, 2147483647][i % 4]);
  w.num("u32", [0, 999999999, 1, 4294967295][i % 4]);
  const point = (k) => {
    w.num("f64", doubles[(i + k) % doubles.length]);
    w.str(strings[(i * 3 + k) % strings.length]);
  };
  w.seq(Array.from({ length: i % 3 }, (_, k) => k), point);
  point(1);
  point(2);
  for (let k = 0; k < 3; k++) w.num("f64", doubles[(i + k * 5) % doubles.length]);
  for (let k = 0; k < 4; k++) w.num("i16", [-32768, 7, 0, 32767, -5, 123][(i + k) % 6]);
  for (let k = 0; k < 3; k++) w.num("f32", floats[(i + k * 4) % floats.length]);
  for (let k = 0; k < 1000; k++) w.num("u16", (k * (i + 1) * 13) % 65536);
  for (let k = 0; k < 1001; k++) w.num("i8", ((k * (i + 3)) % 256) - 128);
  return w.bytes();
}

const reader = new MessageReader(parse(definition, { ros2: true }));
const writable = new MemWritable();
const writer = new McapWriter({ writable });
await writer.start({ profile: "ros2", library: "bagscope make_echo_mcap.mjs" });
const schemaId = await writer.registerSchema({ name: "bagscope_test/msg/Edge", encoding: "ros2msg", data: utf8(definition) });
const channelId = await writer.registerChannel({ topic: "/edge", schemaId, messageEncoding: "cdr", metadata: new Map() });
const count = strings.length;
for (let i = 0; i < count; i++) {
  const data = message(i);
  reader.readMessage(data); // throws if the hand-written CDR does not read back
  if (reader.lastReadByteLength() + 3 < data.length) throw new Error(`message ${i}: bytes left unread`);
  const t = 1700000000n * 1000000000n + BigInt(i) * 1000000n;
  await writer.addMessage({ channelId, sequence: i, logTime: t, publishTime: t, data });
}
await writer.end();
fs.writeFileSync(out, writable.bytes());
