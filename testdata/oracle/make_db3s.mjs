#!/usr/bin/env node
// make_db3s.mjs: rosbag2 .db3 fixtures with random ROS 2 messages, and the
// JSON lines `bagscope cat --json` must print for them.
//
//   node testdata/oracle/make_db3s.mjs OUTDIR [SEED]
//
// Node makes the messages, Python's standard sqlite3 module writes the files
// (write_db3.py, beside this script, run by the test): this script writes
//
//   OUTDIR/spec.json            what write_db3.py writes: per fixture its files
//                               (schema version 1 to 4, journal mode, topics,
//                               message_definitions rows, metadata, and each
//                               message row: id, topic_id, timestamp, CDR bytes
//                               in base64) and the folder's metadata.yaml
//   OUTDIR/NAME.expected.jsonl  the messages' values, as serialised, in the
//                               `cat --json` form, in timestamp order (ties in
//                               file order, then row id); a message without a
//                               definition anywhere is {"topic","time","type","skip"}
//   OUTDIR/fixtures.json        [{"name", "path", "expected"}]: path is the file or
//                               folder to print, relative to OUTDIR
//
// Messages are serialised with @foxglove/rosmsg2-serialization's
// MessageWriter and read back with its MessageReader before they are kept.
// Types: random ones (every primitive in every kind of array, bounded strings,
// nested messages, constants, defaults, same-package names without their
// package), stored in message_definitions (schema version 4), and standard
// Jazzy types from @foxglove/rosmsg-msgs-common, which files of versions 1 to
// 3 cannot store and readers take from their standard definitions. Strings
// are ASCII: MessageWriter sizes strings in UTF-16 units and cuts non-ASCII
// ones short. MESSAGE compression (one zstd frame per message) uses
// @foxglove/wasm-zstd.

import fs from "node:fs";
import path from "node:path";
import { require, definitionsByName, jsonMessage, jsonString, jsonTime, base64, scriptArgs, seededRandom } from "./lib.mjs";

const { parse } = require("@foxglove/rosmsg");
const { MessageReader, MessageWriter } = require("@foxglove/rosmsg2-serialization");
const { ros2jazzy } = require("@foxglove/rosmsg-msgs-common");
const zstd = require("@foxglove/wasm-zstd");

const [outDir, seedArg = "1"] = scriptArgs("node make_db3s.mjs OUTDIR [SEED]", 1);
fs.mkdirSync(outDir, { recursive: true });
await zstd.isLoaded;

// ---- deterministic randomness (the seed hashed from 7)

