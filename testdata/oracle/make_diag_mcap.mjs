#!/usr/bin/env node
// make_diag_mcap.mjs: a ROS 2 MCAP of diagnostic_msgs/msg/DiagnosticArray
// messages, for the diagnostics tests (model/diag/diagtest).
//
//   node testdata/oracle/make_diag_mcap.mjs SPEC.json OUT.mcap
//
// SPEC.json is diag.py's: {"messages": [{"topic", "time_ns", "stamp_ns",
// "statuses": [{"level", "name", "message", "hardware_id", "values": [[K, V]]}]}]},
// the times as decimal strings (exact, unlike JSON numbers).
// Messages are serialised as CDR with @foxglove/rosmsg2-serialization's
// MessageWriter from the ROS 2 definition below (parsed with @foxglove/rosmsg)
// and written in small chunks with @mcap/core's McapWriter.

import fs from "node:fs";
import { require } from "./lib.mjs";

const { McapWriter } = require("@mcap/core");
const { parse } = require("@foxglove/rosmsg");
const { MessageWriter } = require("@foxglove/rosmsg2-serialization");

const [specPath, outPath] = process.argv.slice(2);
if (!specPath || !outPath) {
  process.stderr.write("usage: node make_diag_mcap.mjs SPEC.json OUT.mcap\n");
  process.exit(2);
}
const spec = JSON.parse(fs.readFileSync(specPath, "utf8"));

const definition = `std_msgs/Header header
DiagnosticStatus[] status
================================================================================
MSG: std_msgs/Header
builtin_interfaces/Time stamp
string frame_id
================================================================================
MSG: builtin_interfaces/Time
int32 sec
uint32 nanosec
================================================================================
MSG: diagnostic_msgs/DiagnosticStatus
byte OK=0
byte WARN=1
byte ERROR=2
byte STALE=3
byte level
string name
string message
string hardware_id
KeyValue[] values
================================================================================
MSG: diagnostic_msgs/KeyValue
string key
string value
`;
const writer = new MessageWriter(parse(definition, { ros2: true }));

const chunks = [];
let size = 0n;
const writable = {
  position: () => size,
  write: async (buf) => {
    chunks.push(Buffer.from(buf));
    size += BigInt(buf.byteLength);
  },
};
const w = new McapWriter({ writable, chunkSize: 4096 });
await w.start({ profile: "ros2", library: "make_diag_mcap.mjs" });
const schemaId = await w.registerSchema({ name: "diagnostic_msgs/msg/DiagnosticArray", encoding: "ros2msg", data: new TextEncoder().encode(definition) });
const channels = new Map();
let seq = 0;
for (const m of spec.messages) {
  if (!channels.has(m.topic)) {
    channels.set(m.topic, await w.registerChannel({ topic: m.topic, schemaId, messageEncoding: "cdr", metadata: new Map([["offered_qos_profiles", ""]]) }));
  }
  const stamp = BigInt(m.stamp_ns);
  const msg = {
    header: { stamp: { sec: Number(stamp / 1000000000n), nanosec: Number(stamp % 1000000000n) }, frame_id: "" },
    status: m.statuses.map((s) => ({
      level: s.level, name: s.name, message: s.message, hardware_id: s.hardware_id,
      values: s.values.map(([key, value]) => ({ key, value })),
    })),
  };
  const t = BigInt(m.time_ns);
  await w.addMessage({ channelId: channels.get(m.topic), sequence: seq++, logTime: t, publishTime: t, data: writer.writeMessage(msg) });
}
await w.end();
fs.writeFileSync(outPath, Buffer.concat(chunks));
