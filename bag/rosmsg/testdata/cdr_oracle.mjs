// Oracle for the CDR decoder: @foxglove/rosmsg (parser) and
// @foxglove/rosmsg2-serialization (CDR writer and reader), an implementation
// independent of ours.
//
//   node cdr_oracle.mjs random COUNT SEED   random definitions and values
//   node cdr_oracle.mjs decode < in.jsonl    decode {type, text, data} lines
//
// Each output line is JSON: {type, text, data (base64 CDR), value}, value
// being the reader's result with int64/uint64 as decimal strings, floats as
// "f:" + the 16 hex digits of their float64 bits, uint8/byte/char arrays as
// base64. Only ASCII strings are generated: MessageWriter writes a string's
// length in UTF-16 units and cuts non-ASCII strings short.
//
// The packages are loaded from $BAGSCOPE_ORACLES (default
// $HOME/.cache/bagscope-npm/node_modules). Exit status 3: they are missing.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import path from "node:path";

const dir = process.env.BAGSCOPE_ORACLES || path.join(process.env.HOME || "", ".cache/bagscope-npm/node_modules");
const require = createRequire(path.join(dir, "x.js"));
let parse, MessageWriter, MessageReader;
try {
  ({ parse } = require("@foxglove/rosmsg"));
  ({ MessageWriter, MessageReader } = require("@foxglove/rosmsg2-serialization"));
  require("@foxglove/rosmsg-msgs-common");
} catch (e) {
  process.stderr.write(`npm oracles missing in ${dir}: ${e.message}\n`);
  process.exit(3);
}

// mulberry32
function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEP = "\n" + "=".repeat(80) + "\n";
const PRIMS = ["bool", "byte", "char", "int8", "uint8", "int16", "uint16", "int32", "uint32",
  "int64", "uint64", "float32", "float64", "string"];
const INT_RANGE = {
  int8: [-128n, 127n], uint8: [0n, 255n], byte: [0n, 255n], char: [0n, 255n],
  int16: [-32768n, 32767n], uint16: [0n, 65535n], int32: [-2147483648n, 2147483647n],
  uint32: [0n, 4294967295n], int64: [-(1n << 63n), (1n << 63n) - 1n], uint64: [0n, (1n << 64n) - 1n],
};

function genDefinition(r) {
  const pick = (a) => a[Math.floor(r() * a.length)];
  const ntypes = 1 + Math.floor(r() * 3);
  const types = []; // [{name, pkg, lines}]
  for (let i = ntypes - 1; i >= 0; i--) {
    const pkg = i === 0 ? "root_pkg" : pick(["root_pkg", "other_pkg"]);
    const t = { name: i === 0 ? "Root" : `T${i}`, pkg, fields: [], lines: [] };
    const nfields = i > 0 && r() < 0.15 ? 0 : 1 + Math.floor(r() * 8);
    for (let f = 0; f < nfields; f++) {
      const later = types.filter(Boolean);
      let base, complex = null;
      if (later.length > 0 && r() < 0.25) {
        complex = pick(later);
        base = complex.pkg === pkg && r() < 0.5 ? complex.name : `${complex.pkg}/${complex.name}`;
      } else {
        base = pick(PRIMS);
      }
      let strBound = 0;
      if (base === "string" && r() < 0.2) {
        strBound = 1 + Math.floor(r() * 40);
        base += `<=${strBound}`;
      }
      let arr = "", len = undefined, bound = 0, isArray = false;
      const a = r();
      if (a < 0.2) { arr = "[]"; isArray = true; }
      else if (a < 0.35) { len = Math.floor(r() * 5); arr = `[${len}]`; isArray = true; }
      else if (a < 0.45) { bound = 1 + Math.floor(r() * 5); arr = `[<=${bound}]`; isArray = true; }
      const name = `f${f}_${pick(["a", "b", "x"])}`;
      t.fields.push({ name, base: base.replace(/<=.*/, ""), complex, isArray, len, bound, strBound });
      let line = `${base}${arr} ${name}`;
      if (!complex && !isArray && base !== "string" && r() < 0.1) line += " 0"; // a default value
      if (!complex && !isArray && base.startsWith("string") && r() < 0.1) line += ' "a # not a comment"';
      if (r() < 0.2) line += "  # comment, with = sign";
      t.lines.push(line);
      if (r() < 0.1) t.lines.push(`int32 CONST_${f}=${f - 3}`);
      if (r() < 0.05) t.lines.push(`string SCONST_${f}="x#y"`);
    }
    types[i] = t;
  }
  let text = types[0].lines.join("\n") + "\n";
  for (let i = 1; i < types.length; i++) {
    text += SEP + `MSG: ${types[i].pkg}/${types[i].name}\n` + types[i].lines.join("\n") + "\n";
  }
  return { text, root: types[0] };
}

