#!/usr/bin/env node
// make_mcaps.mjs: MCAP fixtures with random ROS 2 (and ROS 1) messages, and
// the JSON lines `bagscope cat --json` must print for them.
//
//   node testdata/oracle/make_mcaps.mjs OUTDIR [SEED]
//
// Writes into OUTDIR, for each fixture NAME:
//
//   NAME.mcap             written with @mcap/core's McapWriter
//   NAME.expected.jsonl   the messages' values, as serialised, in the
//                         `cat --json` form, in log time order (ties in file
//                         order); channels whose encoding has no JSON
//                         contract (json) appear as {"topic","time","type","undecoded": true}
//
// and fixtures.json, a list of {"name", "file", "expected", "cut", "oracle"}:
// "cut" is true for files cut short (their expected file is the uncut
// source's: bagscope must print a prefix of it); "oracle" is false when
// mcap_cat.mjs cannot decode the fixture's messages (ros2idl, ros1), so that
// only the expected lines are ground truth.
//
// ROS 2 messages are serialised with @foxglove/rosmsg2-serialization's
// MessageWriter from definitions parsed with @foxglove/rosmsg, and each
// message is read back with MessageReader and checked against its value
// before it is written. Strings are ASCII only: MessageWriter sizes strings
// in UTF-16 units and would cut non-ASCII ones short. wstring is not used
// (MessageWriter refuses it). ROS 1 messages are serialised by this script.

import fs from "node:fs";
import path from "node:path";
import { require, definitionsByName, jsonMessage, jsonString, jsonTime, MemWritable, scriptArgs, seededRandom } from "./lib.mjs";

const { McapWriter } = require("@mcap/core");
const { parse } = require("@foxglove/rosmsg");
const { MessageReader, MessageWriter } = require("@foxglove/rosmsg2-serialization");
const lz4 = require("lz4js");
const zstd = require("@foxglove/wasm-zstd");

const [outDir, seedArg = "1"] = scriptArgs("node make_mcaps.mjs OUTDIR [SEED]", 1);
fs.mkdirSync(outDir, { recursive: true });
await zstd.isLoaded;

// ---- deterministic randomness (the seed hashed from 0)

const { rnd, int, pick, chance, u64 } = seededRandom(seedArg, 0);

// ---- message types
//
// A type is {name: "fix_msgs/T3", fields: [...], constants: [...]}; a field is
// {name, base, arr: "" | "fixed" | "bounded" | "seq", n, strBound, def}; base
// is a primitive name, "Time"/"Duration" (builtin_interfaces in ROS 2, time
// and duration in ROS 1) or another type's name.