const { rnd, int, pick, chance, u64 } = seededRandom(seedArg, 7);
function shuffle(xs) {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = int(0, i);
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

// ---- random types, as .msg text

const PRIMS = ["bool", "byte", "char", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float32", "float64", "string"];
const PKG = "fix_msgs";
const SEP = "=".repeat(80);
const FIXED_TEXT = {
  "builtin_interfaces/Time": "int32 sec\nuint32 nanosec\n",
  "builtin_interfaces/Duration": "int32 sec\nuint32 nanosec\n",
  "std_msgs/Header": "builtin_interfaces/Time stamp\nstring frame_id\n",
  "geometry_msgs/Vector3": "float64 x\nfloat64 y\nfloat64 z\n",
};
const FIXED_DEPS = { "std_msgs/Header": ["builtin_interfaces/Time"] };

// A type is {name, fields: [{name, type, arr: ""|"fixed"|"bounded"|"seq", n, strBound, def}], constants: [line]}.
function makeTypes() {
  const types = [{ name: `${PKG}/Empty`, fields: [], constants: [] }];
  const all = { name: `${PKG}/AllTypes`, fields: [], constants: ["int32 MAX_COUNT=10", 'string GREETING="hello"'] };
  for (const p of [...PRIMS, "builtin_interfaces/Time", "builtin_interfaces/Duration"]) {
    const id = p.split("/").pop().toLowerCase();
    all.fields.push({ name: `${id}_value`, type: p, arr: "" });
    for (const a of ["fixed", "bounded", "seq"]) all.fields.push({ name: `${id}_${a}`, type: p, arr: a, n: int(1, 4) });
  }
  all.fields.push({ name: "bounded_string", type: "string", arr: "", strBound: 6 });
  all.fields.push({ name: "bounded_strings", type: "string", arr: "bounded", n: 3, strBound: 4 });
  types.push(all);
  const others = ["std_msgs/Header", "geometry_msgs/Vector3", "builtin_interfaces/Time", "builtin_interfaces/Duration"];
  for (let k = 0; k < 6; k++) {
    const t = { name: `${PKG}/T${k}`, fields: [], constants: chance(0.5) ? [`float64 LIMIT_${k}=2.5`] : [] };
    const nf = int(1, 9);
    for (let i = 0; i < nf; i++) {
      const r = rnd();
      const type = r < 0.25 ? pick(types).name : r < 0.35 ? pick(others) : pick(PRIMS);
      const arr = chance(0.45) ? pick(["fixed", "bounded", "seq"]) : "";
      const f = { name: `f${i}_${type.split("/").pop().toLowerCase()}`, type, arr, n: int(1, type.includes("/") ? 2 : 5) };
      if (type === "string" && chance(0.3)) f.strBound = int(1, 12);
      if (!arr && !f.strBound && PRIMS.includes(type) && chance(0.2)) f.def = type === "bool" ? "true" : type === "string" ? '"dflt"' : type.startsWith("float") ? "1.5" : "7";
      t.fields.push(f);
    }
    types.push(t);
  }
  return new Map(types.map((t) => [t.name, t]));
}

function fieldText(f, owner, shortRefs) {
  let s = f.type;
  if (shortRefs && s.startsWith(PKG + "/") && owner.startsWith(PKG + "/")) s = s.split("/")[1];
  if (f.strBound) s += `<=${f.strBound}`;
  if (f.arr === "fixed") s += `[${f.n}]`;
  if (f.arr === "bounded") s += `[<=${f.n}]`;
  if (f.arr === "seq") s += "[]";
  let l = `${s} ${f.name}`;
  if (f.def !== undefined) l += ` ${f.def}`;
  if (chance(0.15)) l += "  # a comment";
  return l;
}

function typeText(name, custom, shortRefs) {
  if (FIXED_TEXT[name]) return FIXED_TEXT[name];
  const t = custom.get(name);
  const lines = [`# ${name}: generated by make_db3s.mjs`, ...t.constants, ...t.fields.map((f) => fieldText(f, name, shortRefs))];
  return lines.join("\n") + "\n";
}

function depsOf(name, custom, seen = new Set(), out = []) {
  const next = FIXED_DEPS[name] ?? (custom.get(name)?.fields ?? []).map((f) => f.type).filter((t) => t.includes("/"));
  for (const d of next) {
    if (seen.has(d)) continue;
    seen.add(d);
    out.push(d);
    depsOf(d, custom, seen, out);
  }
  return out;
}

// storedText is the ros2msg text rosbag2 stores: the type, then each dependency.
function storedText(name, custom) {
  const shortRefs = chance(0.5);
  let s = typeText(name, custom, shortRefs);
  for (const d of depsOf(name, custom)) s += `${SEP}\nMSG: ${d}\n${typeText(d, custom, shortRefs)}`;
  return s;
}

// ---- values, from parsed definitions

const INT_RANGE = {
  int8: [-128, 127], uint8: [0, 255], int16: [-32768, 32767], uint16: [0, 65535], int32: [-2147483648, 2147483647], uint32: [0, 4294967295],
};
const F64_SPECIAL = [NaN, Infinity, -Infinity, -0, 0, 5e-324, -5e-324, 1.7976931348623157e308, 2.2250738585072014e-308, 0.1, 1 / 3, 1e16, 9007199254740993, -1e-7];
const F32_SPECIAL = [NaN, Infinity, -Infinity, -0, 0, 1.401298464324817e-45, 3.4028234663852886e38, 1.1754943508222875e-38, Math.fround(0.1), 16777216];
const ASCII = " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";
const CONTROL = "\n\t\r\x01\x1b\x1f\x7f";

function randString(max = Infinity, depth = 0) {
  const r = rnd();
  let n = r < 0.1 ? 0 : r < 0.13 && depth === 0 ? int(300, 3000) : int(1, 20);
  n = Math.min(n, max);
  let s = "";
  for (let i = 0; i < n; i++) s += chance(0.05) ? pick(CONTROL) : ASCII[int(0, ASCII.length - 1)];
  return s;
}

function randScalar(f, depth) {
  switch (f.type) {
    case "bool":
      return chance(0.5);
    case "int64":
      return chance(0.3) ? pick([-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n, 2n ** 53n + 1n]) : BigInt.asIntN(64, u64());
    case "uint64":
      return chance(0.3) ? pick([0n, 2n ** 64n - 1n, 2n ** 63n, 2n ** 53n + 1n]) : u64();
    case "float64":
      return chance(0.35) ? pick(F64_SPECIAL) : (rnd() - 0.5) * 10 ** int(-12, 12);
    case "float32":
      return Math.fround(chance(0.35) ? pick(F32_SPECIAL) : (rnd() - 0.5) * 10 ** int(-8, 8));
    case "string":
      return randString(f.upperBound, depth);
    case "time":
    case "duration":
      return { sec: chance(0.2) ? pick([-2147483648, 2147483647, -1]) : int(-2147483648, 2147483647), nanosec: chance(0.2) ? pick([4294967295, 1000000000, 999999999]) : int(0, 4294967295) };
  }
  const range = INT_RANGE[f.type];
  if (!range) throw new Error(`no generator for ${f.type}`);
  const [lo, hi] = range;
  return chance(0.3) ? pick([lo, hi, 0, lo < 0 ? -1 : 1]) : int(lo, hi);
}

const TYPED = {
  int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array,
  int64: BigInt64Array, uint64: BigUint64Array, float32: Float32Array, float64: Float64Array,
};

function randMessage(def, byName, depth = 0) {
  const v = {};
  for (const f of def) {
    if (f.isConstant) continue;
    const one = () => (f.isComplex ? randMessage(byName.get(f.type), byName, depth + 1) : randScalar(f, depth));
    if (!f.isArray) {
      v[f.name] = one();
      continue;
    }
    let n = f.arrayLength ?? (f.arrayUpperBound !== undefined ? int(0, f.arrayUpperBound) : chance(0.15) ? 0 : int(1, 6));
    if (f.isComplex && f.arrayLength === undefined) n = Math.min(n, Math.max(0, 3 - depth));
    if (!f.isComplex && f.arrayLength === undefined && f.arrayUpperBound === undefined && depth === 0 && chance(0.05)) n = int(100, 600);
    const xs = [];
    for (let i = 0; i < n; i++) xs.push(one());
    const T = f.isComplex ? undefined : TYPED[f.type];
    v[f.name] = T ? T.from(xs) : xs;
  }
  return v;
}

// ---- channels: a topic with its type, definition source and coder

const jazzyDefs = Object.values(ros2jazzy);
const jazzyNames = Object.keys(ros2jazzy).filter((n) => {
  const d = ros2jazzy[n].definitions;
  // test_msgs: not among bagscope's standard definitions (nor the oracle's).
  return !n.startsWith("test_msgs/") && !(d.length > 0 && d.every((f) => f.isConstant)) && !d.some((f) => f.type === "wstring");
});

// coder returns {json(value), encode(value) -> bytes, random()} for parsed definitions.
function coder(defs, name) {
  const { root, byName } = definitionsByName(defs);
  const w = new MessageWriter(defs);
  const r = new MessageReader(defs);
  return {
    random: () => randMessage(root, byName),
    encode: (v) => {
      const data = w.writeMessage(v);
      const line = jsonMessage(root, v, byName, 2);
      const back = jsonMessage(root, r.readMessage(data), byName, 2);
      if (back !== line) throw new Error(`MessageWriter/MessageReader round trip differs on ${name}:\n${line.slice(0, 400)}\n${back.slice(0, 400)}`);
      return { data, line };
    },
  };
}

const custom = makeTypes();

// customChannel: a random type, its definition stored in the file.
function customChannel(topic, name) {
  const text = storedText(name, custom);
  const rosName = name.replace("/", "/msg/");
  return { topic, type: rosName, def: { type: rosName, encoding: "ros2msg", text }, coder: coder(parse(text, { ros2: true }), rosName) };
}

// jazzyChannel: a standard type; the file stores no text for it (v4 files
// write an "unknown" row, as rosbag2 does when it finds no definition).
function jazzyChannel(topic, name, { shortType = false } = {}) {
  const rosName = shortType ? name : name.replace("/", "/msg/");
  return { topic, type: rosName, def: { type: rosName, encoding: "unknown", text: "" }, coder: coder([ros2jazzy[name], ...jazzyDefs], rosName) };
}

// undecodable: a custom type stored nowhere: a reader can only skip it.
function undecodableChannel(topic) {
  const c = customChannel(topic, `${PKG}/T${int(0, 5)}`);
  return { ...c, def: undefined, skip: true };
}

function jazzyChannels(n, opts) {
  return shuffle([...jazzyNames]).slice(0, n).map((name, i) => jazzyChannel(`/std/${i}_${name.split("/")[1].toLowerCase()}`, name, { shortType: opts?.shortTypes && chance(0.4) }));
}

function customChannels() {
  return [...custom.keys()].map((name) => customChannel(`/fix/${name.split("/")[1].toLowerCase()}`, name));
}

// ---- messages

// draw makes count messages on chans: [{chan, time, data, line}], in time order with ties.
function draw(chans, count, start) {
  const msgs = [];
  let t = start;
  const weights = chans.flatMap((c, i) => Array(c.type.endsWith("AllTypes") ? 3 : 1).fill(i));
  for (let k = 0; k < count; k++) {
    const c = chans[pick(weights)];
    if (!chance(0.12)) t += BigInt(int(1, 50000000));
    const { data, line } = c.coder.encode(c.coder.random());
    msgs.push({ chan: c, time: t, data, line });
  }
  return msgs;
}

const QOS = "- history: 3\n  depth: 0\n  reliability: 1\n  durability: 2\n  deadline:\n    sec: 2147483647\n    nsec: 4294967295\n  lifespan:\n    sec: 2147483647\n    nsec: 4294967295\n  liveliness: 1\n  liveliness_lease_duration:\n    sec: 2147483647\n    nsec: 4294967295\n  avoid_ros_namespace_conventions: false";

// fileSpec lays out one .db3: topic ids per file (shuffled), rows (optionally
// out of timestamp order), unknown topic ids, and MESSAGE compression.
function fileSpec(file, version, chans, msgs, { shuffleRows = false, unknownTopics = 0, messageZstd = false, wal = false } = {}) {
  const used = [...new Set(msgs.map((m) => m.chan))];
  for (const c of chans) if (!used.includes(c) && chance(0.5)) used.push(c); // topics without messages
  shuffle(used);
  const ids = new Map(used.map((c, i) => [c, i + 1]));
  const topics = used.map((c) => [ids.get(c), c.topic, c.type, "cdr", QOS, `RIHS01_${"0".repeat(63)}${ids.get(c) % 10}`]);
  const defs = [];
  const seen = new Set();
  for (const c of used) {
    if (c.def && !seen.has(c.def.type)) {
      seen.add(c.def.type);
      defs.push([c.def.type, c.def.encoding, c.def.text, ""]);
    }
  }
  let rows = msgs.map((m, i) => ({ m, id: i + 1 }));
  for (let k = 0; k < unknownTopics; k++) {
    const at = int(0, rows.length);
    rows.splice(at, 0, { m: { chan: undefined, time: rows[Math.min(at, rows.length - 1)]?.m.time ?? 0n, data: Buffer.from([0, 1, 0, 0, 42, 0, 0, 0]) }, unknown: true });
  }
  rows.forEach((r, i) => (r.id = i + 1));
  if (shuffleRows) {
    // Row ids out of timestamp order: swap rows within windows of 30.
    for (let i = rows.length - 1; i > 0; i--) {
      const j = Math.max(0, i - int(0, 30));
      [rows[i].m, rows[j].m, rows[i].unknown, rows[j].unknown] = [rows[j].m, rows[i].m, rows[j].unknown, rows[i].unknown];
    }
  }
  const out = rows.map((r) => {
    const data = messageZstd ? new Uint8Array(zstd.compress(r.m.data, 3)) : r.m.data;
    return [r.id, r.unknown ? 999 : ids.get(r.m.chan), r.m.time.toString(), base64(data)];
  });
  const kept = rows.filter((r) => !r.unknown).map((r) => ({ ...r.m, row: r.id }));
  return { spec: { file, version, wal, topics, defs: version >= 4 ? defs : [], messages: out }, kept };
}

function metadataYaml(files, { messageZstd = false, version = 5 } = {}) {
  const all = files.flatMap((f) => f.kept);
  const counts = new Map();
  for (const m of all) counts.set(m.chan, (counts.get(m.chan) ?? 0) + 1);
  const span = (ms) => {
    if (ms.length === 0) return [0n, 0n];
    let lo = ms[0].time, hi = ms[0].time;
    for (const m of ms) {
      if (m.time < lo) lo = m.time;
      if (m.time > hi) hi = m.time;
    }
    return [lo, hi - lo];
  };
  const [start, dur] = span(all);
  let y = `rosbag2_bagfile_information:\n  version: ${version}\n  storage_identifier: sqlite3\n`;
  y += `  duration:\n    nanoseconds: ${dur}\n  starting_time:\n    nanoseconds_since_epoch: ${start}\n  message_count: ${all.length}\n`;
  y += `  topics_with_message_count:\n`;
  for (const [c, n] of counts) {
    y += `    - topic_metadata:\n        name: ${c.topic}\n        type: ${c.type}\n        serialization_format: cdr\n        offered_qos_profiles: ""\n      message_count: ${n}\n`;
  }
  y += `  compression_format: "${messageZstd ? "zstd" : ""}"\n  compression_mode: "${messageZstd ? "MESSAGE" : ""}"\n`;
  y += `  relative_file_paths:\n${files.map((f) => `    - ${f.spec.file}\n`).join("")}`;
  y += `  files:\n`;
  for (const f of files) {
    const [s, d] = span(f.kept);
    y += `    - path: ${f.spec.file}\n      starting_time:\n        nanoseconds_since_epoch: ${s}\n      duration:\n        nanoseconds: ${d}\n      message_count: ${f.kept.length}\n`;
  }
  return y;
}

function expected(files) {
  const rows = files.flatMap((f, fi) => f.kept.map((m) => ({ ...m, fi })));
  rows.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.fi - b.fi || a.row - b.row));
  return rows.map((m) => {
    const head = `{"topic": ${jsonString(m.chan.topic)}, "time": ${jsonTime(m.time)}, "type": ${jsonString(m.chan.type)}`;
    if (m.chan.skip) return `${head}, "skip": "no definition: the type is stored nowhere"}\n`;
    return `${head}, "msg": ${m.line}}\n`;
  }).join("");
}