function genString(r, max) {
  const chars = "abcXYZ019 _-\"\\/\n\t\u0001~#=";
  let n;
  const k = r();
  if (k < 0.2) n = 0;
  else if (k < 0.3) n = 200 + Math.floor(r() * 400);
  else n = Math.floor(r() * 12);
  if (max > 0 && n > max) n = max;
  let s = "";
  for (let i = 0; i < n; i++) s += chars[Math.floor(r() * chars.length)];
  return s;
}

function genPrim(r, base, strBound) {
  const pick = (a) => a[Math.floor(r() * a.length)];
  switch (base) {
    case "bool": return r() < 0.5;
    case "string": return genString(r, strBound);
    case "float32":
      return pick([NaN, Infinity, -Infinity, -0, 0, 3.4028234663852886e38, -3.4028234663852886e38,
        1.401298464324817e-45, 1.1754943508222875e-38, Math.fround(r() * 2000 - 1000), Math.fround(0.1)]);
    case "float64":
      return pick([NaN, Infinity, -Infinity, -0, 0, Number.MAX_VALUE, -Number.MAX_VALUE, 5e-324,
        2.2250738585072014e-308, 0.1, 1e16, r() * 2e6 - 1e6, 123456789.125]);
  }
  const [lo, hi] = INT_RANGE[base];
  let v;
  const k = r();
  if (k < 0.25) v = lo;
  else if (k < 0.5) v = hi;
  else if (k < 0.6) v = 0n;
  else if (k < 0.7 && lo < 0n) v = -1n;
  else v = lo + BigInt(Math.floor(r() * Number(hi - lo < 1n << 53n ? hi - lo : 1n << 53n)));
  return base === "int64" || base === "uint64" ? v : Number(v);
}

function genValue(r, t, depth = 0) {
  const msg = {};
  for (const f of t.fields) {
    const one = () => (f.complex ? genValue(r, f.complex, depth + 1) : genPrim(r, f.base, f.strBound));
    if (!f.isArray) {
      msg[f.name] = one();
      continue;
    }
    let n = f.len;
    if (n === undefined) n = f.bound > 0 ? Math.floor(r() * (f.bound + 1)) : Math.floor(r() * (r() < 0.1 ? 40 : 5));
    const a = [];
    for (let i = 0; i < n; i++) a.push(one());
    msg[f.name] = a;
  }
  return msg;
}

// norm turns a reader value into the comparison form, guided by the definition.
function norm(value, defs, fields) {
  const out = {};
  for (const f of fields) {
    if (f.isConstant) continue;
    const v = value[f.name];
    const one = (x) => {
      if (f.isComplex) return norm(x, defs, defs.get(f.type));
      if (typeof x === "bigint") return x.toString();
      if (f.type === "float32" || f.type === "float64") {
        const b = Buffer.alloc(8);
        b.writeDoubleBE(x);
        return "f:" + b.toString("hex");
      }
      return x;
    };
    if (!f.isArray) out[f.name] = one(v);
    else if (v instanceof Uint8Array) out[f.name] = Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64");
    else out[f.name] = Array.from(v, one);
  }
  return out;
}

function defsMap(defs) {
  return new Map(defs.map((d) => [d.name ?? "", d.definitions]));
}

const stringify = (o) => JSON.stringify(o, (k, v) => (typeof v === "bigint" ? v.toString() : v));

const mode = process.argv[2];
if (mode === "random") {
  const count = Number(process.argv[3] || 100);
  const r = rng(Number(process.argv[4] || 1));
  for (let i = 0; i < count; i++) {
    const { text, root } = genDefinition(r);
    const defs = parse(text, { ros2: true });
    const value = genValue(r, root);
    const data = new MessageWriter(defs).writeMessage(value);
    const read = new MessageReader(defs).readMessage(data);
    const dm = defsMap(defs);
    const rootDef = defs.find((d) => !(d.definitions.length > 0 && d.definitions.every((f) => f.isConstant)));
    process.stdout.write(stringify({ type: "root_pkg/msg/Root", text, data: Buffer.from(data).toString("base64"),
      value: norm(read, dm, rootDef.definitions) }) + "\n");
  }
} else if (mode === "decode") {
  for (const line of readFileSync(0, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    const rec = JSON.parse(line);
    try {
      const defs = parse(rec.text, { ros2: true });
      const dm = defsMap(defs);
      const rootDef = defs.find((d) => !(d.definitions.length > 0 && d.definitions.every((f) => f.isConstant)));
      const read = new MessageReader(defs).readMessage(Buffer.from(rec.data, "base64"));
      process.stdout.write(stringify({ type: rec.type, value: norm(read, dm, rootDef.definitions) }) + "\n");
    } catch (e) {
      process.stdout.write(stringify({ type: rec.type, error: String(e.message || e) }) + "\n");
    }
  }
} else {
  process.stderr.write("usage: cdr_oracle.mjs random COUNT SEED | decode\n");
  process.exit(2);
}
