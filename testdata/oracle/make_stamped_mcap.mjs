#!/usr/bin/env node
// make_stamped_mcap.mjs: the ROS 2 twin of model/scene/testdata/make_stamped.py's
// recording, for the 3D scene's placement at each message's stamp.
//
//   node testdata/oracle/make_stamped_mcap.mjs OUT.mcap
//
// From 1700000000 s (T0): /tf (tf2_msgs/msg/TFMessage) odom -> base_link,
// received and stamped at 1.0, 1.1, ... 10.0 s, translation (t, 0, 0), yaw
// 0.2 t rad; /pose (geometry_msgs/msg/PoseStamped) in base_link at (1, 0,
// 0), received at 1.5, 2.0, ... 10.0 s and stamped 0.5 s earlier; /early,
// the same pose received at 2.0 s and stamped 0.5 s (before any transform).
// CDR by @foxglove/rosmsg2-serialization's MessageWriter, MCAP by
// @mcap/core's McapWriter.

import fs from "node:fs";
import { require } from "./lib.mjs";

const { McapWriter } = require("@mcap/core");
const { parse } = require("@foxglove/rosmsg");
const { MessageWriter } = require("@foxglove/rosmsg2-serialization");

const [outPath] = process.argv.slice(2);
if (!outPath) {
  process.stderr.write("usage: node make_stamped_mcap.mjs OUT.mcap\n");
  process.exit(2);
}
const sep = "================================================================================\n";
const common = `${sep}MSG: std_msgs/Header
builtin_interfaces/Time stamp
string frame_id
${sep}MSG: builtin_interfaces/Time
int32 sec
uint32 nanosec
`;
const tfDef = `geometry_msgs/TransformStamped[] transforms
${sep}MSG: geometry_msgs/TransformStamped
std_msgs/Header header
string child_frame_id
Transform transform
${common}${sep}MSG: geometry_msgs/Transform
Vector3 translation
Quaternion rotation
${sep}MSG: geometry_msgs/Vector3
float64 x
float64 y
float64 z
${sep}MSG: geometry_msgs/Quaternion
float64 x
float64 y
float64 z
float64 w
`;
const poseDef = `std_msgs/Header header
Pose pose
${common}${sep}MSG: geometry_msgs/Pose
Point position
Quaternion orientation
${sep}MSG: geometry_msgs/Point
float64 x
float64 y
float64 z
${sep}MSG: geometry_msgs/Quaternion
float64 x
float64 y
float64 z
float64 w
`;
const tfWriter = new MessageWriter(parse(tfDef, { ros2: true }));
const poseWriter = new MessageWriter(parse(poseDef, { ros2: true }));

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
await w.start({ profile: "ros2", library: "make_stamped_mcap.mjs" });
const tfSchema = await w.registerSchema({ name: "tf2_msgs/msg/TFMessage", encoding: "ros2msg", data: new TextEncoder().encode(tfDef) });
const poseSchema = await w.registerSchema({ name: "geometry_msgs/msg/PoseStamped", encoding: "ros2msg", data: new TextEncoder().encode(poseDef) });
const meta = new Map([["offered_qos_profiles", ""]]);
const tfCh = await w.registerChannel({ topic: "/tf", schemaId: tfSchema, messageEncoding: "cdr", metadata: meta });
const poseCh = await w.registerChannel({ topic: "/pose", schemaId: poseSchema, messageEncoding: "cdr", metadata: meta });
const earlyCh = await w.registerChannel({ topic: "/early", schemaId: poseSchema, messageEncoding: "cdr", metadata: meta });

const T0 = 1700000000n * 1000000000n;
const at = (tenths) => T0 + BigInt(tenths) * 100000000n; // tenths of a second from T0
const stamp = (ns) => ({ sec: Number(ns / 1000000000n), nanosec: Number(ns % 1000000000n) });
const pose = (ns) => ({
  header: { stamp: stamp(ns), frame_id: "base_link" },
  pose: { position: { x: 1, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
});
let seq = 0;
for (let k = 10; k <= 100; k++) {
  const t = at(k);
  const sec = k / 10;
  const tf = {
    transforms: [{
      header: { stamp: stamp(t), frame_id: "odom" },
      child_frame_id: "base_link",
      transform: { translation: { x: sec, y: 0, z: 0 }, rotation: { x: 0, y: 0, z: Math.sin(0.1 * sec), w: Math.cos(0.1 * sec) } },
    }],
  };
  await w.addMessage({ channelId: tfCh, sequence: seq++, logTime: t, publishTime: t, data: tfWriter.writeMessage(tf) });
  if (k % 5 === 0 && k >= 15) {
    await w.addMessage({ channelId: poseCh, sequence: seq++, logTime: t, publishTime: t, data: poseWriter.writeMessage(pose(at(k - 5))) });
  }
  if (k === 20) {
    await w.addMessage({ channelId: earlyCh, sequence: seq++, logTime: t, publishTime: t, data: poseWriter.writeMessage(pose(at(5))) });
  }
}
await w.end();
fs.writeFileSync(outPath, Buffer.concat(chunks));
