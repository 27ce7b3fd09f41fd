#!/usr/bin/env node
// db3_cat.mjs: an independent `bagscope cat --json` for rosbag2 SQLite
// recordings.
//
//   node testdata/oracle/db3_cat.mjs FILE.db3|FILE.db3.zstd|FOLDER|FOLDER/metadata.yaml
//
// Reads each .db3 with @foxglove/rosbag2-web's SqliteSqljs (SQLite compiled
// to WASM by sql.js, found inside node_modules; the file is opened from its
// bytes, so nothing is ever written beside it) and prints one JSON line per
// message in receive-time order (the messages table's timestamp), ties in
// file order, then row order:
//
//   {"topic": T, "time": {"secs": S, "nsecs": N}, "type": TYPE, "msg": {...}}
//
// A folder (or its metadata.yaml) is read as one recording: the files
// metadata.yaml lists (by base name, with or without .zstd), then any other
// .db3 file of the folder, merged in timestamp order. A single file is read
// alone. FILE mode .db3.zstd files are decompressed with fzstd (pure JS);
// MESSAGE mode messages (metadata.yaml says so, or the blob is a zstd frame,
// which a CDR message never is) are decompressed message by message.
//
// Definitions, per file: the .db3's message_definitions table (Iron and
// later; encoding ros2msg) when it has the type, else the standard ROS 2
// Jazzy definitions of @foxglove/rosmsg-msgs-common (the same files bagscope
// embeds, less test_msgs, which bagscope leaves out). Service event topics (pkg/srv/X_Event) are built from the stored
// .srv text: {service_msgs/ServiceEventInfo info, X_Request[<=1] request,
// X_Response[<=1] response}. Messages are decoded by
// @foxglove/rosmsg2-serialization's MessageReader and written by lib.mjs
// (64-bit integers exact, floats that parse back to the same float64,
// uint8/byte/char arrays as base64, Time/Duration as {"sec","nanosec"}).
// A message it cannot decode is printed as
//
//   {"topic": T, "time": ..., "type": ..., "skip": REASON}
//
// and a definition that leaves bytes unread is reported on stderr (the
// message is still printed, as CDR allows padding).
//
// Exit status: 0 when every file was read; 1 when a file could not be read
// whole (what was read is printed, the reason goes to stderr); 2 on usage
// errors; 3 when the path is not a .db3 recording (an MCAP folder); 4 when
// the oracle cannot read a file at all (a .zstd fzstd cannot decompress, a
// hot WAL that sql.js cannot apply): nothing is printed.

import fs from "node:fs";
import path from "node:path";
import { require, definitionsByName, jsonMessage, jsonString, jsonTime, markByteFields, markJazzyByteFields, serviceEventText, typedMessage } from "./lib.mjs";

const { SqliteSqljs } = require("@foxglove/rosbag2-web");
const { parse } = require("@foxglove/rosmsg");
const { MessageReader } = require("@foxglove/rosmsg2-serialization");
const { ros2jazzy } = require("@foxglove/rosmsg-msgs-common");
const yaml = require("js-yaml");
const fzstd = require("fzstd");

function fail(code, msg) {
  process.stderr.write(`db3_cat: ${msg}\n`);
  process.exit(code);
}

// --typed writes "msg" with each value's ROS type (lib.mjs typedMessage),
// for the `ros2 topic echo` oracle (ros2_echo.py).
const typed = process.argv.includes("--typed");
const args = process.argv.slice(2).filter((a) => a !== "--typed");
if (args.length !== 1 || args[0].startsWith("-")) {
  fail(2, "usage: node db3_cat.mjs [--typed] FILE.db3|FILE.db3.zstd|FOLDER|FOLDER/metadata.yaml");
}

// ---- Which files, in which order.

const naturalOrder = (a, b) => a.localeCompare(b, "en", { numeric: true });
const isDb3 = (n) => /\.db3(\.zstd)?$/i.test(n);
const isMcap = (n) => /\.mcap(\.zstd)?$/i.test(n);

