#!/usr/bin/env node
// export_node.mjs: the node peer of `bagscope export --format parquet` for
// the benchmark: @mcap/core reads the MCAP, @foxglove/rosmsg2-serialization
// decodes each message, and hyparquet-writer writes one Parquet file per
// topic into OUTDIR, with a column for the log time and one per field
// (nested messages flattened with '.'; arrays as JSON text: less than
// bagscope does, which writes lists).
//
//   node testdata/bench/export_node.mjs FILE.mcap OUTDIR [TOPIC...]
//
// Prints the rows written per topic. With EXPORT_FORMAT=csv in the
// environment it writes CSV instead (a header of the column names, then a
// line a message; text quoted as RFC 4180 says), the peer of `bagscope
// export --format csv`.

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { require, oraclesDir, decompressHandlers } from "../oracle/lib.mjs";

const { McapIndexedReader } = require("@mcap/core");
const { parse } = require("@foxglove/rosmsg");
const { MessageReader } = require("@foxglove/rosmsg2-serialization");
const { parquetWriteFile } = await import(pathToFileURL(path.join(oraclesDir, "hyparquet-writer", "src", "node.js")).href);

const [file, outdir, ...wanted] = process.argv.slice(2);
if (!file || !outdir) {
  process.stderr.write("usage: node export_node.mjs FILE.mcap OUTDIR [TOPIC...]\n");
  process.exit(2);
}
const data = fs.readFileSync(file);
const readable = {
  size: async () => BigInt(data.length),
  read: async (offset, length) => data.subarray(Number(offset), Number(offset + length)),
};
const reader = await McapIndexedReader.Initialize({ readable, decompressHandlers: decompressHandlers() });
const readers = new Map();
const tables = new Map(); // topic -> {cols: Map(name -> array)}
const topics = [...reader.channelsById.values()].filter((c) => wanted.length === 0 || wanted.includes(c.topic)).map((c) => c.topic);

function json(v) {
  return JSON.stringify(v, (_, x) => (typeof x === "bigint" ? x.toString() : ArrayBuffer.isView(x) ? Array.from(x) : x));
}

function flatten(prefix, v, out) {
  if (v !== null && typeof v === "object" && !Array.isArray(v) && !ArrayBuffer.isView(v)) {
    for (const [k, x] of Object.entries(v)) flatten(prefix ? prefix + "." + k : k, x, out);
    return;
  }
  if (Array.isArray(v) || (ArrayBuffer.isView(v) && !(v instanceof Uint8Array))) out.push([prefix, json(v)]);
  else out.push([prefix, v]);
}

for await (const m of reader.readMessages({ topics })) {
  const ch = reader.channelsById.get(m.channelId);
  let r = readers.get(ch.id);
  if (!r) {
    const schema = reader.schemasById.get(ch.schemaId);
    r = new MessageReader(parse(new TextDecoder().decode(schema.data), { ros2: true }));
    readers.set(ch.id, r);
  }
  const msg = r.readMessage(m.data);
  let t = tables.get(ch.topic);
  if (!t) {
    t = { cols: new Map([["log_time", []]]) };
    tables.set(ch.topic, t);
  }
  t.cols.get("log_time").push(m.logTime);
  const flat = [];
  flatten("", msg, flat);
  for (const [k, v] of flat) {
    let c = t.cols.get(k);
    if (!c) t.cols.set(k, (c = []));
    c.push(v);
  }
}

fs.mkdirSync(outdir, { recursive: true });
function csvField(v) {
  if (v === undefined || v === null) return "";
  if (v instanceof Uint8Array) v = json(v);
  const s = String(v);
  return /[",\n\r]/.test(s) ? '"' + s.replaceAll('"', '""') + '"' : s;
}
if (process.env.EXPORT_FORMAT === "csv") {
  for (const [topic, t] of tables) {
    const cols = [...t.cols.values()];
    const n = t.cols.get("log_time").length;
    const lines = [[...t.cols.keys()].map(csvField).join(",")];
    for (let i = 0; i < n; i++) lines.push(cols.map((c) => csvField(c[i])).join(","));
    const out = path.join(outdir, topic.replace(/^\//, "").replaceAll("/", "_") + ".csv");
    fs.writeFileSync(out, lines.join("\n") + "\n");
    process.stdout.write(`${out} ${n} rows\n`);
  }
  process.exit(0);
}
for (const [topic, t] of tables) {
  const columnData = [];
  for (const [name, values] of t.cols) {
    let type;
    const v = values[0];
    if (typeof v === "bigint") type = "INT64";
    else if (typeof v === "number") type = "DOUBLE";
    else if (typeof v === "boolean") type = "BOOLEAN";
    else if (v instanceof Uint8Array) type = "BYTE_ARRAY";
    else type = "STRING";
    columnData.push({ name, data: values, type });
  }
  const out = path.join(outdir, topic.replace(/^\//, "").replaceAll("/", "_") + ".parquet");
  parquetWriteFile({ filename: out, columnData });
  process.stdout.write(`${out} ${t.cols.get("log_time").length} rows\n`);
}
