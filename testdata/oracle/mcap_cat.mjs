#!/usr/bin/env node
// mcap_cat.mjs: an independent `bagscope cat --json` for MCAP files.
//
//   node testdata/oracle/mcap_cat.mjs [--reader=auto|indexed|stream] [--typed] FILE
//
// Reads FILE with @mcap/core and prints one JSON line per message, in log
// time order (ties in file order):
//
//   {"topic": T, "time": {"secs": S, "nsecs": N}, "type": SCHEMA_NAME, "msg": {...}}
//
// cdr messages with ros2msg schemas are decoded with
// @foxglove/rosmsg2-serialization's MessageReader (definitions from
// @foxglove/rosmsg parse(text, {ros2: true})), and written with the
// definition's field names: 64-bit integers exact, floats so that they parse
// back to the same float64 (NaN/Infinity/-Infinity as strings), uint8 arrays
// (ROS 2 byte, char, uint8) as base64, builtin_interfaces Time/Duration as
// {"sec", "nanosec"}. Messages it cannot decode are printed as
//
//   {"topic": T, "time": ..., "type": ..., "skip": REASON}         (a schema or message the oracle cannot decode)
//   {"topic": T, "time": ..., "type": ..., "undecoded": true, "encoding": E}  (not cdr+ros2msg: ros1, json, protobuf, ...)
//
// --typed writes "msg" with each value's ROS type (lib.mjs typedMessage),
// for the `ros2 topic echo` oracle (ros2_echo.py).
//
// Readers: "indexed" is McapIndexedReader (needs the summary); "stream" is
// McapStreamReader over the whole file, sorted by log time (stable). "auto"
// (the default) uses the indexed reader when the file has chunk and message
// indexes, else the stream reader; when both can read the file it checks
// that they give the same messages.
//
// Exit status: 0 when the whole file was read; 1 when the reader stopped
// early (a cut file, a bad CRC, ...): the messages read before are printed
// and the reason goes to stderr; 2 on usage errors or when the readers
// disagree.

import fs from "node:fs";
import { require, decompressHandlers, definitionsByName, jsonMessage, jsonString, jsonTime, markByteFields, serviceEventText, typedMessage } from "./lib.mjs";

const { McapIndexedReader, McapStreamReader } = require("@mcap/core");
const { parse } = require("@foxglove/rosmsg");
const { MessageReader } = require("@foxglove/rosmsg2-serialization");

function usage(msg) {
  process.stderr.write(`mcap_cat: ${msg}\nusage: node mcap_cat.mjs [--reader=auto|indexed|stream] FILE\n`);
  process.exit(2);
}

let mode = "auto";
let typed = false;
const files = [];
for (const a of process.argv.slice(2)) {
  if (a.startsWith("--reader=")) mode = a.slice("--reader=".length);
  else if (a === "--typed") typed = true;
  else if (a.startsWith("-")) usage(`unknown flag ${a}`);
  else files.push(a);
}
if (files.length !== 1 || !["auto", "indexed", "stream"].includes(mode)) usage("one FILE expected");
const data = fs.readFileSync(files[0]);

// Each message is {channel, schema, logTime, data, order}.

async function readIndexed() {
  const readable = {
    size: async () => BigInt(data.length),
    read: async (offset, length) => data.subarray(Number(offset), Number(offset + length)),
  };
  const reader = await McapIndexedReader.Initialize({ readable, decompressHandlers: decompressHandlers() });
  const msgs = [];
  for await (const m of reader.readMessages()) {
    const channel = reader.channelsById.get(m.channelId);
    if (!channel) throw new Error(`message on unknown channel ${m.channelId}`);
    msgs.push({ channel, schema: reader.schemasById.get(channel.schemaId), logTime: m.logTime, data: m.data });
  }
  return { reader, msgs };
}

// readStream returns the messages read and, when the stream ended early, the reason.
function readStream() {
  const reader = new McapStreamReader({ decompressHandlers: decompressHandlers() });
  const schemas = new Map();
  const channels = new Map();
  const msgs = [];
  let error;
  try {
    reader.append(data);
    for (let rec; (rec = reader.nextRecord()); ) {
      switch (rec.type) {
        case "Schema":
          schemas.set(rec.id, rec);
          break;
        case "Channel":
          channels.set(rec.id, rec);
          break;
        case "Message": {
          const channel = channels.get(rec.channelId);
          if (!channel) throw new Error(`message on unknown channel ${rec.channelId}`);
          msgs.push({ channel, schema: schemas.get(channel.schemaId), logTime: rec.logTime, data: rec.data, order: msgs.length });
          break;
        }
      }
    }
    if (!reader.done()) error = `file ends early (after ${msgs.length} messages): no footer and magic`;
  } catch (e) {
    error = `stream reader stopped after ${msgs.length} messages: ${e.message}`;
  }
  msgs.sort((a, b) => (a.logTime < b.logTime ? -1 : a.logTime > b.logTime ? 1 : a.order - b.order));
  return { msgs, error };
}