function recording(arg) {
  let st;
  try {
    st = fs.statSync(arg);
  } catch (e) {
    fail(2, e.message);
  }
  let dir;
  if (st.isDirectory()) dir = arg;
  else if (path.basename(arg) === "metadata.yaml") dir = path.dirname(arg);
  else if (isDb3(arg)) return { files: [arg], messageZstd: "sniff" };
  else fail(3, `${arg} is not a .db3 file or a rosbag2 folder`);

  let info;
  const mpath = path.join(dir, "metadata.yaml");
  if (fs.existsSync(mpath)) {
    try {
      info = yaml.load(fs.readFileSync(mpath, "utf8"))?.rosbag2_bagfile_information;
    } catch (e) {
      process.stderr.write(`db3_cat: metadata.yaml does not parse (${e.message}): the folder is read from its files\n`);
    }
  }
  const onDisk = fs.readdirSync(dir).filter((n) => isDb3(n) || isMcap(n)).sort(naturalOrder);
  if (onDisk.some(isMcap) || (info?.storage_identifier && info.storage_identifier !== "sqlite3" && onDisk.length === 0)) {
    fail(3, `${dir} is not a .db3 recording (storage ${info?.storage_identifier ?? "mcap"})`);
  }
  const files = [];
  const used = new Set();
  for (const rel of info?.relative_file_paths ?? []) {
    const base = path.basename(String(rel));
    const found = [base, base + ".zstd", base.replace(/\.zstd$/, "")].find((n) => onDisk.includes(n));
    if (!found) {
      process.stderr.write(`db3_cat: metadata.yaml lists ${rel}, which is not in the folder\n`);
      continue;
    }
    if (!used.has(found)) {
      used.add(found);
      files.push(path.join(dir, found));
    }
  }
  for (const n of onDisk) if (!used.has(n)) files.push(path.join(dir, n));
  const mode = String(info?.compression_mode ?? "").toUpperCase();
  return { files, messageZstd: mode === "MESSAGE" ? "always" : "sniff" };
}

// ---- Definitions.

// Jazzy's standard definitions, less test_msgs, which bagscope's embedded
// copy (bag/rosmsg/ros2defs) leaves out.
const jazzy = Object.fromEntries(Object.entries(ros2jazzy).filter(([name]) => !name.startsWith("test_msgs/")));
const jazzyDefs = Object.values(jazzy);
markJazzyByteFields(jazzyDefs);

const shortName = (type) => type.replace(/^([^/]+)\/msg\/([^/]+)$/, "$1/$2");

// decoderFor returns {decode(bytes) -> json} or {skip: reason} for a type,
// from the file's stored definitions (a map type -> {encoding, text}) or Jazzy's.
function makeDecoder(type, stored) {
  let defs, source;
  try {
    const ev = /^([^/]+)\/srv\/([^/]+)_Event$/.exec(type);
    if (ev) {
      const s = stored.get(`${ev[1]}/srv/${ev[2]}`);
      if (!s || !s.text) return { skip: `no stored .srv definition for ${type}` };
      if (s.encoding !== "ros2msg") return { skip: `stored ${ev[1]}/srv/${ev[2]} is ${s.encoding}, not ros2msg` };
      const text = serviceEventText(ev[1], ev[2], s.text);
      defs = parse(text, { ros2: true });
      markByteFields(defs, text);
      source = "the .srv text in message_definitions";
    } else {
      const s = stored.get(type) ?? stored.get(shortName(type)) ?? stored.get(type.replace(/^([^/]+)\/([^/]+)$/, "$1/msg/$2"));
      if (s && s.text) {
        if (s.encoding !== "ros2msg") return { skip: `stored definition of ${type} is ${s.encoding}, not ros2msg` };
        defs = parse(s.text, { ros2: true });
        markByteFields(defs, s.text);
        source = "message_definitions";
      } else {
        const root = jazzy[shortName(type)];
        if (!root) return { skip: `no definition for ${type} (not stored in the file, not a standard Jazzy type)` };
        defs = [root, ...jazzyDefs];
        source = "rosmsg-msgs-common ros2jazzy";
      }
    }
  } catch (e) {
    return { skip: `oracle cannot parse the definition of ${type}: ${e.message}` };
  }
  try {
    const { root, byName } = definitionsByName(defs);
    const reader = new MessageReader(defs);
    let warned = false;
    return {
      decode: (bytes) => {
        const json = (typed ? typedMessage : jsonMessage)(root, reader.readMessage(bytes), byName, 2);
        if (!warned && reader.lastReadByteLength() + 3 < bytes.byteLength) {
          warned = true;
          process.stderr.write(`db3_cat: ${type} (${source}) leaves ${bytes.byteLength - reader.lastReadByteLength()} of ${bytes.byteLength} bytes unread\n`);
        }
        return json;
      },
    };
  } catch (e) {
    return { skip: `oracle cannot use the definition of ${type}: ${e.message}` };
  }
}

// ---- Reading.

