#!/usr/bin/env node
// make_tf_mcap.mjs: a ROS 2 MCAP of tf2_msgs/msg/TFMessage messages, for
// the transform tests (model/tf).
//
//   node testdata/oracle/make_tf_mcap.mjs SPEC.json OUT.mcap
//
// SPEC.json: {"messages": [{"topic", "time_ns", "transforms": [{"parent",
// "child", "stamp_ns", "t": [x, y, z], "q": [x, y, z, w]}]}]}, the times as
// decimal strings (exact, unlike JSON numbers). /tf_static is written with
// transient-local durability, as tf2_ros's static broadcaster offers it.
// Messages are serialised as CDR with @foxglove/rosmsg2-serialization's
// MessageWriter from the ROS 2 definition below (parsed with
// @foxglove/rosmsg) and written in small chunks with @mcap/core's
// McapWriter.

import fs from "node:fs";
import { require } from "./lib.mjs";

const { McapWriter } = require("@mcap/core");
const { parse } = require("@foxglove/rosmsg");
const { MessageWriter } = require("@foxglove/rosmsg2-serialization");

const [specPath, outPath] = process.argv.slice(2);
if (!specPath || !outPath) {
  process.stderr.write("usage: node make_tf_mcap.mjs SPEC.json OUT.mcap\n");
  process.exit(2);
}
const spec = JSON.parse(fs.readFileSync(specPath, "utf8"));

const definition = `geometry_msgs/TransformStamped[] transforms
================================================================================
MSG: geometry_msgs/TransformStamped
std_msgs/Header header
string child_frame_id
Transform transform
================================================================================
MSG: std_msgs/Header
builtin_interfaces/Time stamp
string frame_id
================================================================================
MSG: builtin_interfaces/Time
int32 sec
uint32 nanosec
================================================================================
MSG: geometry_msgs/Transform
Vector3 translation
Quaternion rotation
================================================================================
MSG: geometry_msgs/Vector3
float64 x
float64 y
float64 z
================================================================================
MSG: geometry_msgs/Quaternion
float64 x
float64 y
float64 z
float64 w
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
const w = new McapWriter({ writable, chunkSize: 16384 });
await w.start({ profile: "ros2", library: "make_tf_mcap.mjs" });
const schemaId = await w.registerSchema({ name: "tf2_msgs/msg/TFMessage", encoding: "ros2msg", data: new TextEncoder().encode(definition) });
const channels = new Map();
const qos = (topic) => (topic.endsWith("tf_static") ? "- history: 1\n  depth: 1\n  reliability: 1\n  durability: 1\n" : "");
let seq = 0;
for (const m of spec.messages) {
  if (!channels.has(m.topic)) {
    channels.set(m.topic, await w.registerChannel({ topic: m.topic, schemaId, messageEncoding: "cdr", metadata: new Map([["offered_qos_profiles", qos(m.topic)]]) }));
  }
  const msg = {
    transforms: m.transforms.map((tr) => {
      const stamp = BigInt(tr.stamp_ns);
      return {
        header: { stamp: { sec: Number(stamp / 1000000000n), nanosec: Number(stamp % 1000000000n) }, frame_id: tr.parent },
        child_frame_id: tr.child,
        transform: {
          translation: { x: tr.t[0], y: tr.t[1], z: tr.t[2] },
          rotation: { x: tr.q[0], y: tr.q[1], z: tr.q[2], w: tr.q[3] },
        },
      };
    }),
  };
  const t = BigInt(m.time_ns);
  await w.addMessage({ channelId: channels.get(m.topic), sequence: seq++, logTime: t, publishTime: t, data: writer.writeMessage(msg) });
}
await w.end();
fs.writeFileSync(outPath, Buffer.concat(chunks));