const PRIMS2 = ["bool", "byte", "char", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64", "string"];
const PRIMS1 = ["bool", "byte", "char", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64", "string"];
const PKG = "fix_msgs";

function makeTypes(ros, { empty = true } = {}) {
  const types = [];
  const prims = ros === 1 ? PRIMS1 : PRIMS2;
  const arrKinds = ros === 1 ? ["fixed", "seq"] : ["fixed", "bounded", "seq"];
  if (empty) types.push({ name: `${PKG}/Empty`, fields: [], constants: [] });
  // Every primitive as a scalar and in every kind of array.
  const all = { name: `${PKG}/AllTypes`, fields: [], constants: [] };
  for (const p of [...prims, "Time", "Duration"]) {
    const id = p.toLowerCase();
    all.fields.push({ name: `${id}_value`, base: p, arr: "" });
    for (const a of arrKinds) all.fields.push({ name: `${id}_${a}`, base: p, arr: a, n: a === "seq" ? 0 : int(1, 4) });
  }
  if (ros === 2) {
    all.fields.push({ name: "bounded_string", base: "string", arr: "", strBound: 6 });
    all.fields.push({ name: "bounded_strings", base: "string", arr: "bounded", n: 3, strBound: 4 });
    all.fields.push({ name: "fixed_bounded_strings", base: "string", arr: "fixed", n: 2, strBound: 5 });
  }
  all.constants.push({ base: "int32", name: "MAX_COUNT", value: "10" });
  all.constants.push({ base: "string", name: "GREETING", value: '"hello"' });
  types.push(all);
  // Random types, each may use the ones before it.
  for (let k = 0; k < 6; k++) {
    const t = { name: `${PKG}/T${k}`, fields: [], constants: [] };
    const nf = int(1, 9);
    for (let i = 0; i < nf; i++) {
      const useMsg = types.length > 0 && chance(0.3);
      const base = useMsg ? pick(types).name : chance(0.08) ? pick(["Time", "Duration"]) : pick(prims);
      const arr = chance(0.45) ? pick(arrKinds) : "";
      const f = { name: `f${i}_${base.split("/").pop().toLowerCase()}`, base, arr, n: arr === "seq" ? 0 : int(1, useMsg ? 2 : 5) };
      if (ros === 2 && base === "string" && chance(0.3)) f.strBound = int(1, 12);
      if (ros === 2 && !arr && !f.strBound && prims.includes(base) && chance(0.2)) f.def = defaultFor(base);
      t.fields.push(f);
    }
    if (chance(0.5)) t.constants.push({ base: "float64", name: `LIMIT_${k}`, value: "2.5" });
    types.push(t);
  }
  // A real-world shape: std_msgs/Header first.
  types.push({
    name: `${PKG}/Stamped`,
    fields: [
      { name: "header", base: ros === 1 ? "std_msgs/Header" : "std_msgs/Header", arr: "" },
      { name: "points", base: types[types.length - 1].name, arr: "seq" },
      { name: "data", base: "uint8", arr: "seq" },
    ],
    constants: [],
  });
  return types;
}

function defaultFor(base) {
  switch (base) {
    case "bool":
      return "true";
    case "float32":
    case "float64":
      return "1.5";
    case "string":
      return '"dflt"';
    default:
      return "7";
  }
}

const HEADER2 = { name: "std_msgs/Header", fields: [{ name: "stamp", base: "Time", arr: "" }, { name: "frame_id", base: "string", arr: "" }], constants: [] };
const HEADER1 = {
  name: "std_msgs/Header",
  fields: [{ name: "seq", base: "uint32", arr: "" }, { name: "stamp", base: "Time", arr: "" }, { name: "frame_id", base: "string", arr: "" }],
  constants: [],
};

function typeTable(types, ros) {
  const m = new Map(types.map((t) => [t.name, t]));
  m.set("std_msgs/Header", ros === 1 ? HEADER1 : HEADER2);
  return m;
}

const isMsg = (base) => base.includes("/");

// deps lists the message types t uses, transitively, each once, in first-use order.
function deps(t, table, ros, seen = new Set(), out = []) {
  for (const f of t.fields) {
    let name;
    if (isMsg(f.base)) name = f.base;
    else if (ros === 2 && (f.base === "Time" || f.base === "Duration")) name = `builtin_interfaces/${f.base}`;
    if (!name || seen.has(name)) continue;
    seen.add(name);
    out.push(name);
    if (isMsg(f.base)) deps(table.get(f.base), table, ros, seen, out);
  }
  return out;
}

const SEP = "================================================================================";
const BUILTIN = {
  "builtin_interfaces/Time": "int32 sec\nuint32 nanosec\n",
  "builtin_interfaces/Duration": "int32 sec\nuint32 nanosec\n",
};

function msgFieldType(f, t, ros, shortRefs) {
  let s;
  if (f.base === "Time" || f.base === "Duration") s = ros === 1 ? f.base.toLowerCase() : `builtin_interfaces/${f.base}`;
  else if (isMsg(f.base)) {
    // Same-package types may be named without their package, as .msg files do.
    s = shortRefs && f.base.startsWith(PKG + "/") && t.name.startsWith(PKG + "/") ? f.base.split("/")[1] : f.base;
    if (ros === 1 && f.base === "std_msgs/Header") s = "Header";
  } else s = f.base;
  if (f.strBound) s += `<=${f.strBound}`;
  if (f.arr === "fixed") s += `[${f.n}]`;
  if (f.arr === "bounded") s += `[<=${f.n}]`;
  if (f.arr === "seq") s += "[]";
  return s;
}

function msgText(t, ros, shortRefs) {
  const lines = [`# ${t.name}: generated by make_mcaps.mjs`];
  for (const c of t.constants) lines.push(`${c.base} ${c.name}=${c.value}`);
  for (const f of t.fields) {
    let l = `${msgFieldType(f, t, ros, shortRefs)} ${f.name}`;
    if (f.def !== undefined) l += ` ${f.def}`;
    if (chance(0.2)) l += "  # a comment";
    lines.push(l);
  }
  return lines.join("\n") + "\n";
}

// schemaText is the concatenated .msg text rosbag2 stores (encoding ros2msg / ros1msg).
function schemaText(t, table, ros) {
  const shortRefs = ros === 2 && chance(0.5);
  let s = msgText(t, ros, shortRefs);
  for (const d of deps(t, table, ros)) {
    s += `${SEP}\nMSG: ${d}\n`;
    s += BUILTIN[d] ?? msgText(table.get(d), ros, shortRefs);
  }
  return s;
}

// ---- IDL (ros2idl)

const IDL_PRIM = {
  bool: "boolean", byte: "octet", char: "uint8", int8: "int8", uint8: "uint8", int16: "int16", uint16: "uint16",
  int32: "int32", uint32: "uint32", int64: "int64", uint64: "uint64", float32: "float", float64: "double", string: "string",
};

function idlName(name) {
  const [pkg, typ] = name.split("/");
  return `${pkg}::msg::${typ}`;
}

function idlElem(f) {
  if (f.base === "Time" || f.base === "Duration") return `builtin_interfaces::msg::${f.base}`;
  if (isMsg(f.base)) return idlName(f.base);
  if (f.strBound) return `string<${f.strBound}>`;
  return IDL_PRIM[f.base];
}

function idlStruct(t) {
  const [pkg, typ] = t.name.split("/");
  const lines = [`// generated by make_mcaps.mjs`, `module ${pkg} {`, `  module msg {`];
  if (t.constants.length) {
    lines.push(`    module ${typ}_Constants {`);
    for (const c of t.constants) lines.push(`      const ${c.base === "string" ? "string" : IDL_PRIM[c.base]} ${c.name} = ${c.value};`);
    lines.push(`    };`);
  }
  lines.push(`    struct ${typ} {`);
  for (const f of t.fields) {
    const e = idlElem(f);
    if (f.def !== undefined) lines.push(`      @default (value=${f.def})`);
    if (f.arr === "fixed") lines.push(`      ${e} ${f.name}[${f.n}];`);
    else if (f.arr === "bounded") lines.push(`      sequence<${e}, ${f.n}> ${f.name};`);
    else if (f.arr === "seq") lines.push(`      sequence<${e}> ${f.name};`);
    else lines.push(`      ${e} ${f.name};`);
  }
  lines.push(`    };`, `  };`, `};`);
  return lines.join("\n") + "\n";
}

function idlSchemaText(t, table) {
  let s = idlStruct(t);
  for (const d of deps(t, table, 2)) {
    s += `${SEP}\nIDL: ${d.replace("/", "/msg/")}\n`;
    if (BUILTIN[d]) {
      const typ = d.split("/")[1];
      s += `module builtin_interfaces {\n  module msg {\n    struct ${typ} {\n      int32 sec;\n      uint32 nanosec;\n    };\n  };\n};\n`;
    } else s += idlStruct(table.get(d));
  }
  return s;
}

// ---- values

const INT_RANGE = {
  int8: [-128, 127], uint8: [0, 255], byte: [0, 255], char: [0, 255], int16: [-32768, 32767], uint16: [0, 65535],
  int32: [-2147483648, 2147483647], uint32: [0, 4294967295],
};
const F64_SPECIAL = [NaN, Infinity, -Infinity, -0, 0, 5e-324, -5e-324, 1.7976931348623157e308, -1.7976931348623157e308,
  2.2250738585072014e-308, 0.1, 1 / 3, 1e16, 123456789012345680000, 9007199254740993, -1e-7];
const F32_SPECIAL = [NaN, Infinity, -Infinity, -0, 0, 1.401298464324817e-45, 3.4028234663852886e38, -3.4028234663852886e38,
  1.1754943508222875e-38, Math.fround(0.1), Math.fround(1 / 3), 16777216, Math.fround(16777217.5)];
const ASCII = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";
const CONTROL = "\n\t\r\x01\x1b\x1f\x7f";

function randString(max = Infinity, depth = 0) {
  let n;
  const r = rnd();
  if (r < 0.1) n = 0;
  else if (r < 0.14 && depth === 0) n = int(300, 3000);
  else n = int(1, 20);
  n = Math.min(n, max);
  let s = "";
  for (let i = 0; i < n; i++) s += chance(0.05) ? pick(CONTROL) : ASCII[int(0, ASCII.length - 1)];
  return s;
}

function randScalar(base, ros, strBound, depth) {
  switch (base) {
    case "bool":
      return chance(0.5);
    case "int64":
      return chance(0.3) ? pick([-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 2n ** 53n + 1n, -(2n ** 53n) - 1n]) : BigInt.asIntN(64, u64());
    case "uint64":
      return chance(0.3) ? pick([0n, 2n ** 64n - 1n, 2n ** 63n, 2n ** 53n + 1n]) : u64();
    case "float64":
      return chance(0.35) ? pick(F64_SPECIAL) : (rnd() - 0.5) * 10 ** int(-12, 12);
    case "float32":
      return Math.fround(chance(0.35) ? pick(F32_SPECIAL) : (rnd() - 0.5) * 10 ** int(-8, 8));
    case "string":
      return randString(strBound, depth);
    case "Time":
    case "Duration":
      if (ros === 1) {
        // nsecs below 1e9: bagscope normalises top-level ROS 1 times as genpy does.
        const sec = base === "Time" ? int(0, 0xffffffff) : int(-2147483648, 2147483647);
        return { sec, nsec: int(0, 999999999) };
      }
      return { sec: chance(0.2) ? pick([-2147483648, 2147483647, -1]) : int(-2147483648, 2147483647), nanosec: chance(0.2) ? pick([4294967295, 1000000000, 999999999]) : int(0, 4294967295) };
  }
  let [lo, hi] = INT_RANGE[base];
  if (ros === 1 && base === "byte") [lo, hi] = INT_RANGE.int8; // ROS 1 byte is int8
  return chance(0.3) ? pick([lo, hi, 0, lo < 0 ? -1 : 1]) : int(lo, hi);
}

const TYPED = {
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
  int64: BigInt64Array, uint64: BigUint64Array, float32: Float32Array, float64: Float64Array,
};

function typedFor(base, ros) {
  if (base === "byte") return ros === 1 ? Int8Array : Uint8Array;
  if (base === "char") return Uint8Array;
  return TYPED[base];
}

function randMessage(t, table, ros, depth = 0) {
  const v = {};
  for (const f of t.fields) {
    const one = () => (isMsg(f.base) ? randMessage(table.get(f.base), table, ros, depth + 1) : randScalar(f.base, ros, f.strBound, depth));
    if (!f.arr) {
      v[f.name] = one();
      continue;
    }
    let n = f.arr === "fixed" ? f.n : f.arr === "bounded" ? int(0, f.n) : chance(0.15) ? 0 : int(1, 6);
    // Keep nested messages small: arrays of messages shrink with depth.
    if (isMsg(f.base) && f.arr !== "fixed") n = Math.min(n, Math.max(0, 3 - depth));
    if (f.arr === "seq" && !isMsg(f.base) && depth === 0 && chance(0.05)) n = int(100, 600);
    const xs = [];
    for (let i = 0; i < n; i++) xs.push(one());
    const T = isMsg(f.base) ? undefined : typedFor(f.base, ros);
    v[f.name] = T ? T.from(xs) : xs;
  }
  return v;
}

// ---- ROS 1 serialisation (little-endian, no alignment), from parsed definitions

function ros1Encode(definition, msg, byName) {
  const chunks = [];
  const put = (size, fn) => {
    const b = Buffer.alloc(size);
    fn(b);
    chunks.push(b);
  };
  const prim = (type, v) => {
    switch (type) {
      case "bool": return put(1, (b) => b.writeUInt8(v ? 1 : 0));
      case "int8": return put(1, (b) => b.writeInt8(v));
      case "uint8": return put(1, (b) => b.writeUInt8(v));
      case "int16": return put(2, (b) => b.writeInt16LE(v));
      case "uint16": return put(2, (b) => b.writeUInt16LE(v));
      case "int32": return put(4, (b) => b.writeInt32LE(v));
      case "uint32": return put(4, (b) => b.writeUInt32LE(v));
      case "int64": return put(8, (b) => b.writeBigInt64LE(v));
      case "uint64": return put(8, (b) => b.writeBigUInt64LE(v));
      case "float32": return put(4, (b) => b.writeFloatLE(v));
      case "float64": return put(8, (b) => b.writeDoubleLE(v));
      case "string": {
        const s = Buffer.from(v, "utf8");
        put(4, (b) => b.writeUInt32LE(s.length));
        return chunks.push(s);
      }
      case "time": return put(8, (b) => { b.writeUInt32LE(v.sec); b.writeUInt32LE(v.nsec, 4); });
      case "duration": return put(8, (b) => { b.writeInt32LE(v.sec); b.writeInt32LE(v.nsec, 4); });
    }
    throw new Error(`ros1Encode: unknown type ${type}`);
  };
  const walk = (def, m) => {
    for (const f of def) {
      if (f.isConstant) continue;
      const v = m[f.name];
      const one = (e) => (f.isComplex ? walk(byName.get(f.type), e) : prim(f.type, e));
      if (!f.isArray) {
        one(v);
        continue;
      }
      if (f.arrayLength === undefined) put(4, (b) => b.writeUInt32LE(v.length));
      else if (v.length !== f.arrayLength) throw new Error(`${f.name}: ${v.length} items for [${f.arrayLength}]`);
      for (const e of v) one(e);
    }
  };
  walk(definition, msg);
  return Buffer.concat(chunks);
}

// ---- fixtures

const COMPRESS = {
  none: undefined,
  lz4: (data) => ({ compression: "lz4", compressedData: Uint8Array.from(lz4.compress(data)) }),
  zstd: (data) => ({ compression: "zstd", compressedData: new Uint8Array(zstd.compress(data, 3)) }),
};

// channelsFor makes the channels of a fixture: type, schema text, encoders.
function channelsFor(kind) {
  const ros = kind === "ros1" ? 1 : 2;
  const types = makeTypes(ros, { empty: kind !== "ros2idl" });
  const table = typeTable(types, ros);
  const chans = [];
  const tops = [...types];
  for (const [i, t] of tops.entries()) {
    const text = schemaText(t, table, ros);
    const defs = parse(text, ros === 2 ? { ros2: true } : {});
    const { root, byName } = definitionsByName(defs);
    let encode, check;
    if (ros === 2) {
      const w = new MessageWriter(defs);
      const r = new MessageReader(defs);
      encode = (v) => w.writeMessage(v);
      check = (bytes) => jsonMessage(root, r.readMessage(bytes), byName, 2);
    } else {
      encode = (v) => ros1Encode(root, v, byName);
    }
    const schemaName = ros === 2 ? t.name.replace("/", "/msg/") : t.name;
    const schema = kind === "ros2idl"
      ? { name: schemaName, encoding: "ros2idl", data: idlSchemaText(t, table) }
      : { name: schemaName, encoding: ros === 2 ? "ros2msg" : "ros1msg", data: text };
    const topic = `/fix/${t.name.split("/")[1].toLowerCase()}`;
    chans.push({ topic, t, schema, encode, check, json: (v) => jsonMessage(root, v, byName, ros), weight: t.name.endsWith("AllTypes") ? 3 : 1, table, ros });
    // A second channel on the same topic, as two publishers make.
    if (i === 2) chans.push({ ...chans[chans.length - 1] });
  }
  return chans;
}

// messagesFor draws the messages of a fixture: [{chan, logTime, publishTime, value, data, line}].
function messagesFor(chans, { count, order, withJson }) {
  const msgs = [];
  let t = 1700000000n * 1000000000n + BigInt(int(0, 999999999));
  const weights = chans.flatMap((c, i) => Array(c.weight).fill(i));
  for (let k = 0; k < count; k++) {
    const c = chans[pick(weights)];
    // Ties: a few messages share their time with the one before.
    if (!chance(0.1)) t += BigInt(int(1, 50000000));
    const value = randMessage(c.t, c.table, c.ros);
    const data = c.encode(value);
    const line = c.json(value);
    if (c.check) {
      const back = c.check(data);
      if (back !== line) throw new Error(`MessageWriter/MessageReader round trip differs on ${c.t.name}:\n${line.slice(0, 500)}\n${back.slice(0, 500)}`);
    }
    msgs.push({ chan: c, logTime: t, publishTime: t - BigInt(int(0, 1000)), data, line });
  }
  if (withJson) {
    const jc = { topic: "/fix/json", isJson: true };
    for (let k = 0; k < 5; k++) {
      const i = int(0, msgs.length - 1);
      const data = Buffer.from(JSON.stringify({ k, note: "json messages have no cat --json contract" }));
      msgs.splice(i, 0, { chan: jc, logTime: msgs[i].logTime, publishTime: msgs[i].logTime, data });
    }
  }
  if (order === "shuffled") {
    // Out of log time order in the file: swap messages within windows of 40.
    for (let i = msgs.length - 1; i > 0; i--) {
      const j = Math.max(0, i - int(0, 40));
      [msgs[i], msgs[j]] = [msgs[j], msgs[i]];
    }
  }
  return msgs;
}

async function writeMcap(file, kind, chans, msgs, opts, { extras = false } = {}) {
  const writable = new MemWritable();
  const writer = new McapWriter({ writable, ...opts });
  await writer.start({ profile: kind === "ros1" ? "ros1" : "ros2", library: "bagscope make_mcaps.mjs" });
  const enc = new TextEncoder();
  const ids = new Map();
  for (const c of new Set(msgs.map((m) => m.chan))) {
    if (c.isJson) {
      ids.set(c, await writer.registerChannel({ topic: c.topic, schemaId: 0, messageEncoding: "json", metadata: new Map() }));
      continue;
    }
    let sid = ids.get(c.schema);
    if (sid === undefined) {
      sid = await writer.registerSchema({ name: c.schema.name, encoding: c.schema.encoding, data: enc.encode(c.schema.data) });
      ids.set(c.schema, sid);
    }
    const messageEncoding = kind === "ros1" ? "ros1" : "cdr";
    ids.set(c, await writer.registerChannel({ topic: c.topic, schemaId: sid, messageEncoding, metadata: new Map([["offered_qos_profiles", ""]]) }));
  }
  if (extras) {
    await writer.addAttachment({ name: "note.txt", logTime: msgs[0].logTime, createTime: 0n, mediaType: "text/plain", data: enc.encode("an attachment") });
    await writer.addMetadata({ name: "fixture", metadata: new Map([["seed", String(seedArg)]]) });
  }
  for (const [seq, m] of msgs.entries()) {
    await writer.addMessage({ channelId: ids.get(m.chan), sequence: seq, logTime: m.logTime, publishTime: m.publishTime, data: m.data });
  }
  await writer.end();
  const bytes = writable.bytes();
  fs.writeFileSync(path.join(outDir, file), bytes);
  return bytes;
}

function expectedLines(msgs) {
  const sorted = msgs.map((m, i) => ({ m, i })).sort((a, b) => (a.m.logTime < b.m.logTime ? -1 : a.m.logTime > b.m.logTime ? 1 : a.i - b.i));
  return sorted.map(({ m }) => {
    const c = m.chan;
    const head = `{"topic": ${jsonString(c.topic)}, "time": ${jsonTime(m.logTime)}`;
    if (c.isJson) return `${head}, "type": "", "undecoded": true}\n`;
    return `${head}, "type": ${jsonString(c.schema.name)}, "msg": ${m.line}}\n`;
  }).join("");
}

const manifest = [];

async function fixture(name, kind, opts, { order = "sorted", count = 200, withJson = false, extras = false, cuts = 0 } = {}) {
  const chans = channelsFor(kind);
  const msgs = messagesFor(chans, { count, order, withJson });
  const file = `${name}.mcap`;
  const bytes = await writeMcap(file, kind, chans, msgs, opts, { extras });
  const expected = `${name}.expected.jsonl`;
  fs.writeFileSync(path.join(outDir, expected), expectedLines(msgs));
  const oracle = kind === "ros2";
  manifest.push({ name, file, expected, cut: false, oracle });
  // Files cut short at random offsets past the header.
  for (let i = 0; i < cuts; i++) {
    const at = int(40, bytes.length - 40);
    const cutFile = `${name}.cut${at}.mcap`;
    fs.writeFileSync(path.join(outDir, cutFile), bytes.subarray(0, at));
    manifest.push({ name: `${name}.cut${at}`, file: cutFile, expected, cut: true, oracle });
  }
}

const full = {}; // @mcap/core's defaults: chunks, message and chunk indexes, statistics, summary offsets
const bare = {
  useStatistics: false, useSummaryOffsets: false, useChunkIndex: false, useMessageIndex: false,
  repeatSchemas: false, repeatChannels: false, useAttachmentIndex: false, useMetadataIndex: false,
};

await fixture("ros2-chunked-none", "ros2", { ...full, chunkSize: 16 << 10 }, { withJson: true, extras: true, cuts: 2 });
await fixture("ros2-chunked-lz4", "ros2", { ...full, chunkSize: 4 << 10, compressChunk: COMPRESS.lz4 }, { cuts: 3 });
await fixture("ros2-chunked-zstd", "ros2", { ...full, chunkSize: 32 << 10, compressChunk: COMPRESS.zstd }, { cuts: 2 });
await fixture("ros2-unchunked", "ros2", { ...full, useChunks: false }, { extras: true, cuts: 3 });
await fixture("ros2-unchunked-nosummary", "ros2", { ...bare, useChunks: false }, { cuts: 1 });
await fixture("ros2-chunked-lz4-nosummary", "ros2", { ...bare, chunkSize: 8 << 10, compressChunk: COMPRESS.lz4 }, { cuts: 1 });
await fixture("ros2-chunked-zstd-nomessageindex", "ros2", { ...full, useMessageIndex: false, chunkSize: 8 << 10, compressChunk: COMPRESS.zstd });
await fixture("ros2-chunked-none-nostats", "ros2", { ...full, useStatistics: false, useSummaryOffsets: false, chunkSize: 2 << 10 });
await fixture("ros2-outoforder-lz4", "ros2", { ...full, chunkSize: 4 << 10, compressChunk: COMPRESS.lz4 }, { order: "shuffled" });
await fixture("ros2-outoforder-unchunked", "ros2", { ...full, useChunks: false }, { order: "shuffled", count: 150 });
await fixture("ros2idl-chunked-zstd", "ros2idl", { ...full, chunkSize: 16 << 10, compressChunk: COMPRESS.zstd }, { count: 150 });
await fixture("ros1-chunked-lz4", "ros1", { ...full, chunkSize: 8 << 10, compressChunk: COMPRESS.lz4 }, { count: 150, cuts: 1 });

fs.writeFileSync(path.join(outDir, "fixtures.json"), JSON.stringify(manifest, null, 1) + "\n");
process.stdout.write(`make_mcaps: ${manifest.length} fixtures in ${outDir}\n`);