const sqlDir = path.dirname(require.resolve("@foxglove/sql.js"));
// The WASM binary is handed over as bytes: given a path, emscripten would
// try to fetch() it.
const SQL = await SqliteSqljs.Initialize({ wasmBinary: fs.readFileSync(path.join(sqlDir, "sql-wasm.wasm")) });
const zstdMagic = [0x28, 0xb5, 0x2f, 0xfd];
const isZstdFrame = (b) => b.length >= 4 && zstdMagic.every((v, i) => b[i] === v);

function fileBytes(file) {
  let bytes = fs.readFileSync(file);
  if (/\.zstd$/i.test(file)) {
    try {
      bytes = fzstd.decompress(bytes);
    } catch (e) {
      fail(4, `fzstd cannot decompress ${file}: ${e.message}`);
    }
  } else {
    let wal = 0;
    try {
      wal = fs.statSync(file + "-wal").size;
    } catch {
      // no WAL file
    }
    if (wal > 0) fail(4, `${file} has a ${wal}-byte WAL, which sql.js (reading the file's bytes) cannot apply`);
  }
  // A WAL-mode database (header bytes 18 and 19 are 2) with no WAL data is
  // the same database in rollback mode: say so, as sql.js has no shared
  // memory for a WAL index.
  if (bytes.length >= 100 && bytes[18] === 2 && bytes[19] === 2) {
    bytes = Uint8Array.from(bytes);
    bytes[18] = bytes[19] = 1;
  }
  return bytes;
}

function storedDefinitions(bytes) {
  const stored = new Map();
  const db = new SQL.Database(bytes);
  try {
    const has = db.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'message_definitions'");
    if (has.length === 0) return stored;
    for (const [type, encoding, text] of db.exec("SELECT topic_type, encoding, encoded_message_definition FROM message_definitions")[0]?.values ?? []) {
      if (!stored.has(type)) stored.set(type, { encoding, text });
    }
  } finally {
    db.close();
  }
  return stored;
}

const { files, messageZstd } = recording(args[0]);
const msgs = []; // {topic, time (bigint ns), data, file, order}
const decoders = []; // per file: type -> decoder
let status = 0;
for (let fi = 0; fi < files.length; fi++) {
  const bytes = fileBytes(files[fi]);
  const stored = storedDefinitions(bytes);
  const cache = new Map();
  decoders.push((type) => {
    let d = cache.get(type);
    if (!d) cache.set(type, (d = makeDecoder(type, stored)));
    return d;
  });
  const db = new SqliteSqljs(bytes);
  let unknownTopic = 0;
  try {
    await db.open();
    const it = db.readMessages({});
    for (;;) {
      let r;
      try {
        r = await it.next();
      } catch (e) {
        // A row whose topic_id names no topic: RawMessageIterator throws
        // and goes on with the next row.
        if (/Cannot find topic_id/.test(e.message)) {
          unknownTopic++;
          continue;
        }
        throw e;
      }
      if (r.done) break;
      const m = r.value;
      const time = BigInt(m.timestamp.sec) * 1000000000n + BigInt(m.timestamp.nsec);
      msgs.push({ topic: m.topic, time, data: m.data, file: fi, order: msgs.length });
    }
  } catch (e) {
    process.stderr.write(`db3_cat: ${files[fi]}: ${e.message}\n`);
    status = 1;
  } finally {
    await db.close();
  }
  if (unknownTopic > 0) process.stderr.write(`db3_cat: ${files[fi]}: ${unknownTopic} messages of unknown topic ids left out\n`);
}
msgs.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.order - b.order));

function line(m) {
  const head = `{"topic": ${jsonString(m.topic.name)}, "time": ${jsonTime(m.time)}, "type": ${jsonString(m.topic.type)}`;
  if ((m.topic.serializationFormat ?? "cdr") !== "cdr") {
    return `${head}, "skip": ${jsonString(`serialization format ${m.topic.serializationFormat}, not cdr`)}}`;
  }
  const d = decoders[m.file](m.topic.type);
  if (d.skip !== undefined) return `${head}, "skip": ${jsonString(d.skip)}}`;
  let data = m.data;
  try {
    if (messageZstd === "always" || isZstdFrame(data)) data = fzstd.decompress(data);
    return `${head}, "msg": ${d.decode(data)}}`;
  } catch (e) {
    return `${head}, "skip": ${jsonString(`oracle cannot decode: ${e.message}`)}}`;
  }
}

let out = [];
for (const m of msgs) {
  out.push(line(m));
  if (out.length >= 4096) {
    fs.writeSync(1, out.join("\n") + "\n");
    out = [];
  }
}
if (out.length) fs.writeSync(1, out.join("\n") + "\n");
process.exitCode = status;
