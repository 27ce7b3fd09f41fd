// Shared helpers for the oracle scripts: the readers (mcap_cat.mjs,
// db3_cat.mjs) and the fixture writers (make_*.mjs).
//
// The npm packages are not in the repository: `make oracles` installs them
// from package-lock.json into $BAGSCOPE_ORACLES (default
// ~/.cache/bagscope-npm/node_modules), and they are loaded from there.

import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";

export const oraclesDir =
  process.env.BAGSCOPE_ORACLES || path.join(os.homedir(), ".cache", "bagscope-npm", "node_modules");

export const require = createRequire(path.join(oraclesDir, "bagscope-oracles.cjs"));

// Chunk decompression for @mcap/core: lz4js (pure JS) and fzstd (pure JS),
// independent of the C and Go implementations bagscope may use.
export function decompressHandlers() {
  const lz4 = require("lz4js");
  const fzstd = require("fzstd");
  return {
    lz4: (data, size) => Uint8Array.from(lz4.decompress(data, Number(size))),
    zstd: (data, size) => {
      const out = fzstd.decompress(data, new Uint8Array(Number(size)));
      if (out.length !== Number(size)) {
        throw new Error(`zstd: chunk decompressed to ${out.length} bytes, expected ${size}`);
      }
      return out;
    },
  };
}

// ---- JSON in the `bagscope cat --json` form, driven by the message definition.

// eventSep separates a definition's sections.
const eventSep = "\n" + "=".repeat(80) + "\n";

// The event type rosbag2 records for a service (service_msgs/msg/ServiceEventInfo
// as rosidl generates it: uint8 event_type, Time stamp, char[16] client_gid,
// int64 sequence_number).
export function serviceEventText(pkg, srv, srvText, kind = "srv") {
  const [main, ...deps] = srvText.split(/\n={10,}\n/);
  const halves = main.split(/^---\s*$/m);
  if (halves.length !== 2) throw new Error(`the ${pkg}/${kind}/${srv} text has no single --- line`);
  // A service's request is pkg/X_Request; an action's service's, pkg/action/X_Part_Request.
  const ns = kind === "srv" ? "" : kind + "/";
  let text =
    `service_msgs/ServiceEventInfo info\n${pkg}/${ns}${srv}_Request[<=1] request\n${pkg}/${ns}${srv}_Response[<=1] response\n` +
    `${eventSep}MSG: service_msgs/ServiceEventInfo\nuint8 REQUEST_SENT = 0\nuint8 REQUEST_RECEIVED = 1\nuint8 RESPONSE_SENT = 2\nuint8 RESPONSE_RECEIVED = 3\n` +
    `uint8 event_type\nbuiltin_interfaces/Time stamp\nchar[16] client_gid\nint64 sequence_number\n` +
    `${eventSep}MSG: ${pkg}/${ns}${srv}_Request\n${halves[0]}\n${eventSep}MSG: ${pkg}/${ns}${srv}_Response\n${halves[1]}\n`;
  for (const d of deps) text += eventSep + d;
  return text;
}

// definitionsByName maps the parsed definitions (as @foxglove/rosmsg parse
// returns them) by name, with the root under "" like MessageReader does.
export function definitionsByName(defs) {
  const root = defs.find((d) => !(d.definitions.length > 0 && d.definitions.every((f) => f.isConstant)));
  if (!root) throw new Error("no root definition");
  const byName = new Map(defs.map((d) => [d.name ?? "", d.definitions]));
  return { root: root.definitions, byName };
}

export function jsonString(s) {
  return JSON.stringify(s);
}

// jsonFloat writes a float so that parsing it back gives the same float64:
// JavaScript's shortest round-trip form, with ".0" on integral values, -0 as
// "-0.0", and NaN/infinities as the contract's strings.
export function jsonFloat(v) {
  if (Number.isNaN(v)) return '"NaN"';
  if (v === Infinity) return '"Infinity"';
  if (v === -Infinity) return '"-Infinity"';
  if (Object.is(v, -0)) return "-0.0";
  const s = String(v);
  return /[.eE]/.test(s) ? s : s + ".0";
}

