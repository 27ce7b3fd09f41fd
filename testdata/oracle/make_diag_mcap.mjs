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
import { cdrWriter, defSep, headerDefs, ros2McapWriter, ros2Time, scriptArgs } from "./lib.mjs";

const [specPath, outPath] = scriptArgs("node make_diag_mcap.mjs SPEC.json OUT.mcap", 2);
const spec = JSON.parse(fs.readFileSync(specPath, "utf8"));

const definition = `std_msgs/Header header
DiagnosticStatus[] status
${headerDefs}${defSep}MSG: diagnostic_msgs/DiagnosticStatus
byte OK=0
byte WARN=1
byte ERROR=2
byte STALE=3
byte level
string name
string message
string hardware_id
KeyValue[] values
${defSep}MSG: diagnostic_msgs/KeyValue
string key
string value
`;
const writer = cdrWriter(definition);
const mcap = await ros2McapWriter("make_diag_mcap.mjs", 4096);
const schemaId = await mcap.schema("diagnostic_msgs/msg/DiagnosticArray", definition);
const channels = new Map();
let seq = 0;
for (const m of spec.messages) {
  if (!channels.has(m.topic)) {
    channels.set(m.topic, await mcap.channel(m.topic, schemaId));
  }
  const msg = {
    header: { stamp: ros2Time(BigInt(m.stamp_ns)), frame_id: "" },
    status: m.statuses.map((s) => ({
      level: s.level, name: s.name, message: s.message, hardware_id: s.hardware_id,
      values: s.values.map(([key, value]) => ({ key, value })),
    })),
  };
  const t = BigInt(m.time_ns);
  await mcap.w.addMessage({ channelId: channels.get(m.topic), sequence: seq++, logTime: t, publishTime: t, data: writer.writeMessage(msg) });
}
await mcap.save(outPath);