const decoders = new Map(); // channel id -> {decode(data) -> string} | {skip} | {undecoded}

function decoderFor(channel, schema) {
  let d = decoders.get(channel.id);
  if (d) return d;
  d = makeDecoder(channel, schema);
  decoders.set(channel.id, d);
  return d;
}

function makeDecoder(channel, schema) {
  if (channel.messageEncoding !== "cdr") return { undecoded: channel.messageEncoding };
  if (!schema || channel.schemaId === 0) return { skip: "cdr channel without a schema" };
  if (schema.encoding !== "ros2msg") {
    if (schema.encoding === "ros2idl") return { skip: "no ros2idl parser installed in the oracle" };
    return { undecoded: `${channel.messageEncoding}/${schema.encoding}` };
  }
  try {
    let text = new TextDecoder().decode(schema.data);
    // A service's event type (pkg/srv/X_Event; an action's, pkg/action/X_Part_Event)
    // stored as the .srv text, as in a .db3's message_definitions: its event
    // message is built from it.
    const ev = /^([^/]+)\/(srv|action)\/([^/]+)_Event$/.exec(schema.name);
    if (ev && /^---\s*$/m.test(text.split(/\n={10,}\n/)[0])) text = serviceEventText(ev[1], ev[3], text, ev[2]);
    const defs = parse(text, { ros2: true });
    markByteFields(defs, text);
    const { root, byName } = definitionsByName(defs);
    const reader = new MessageReader(defs);
    return {
      decode: (bytes) => (typed ? typedMessage : jsonMessage)(root, reader.readMessage(bytes), byName, 2),
    };
  } catch (e) {
    return { skip: `oracle cannot parse the ${schema.name} schema: ${e.message}` };
  }
}

function line(m) {
  const head = `{"topic": ${jsonString(m.channel.topic)}, "time": ${jsonTime(m.logTime)}, "type": ${jsonString(m.schema?.name ?? "")}`;
  const d = decoderFor(m.channel, m.schema);
  if (d.undecoded !== undefined) return `${head}, "undecoded": true, "encoding": ${jsonString(d.undecoded)}}`;
  if (d.skip !== undefined) return `${head}, "skip": ${jsonString(d.skip)}}`;
  try {
    return `${head}, "msg": ${d.decode(m.data)}}`;
  } catch (e) {
    return `${head}, "skip": ${jsonString(`oracle cannot decode: ${e.message}`)}}`;
  }
}

function sameMessages(a, b) {
  if (a.length !== b.length) return `indexed reader gives ${a.length} messages, stream reader ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    const x = a[i], y = b[i];
    if (x.channel.id !== y.channel.id || x.logTime !== y.logTime || Buffer.compare(x.data, y.data) !== 0) {
      return `message ${i} differs between the indexed reader (channel ${x.channel.id} at ${x.logTime}) and the stream reader (channel ${y.channel.id} at ${y.logTime})`;
    }
  }
  return undefined;
}

function print(msgs) {
  const out = [];
  for (const m of msgs) out.push(line(m));
  if (out.length) fs.writeSync(1, out.join("\n") + "\n");
}

let status = 0;
if (mode === "indexed") {
  try {
    print((await readIndexed()).msgs);
  } catch (e) {
    process.stderr.write(`mcap_cat: indexed reader: ${e.message}\n`);
    status = 1;
  }
} else {
  const stream = readStream();
  let indexed;
  if (mode === "auto" && !stream.error) {
    try {
      const r = await readIndexed();
      const ok = r.reader.chunkIndexes.length > 0 && r.reader.chunkIndexes.every((c) => c.messageIndexOffsets.size > 0);
      if (ok) indexed = r.msgs;
    } catch {
      // No summary, or one the indexed reader cannot use: the stream reader's messages stand.
    }
  }
  if (indexed) {
    const diff = sameMessages(indexed, stream.msgs);
    if (diff) {
      process.stderr.write(`mcap_cat: the readers disagree: ${diff}\n`);
      status = 2;
    }
    print(indexed);
  } else {
    print(stream.msgs);
    if (stream.error) {
      process.stderr.write(`mcap_cat: ${stream.error}\n`);
      status = 1;
    }
  }
}
process.exitCode = status;