export function base64(u8) {
  return Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength).toString("base64");
}

function jsonInt(v) {
  if (typeof v === "bigint") return v.toString();
  if (typeof v !== "number" || !Number.isInteger(v)) throw new Error(`not an integer: ${v}`);
  return String(v);
}

// ros is 1 or 2: ROS 1 time/duration are {"secs","nsecs"}, ROS 2's
// (builtin_interfaces, which the parser turns into "time") {"sec","nanosec"}.
export function jsonPrimitive(type, v, ros = 2) {
  switch (type) {
    case "bool":
      if (typeof v !== "boolean") throw new Error(`not a bool: ${v}`);
      return v ? "true" : "false";
    case "int8":
    case "uint8":
    case "int16":
    case "uint16":
    case "int32":
    case "uint32":
    case "int64":
    case "uint64":
      return jsonInt(v);
    case "float32":
    case "float64":
      return jsonFloat(v);
    case "string":
    case "wstring":
      return jsonString(v);
    case "time":
    case "duration":
      if (ros === 1) return `{"secs": ${jsonInt(v.sec)}, "nsecs": ${jsonInt(v.nsec)}}`;
      return `{"sec": ${jsonInt(v.sec)}, "nanosec": ${jsonInt(v.nanosec)}}`;
  }
  throw new Error(`unknown primitive type ${type}`);
}

// jsonMessage writes msg (as MessageReader returns it) along definition.
// uint8 arrays (ROS 2 byte, char, uint8; ROS 1 uint8, char) are base64.
export function jsonMessage(definition, msg, byName, ros = 2) {
  const parts = [];
  for (const f of definition) {
    if (f.isConstant) continue;
    const v = msg[f.name];
    if (v === undefined) throw new Error(`field ${f.name} missing`);
    parts.push(`${jsonString(f.name)}: ${jsonField(f, v, byName, ros)}`);
  }
  return `{${parts.join(", ")}}`;
}

function jsonField(f, v, byName, ros) {
  if (f.isArray) {
    if (!f.isComplex && f.type === "uint8") {
      if (!(v instanceof Uint8Array)) throw new Error(`${f.name}: uint8 array is not a Uint8Array`);
      return `"${base64(v)}"`;
    }
    const items = [];
    for (const e of v) items.push(jsonValue(f, e, byName, ros));
    return `[${items.join(", ")}]`;
  }
  return jsonValue(f, v, byName, ros);
}

function jsonValue(f, v, byName, ros) {
  if (f.isComplex) {
    const def = byName.get(f.type);
    if (!def) throw new Error(`unknown type ${f.type}`);
    return jsonMessage(def, v, byName, ros);
  }
  return jsonPrimitive(f.type, v, ros);
}

export function jsonTime(logTime) {
  return `{"secs": ${logTime / 1000000000n}, "nsecs": ${logTime % 1000000000n}}`;
}

// ---- Typed values for the `ros2 topic echo` oracle (ros2_echo.py).
//
// @foxglove/rosmsg's ROS 2 parser reads `byte` as uint8, but rclpy gives a
// byte (IDL octet) as a bytes object, which `ros2 topic echo` prints as a
// character, not a number. markByteFields finds the fields declared `byte`
// in a definition's text (each section: the root, then "MSG: pkg/Type"
// after a line of '=') and marks them (f.rosByte) in the parsed definitions.

const shortTypeName = (name) => String(name ?? "").replace(/^([^/]+)\/msg\/([^/]+)$/, "$1/$2");

