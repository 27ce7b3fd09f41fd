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
import { cdrWriter, ros2McapWriter, ros2Time, scriptArgs, tfMessageDef } from "./lib.mjs";

const [specPath, outPath] = scriptArgs("node make_tf_mcap.mjs SPEC.json OUT.mcap", 2);
const spec = JSON.parse(fs.readFileSync(specPath, "utf8"));

const writer = cdrWriter(tfMessageDef);
const mcap = await ros2McapWriter("make_tf_mcap.mjs", 16384);
const schemaId = await mcap.schema("tf2_msgs/msg/TFMessage", tfMessageDef);
const channels = new Map();
const qos = (topic) => (topic.endsWith("tf_static") ? "- history: 1\n  depth: 1\n  reliability: 1\n  durability: 1\n" : "");
let seq = 0;
for (const m of spec.messages) {
  if (!channels.has(m.topic)) {
    channels.set(m.topic, await mcap.channel(m.topic, schemaId, qos(m.topic)));
  }
  const msg = {
    transforms: m.transforms.map((tr) => ({
      header: { stamp: ros2Time(BigInt(tr.stamp_ns)), frame_id: tr.parent },
      child_frame_id: tr.child,
      transform: {
        translation: { x: tr.t[0], y: tr.t[1], z: tr.t[2] },
        rotation: { x: tr.q[0], y: tr.q[1], z: tr.q[2], w: tr.q[3] },
      },
    })),
  };
  const t = BigInt(m.time_ns);
  await mcap.w.addMessage({ channelId: channels.get(m.topic), sequence: seq++, logTime: t, publishTime: t, data: writer.writeMessage(msg) });
}
await mcap.save(outPath);