const spec = [];
const manifest = [];
let clock = 1700000000n * 1000000000n;

// fixture: one .db3 (folder false) or a folder of files with a metadata.yaml.
function fixture(name, parts, { folder = false, metadata = true, messageZstd = false } = {}) {
  const files = parts.map((p, i) => {
    const file = folder ? `${name}_${i}.db3` : `${name}.db3`;
    return fileSpec(file, p.version, p.chans, p.msgs, { ...p.opts, messageZstd });
  });
  const meta = metadataYaml(files, { messageZstd, version: 8 });
  const inner = meta.replace(/^rosbag2_bagfile_information:\n/, "").replace(/^  /gm, "");
  for (const f of files) f.spec.metadata = f.spec.version >= 3 ? inner : null;
  spec.push({ name, dir: folder ? name : "", metadataYaml: folder && metadata ? meta : null, files: files.map((f) => f.spec) });
  fs.writeFileSync(path.join(outDir, `${name}.expected.jsonl`), expected(files));
  manifest.push({ name, path: folder ? name : `${name}.db3`, expected: `${name}.expected.jsonl` });
}

const next = () => (clock += BigInt(int(1, 1000)) * 1000000000n);

{
  const chans = jazzyChannels(8, { shortTypes: true });
  fixture("v1-std", [{ version: 1, chans, msgs: draw(chans, 150, next()) }]);
}
{
  const chans = jazzyChannels(10);
  fixture("v2-std", [{ version: 2, chans, msgs: draw(chans, 200, next()) }]);
}
{
  const chans = [...jazzyChannels(8), undecodableChannel("/nodef")];
  fixture("v3-unordered", [{ version: 3, chans, msgs: draw(chans, 200, next()), opts: { shuffleRows: true, unknownTopics: 3 } }]);
}
{
  const chans = [...customChannels(), ...jazzyChannels(5)];
  fixture("v4-custom", [{ version: 4, chans, msgs: draw(chans, 300, next()), opts: { shuffleRows: chance(0.5) } }]);
}
{
  const chans = [...customChannels().slice(0, 4), ...jazzyChannels(3)];
  fixture("v4-wal", [{ version: 4, chans, msgs: draw(chans, 120, next()), opts: { wal: true } }]);
}
{
  // A split recording: three files whose times overlap at the edges, with
  // topic ids that differ from file to file.
  const chans = [...customChannels().slice(1, 5), ...jazzyChannels(4)];
  const all = draw(chans, 360, next());
  const a = all.slice(0, 130), b = all.slice(125, 250), c = all.slice(250);
  const parts = [a.slice(0, 125), [...a.slice(125), ...b], c].map((msgs) => ({ version: 4, chans, msgs }));
  fixture("split", parts, { folder: true });
}
{
  const chans = jazzyChannels(6);
  const all = draw(chans, 200, next());
  fixture("msgzstd", [all.slice(0, 110), all.slice(110)].map((msgs) => ({ version: 3, chans, msgs })), { folder: true, messageZstd: true });
}
{
  const chans = [...customChannels().slice(0, 3), ...jazzyChannels(2)];
  const all = draw(chans, 120, next());
  fixture("nometadata", [all.slice(0, 60), all.slice(60)].map((msgs) => ({ version: 4, chans, msgs })), { folder: true, metadata: false });
}

fs.writeFileSync(path.join(outDir, "spec.json"), JSON.stringify(spec) + "\n");
fs.writeFileSync(path.join(outDir, "fixtures.json"), JSON.stringify(manifest, null, 1) + "\n");
process.stdout.write(`make_db3s: ${manifest.length} fixtures in ${outDir}\n`);