export function markByteFields(defs, text) {
  const byteFields = new Map(); // short type name ("" for the root) -> Set of field names
  const sections = text.split(/^=+\s*$/m);
  sections.forEach((sec, i) => {
    let name = "";
    const names = new Set();
    for (const raw of sec.split("\n")) {
      const line = raw.replace(/#.*/, "").trim();
      const m = /^MSG:\s*(\S+)/.exec(line);
      if (m) {
        name = shortTypeName(m[1]);
        continue;
      }
      const f = /^byte(\[[^\]]*\])?\s+([A-Za-z_]\w*)(\s|$)/.exec(line);
      if (f && !/^byte(\[[^\]]*\])?\s+\w+\s*=/.test(line)) names.add(f[2]);
    }
    if (i === 0) name = "";
    byteFields.set(name, names);
  });
  for (const d of defs) {
    const names = byteFields.get(d.name === undefined ? "" : shortTypeName(d.name));
    for (const f of d.definitions) if (names?.has(f.name) && !f.isConstant) f.rosByte = true;
  }
}

// The fields of the ROS 2 Jazzy standard messages declared `byte` (read
// from their .msg files), for definitions that come from
// @foxglove/rosmsg-msgs-common, which has no text.
const jazzyByteFields = {
  "std_msgs/Byte": ["data"],
  "std_msgs/ByteMultiArray": ["data"],
  "rcl_interfaces/ParameterValue": ["byte_array_value"],
  "diagnostic_msgs/DiagnosticStatus": ["level"],
};

export function markJazzyByteFields(defs) {
  for (const d of defs) {
    const names = jazzyByteFields[shortTypeName(d.name)];
    for (const f of d.definitions) if (names?.includes(f.name) && !f.isConstant) f.rosByte = true;
  }
}

// typedMessage writes msg along its definition with each value's ROS type:
// a message {"m": [[name, V], ...]}, an array {"a": [V, ...], "e", "n"}
// (typedArray), a bool
// {"b": true}, an integer {"i": "123"}, a float {"f": "0.1"} (JavaScript's
// shortest round-trip digits, NaN, Infinity, -Infinity, -0.0), a string
// {"s": "..."}, a byte {"y": 7}; Time and Duration are messages of sec and
// nanosec.
export function typedMessage(definition, msg, byName) {
  const parts = [];
  for (const f of definition) {
    if (f.isConstant) continue;
    const v = msg[f.name];
    if (v === undefined) throw new Error(`field ${f.name} missing`);
    parts.push(`[${jsonString(f.name)}, ${f.isArray ? typedArray(f, v, byName) : typedValue(f, v, byName)}]`);
  }
  return `{"m": [${parts.join(", ")}]}`;
}

// typedArray writes an array {"a": [V, ...], "e": element type, "n":
// length of a fixed array or null}: rclpy keeps a sequence of numbers in
// an array.array and a fixed array of numbers in a numpy array.
function typedArray(f, v, byName) {
  const elems = Array.from(v, (e) => typedValue(f, e, byName)).join(", ");
  const elemType = f.isComplex ? "message" : f.rosByte ? "byte" : f.type;
  return `{"a": [${elems}], "e": ${jsonString(elemType)}, "n": ${f.arrayLength ?? "null"}}`;
}

function typedValue(f, v, byName) {
  if (f.isComplex) {
    const def = byName.get(f.type);
    if (!def) throw new Error(`unknown type ${f.type}`);
    return typedMessage(def, v, byName);
  }
  switch (f.type) {
    case "bool":
      return `{"b": ${v ? "true" : "false"}}`;
    case "float32":
    case "float64":
      return `{"f": "${Object.is(v, -0) ? "-0.0" : String(v)}"}`;
    case "string":
    case "wstring":
      return `{"s": ${jsonString(v)}}`;
    case "time":
    case "duration":
      return `{"m": [["sec", {"i": "${v.sec}"}], ["nanosec", {"i": "${v.nanosec}"}]]}`;
  }
  if (f.rosByte) return `{"y": ${v}}`;
  return `{"i": "${jsonInt(v)}"}`;
}

// ---- Writing fixtures (make_*.mjs).

// scriptArgs is the script's arguments; without the first `need` of them
// it prints usage and exits with status 2.
export function scriptArgs(usage, need) {
  const args = process.argv.slice(2);
  if (args.length < need || args.slice(0, need).some((a) => !a)) {
    process.stderr.write(`usage: ${usage}\n`);
    process.exit(2);
  }
  return args;
}

// seededRandom is mulberry32 seeded by the string seedArg (hashed from
// start), with the draws the fixture writers use: int (lo to hi
// inclusive), pick, chance (true with probability p) and u64.
export function seededRandom(seedArg, start) {
  let a = start;
  for (const c of String(seedArg)) a = (Math.imul(a, 31) + c.charCodeAt(0)) | 0;
  const rnd = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
  const pick = (xs) => xs[int(0, xs.length - 1)];
  const chance = (p) => rnd() < p;
  const u64 = () => (BigInt(int(0, 0xffffffff)) << 32n) | BigInt(int(0, 0xffffffff));
  return { rnd, int, pick, chance, u64 };
}

// MemWritable keeps what @mcap/core's McapWriter writes in memory.
export class MemWritable {
  chunks = [];
  size = 0n;
  position() {
    return this.size;
  }
  async write(buf) {
    this.chunks.push(Buffer.from(buf));
    this.size += BigInt(buf.byteLength);
  }
  bytes() {
    return Buffer.concat(this.chunks);
  }
}

// ros2Time is a time in nanoseconds (a BigInt) as builtin_interfaces/Time.
export function ros2Time(ns) {
  return { sec: Number(ns / 1000000000n), nanosec: Number(ns % 1000000000n) };
}

// The ROS 2 definitions the make_*_mcap.mjs writers share, in the text
// rosbag2 stores: sections after a line of 80 '='.
export const defSep = "=".repeat(80) + "\n";

// headerDefs are the sections of std_msgs/Header and its Time.
export const headerDefs = `${defSep}MSG: std_msgs/Header
builtin_interfaces/Time stamp
string frame_id
${defSep}MSG: builtin_interfaces/Time
int32 sec
uint32 nanosec
`;

// xyzDef is the section of a geometry_msgs type of three float64 x, y, z
// (Vector3, Point).
export const xyzDef = (name) => `${defSep}MSG: geometry_msgs/${name}
float64 x
float64 y
float64 z
`;

// quaternionDef is the section of geometry_msgs/Quaternion.
export const quaternionDef = `${defSep}MSG: geometry_msgs/Quaternion
float64 x
float64 y
float64 z
float64 w
`;

// tfMessageDef is tf2_msgs/msg/TFMessage's definition.
export const tfMessageDef = `geometry_msgs/TransformStamped[] transforms
${defSep}MSG: geometry_msgs/TransformStamped
std_msgs/Header header
string child_frame_id
Transform transform
${headerDefs}${defSep}MSG: geometry_msgs/Transform
Vector3 translation
Quaternion rotation
${xyzDef("Vector3")}${quaternionDef}`;

// ros2McapWriter starts an @mcap/core McapWriter of the ros2 profile in
// memory, chunks of chunkSize bytes (the writer's default when undefined).
// Its messages are CDR: cdrWriter(definition) is a
// @foxglove/rosmsg2-serialization MessageWriter of a ROS 2 definition
// (parsed by @foxglove/rosmsg); schema registers one ros2msg schema;
// channel one CDR channel (offered_qos_profiles: qos); save writes the file.
export async function ros2McapWriter(library, chunkSize) {
  const { McapWriter } = require("@mcap/core");
  const writable = new MemWritable();
  const w = new McapWriter({ writable, chunkSize });
  await w.start({ profile: "ros2", library });
  return {
    w,
    schema: (name, definition) => w.registerSchema({ name, encoding: "ros2msg", data: new TextEncoder().encode(definition) }),
    channel: (topic, schemaId, qos = "") =>
      w.registerChannel({ topic, schemaId, messageEncoding: "cdr", metadata: new Map([["offered_qos_profiles", qos]]) }),
    save: async (outPath) => {
      await w.end();
      fs.writeFileSync(outPath, writable.bytes());
    },
  };
}

// cdrWriter serialises messages of a ROS 2 definition as CDR.
export function cdrWriter(definition) {
  const { parse } = require("@foxglove/rosmsg");
  const { MessageWriter } = require("@foxglove/rosmsg2-serialization");
  return new MessageWriter(parse(definition, { ros2: true }));
}
