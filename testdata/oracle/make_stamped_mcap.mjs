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

import { cdrWriter, defSep, headerDefs, quaternionDef, ros2McapWriter, ros2Time, scriptArgs, tfMessageDef, xyzDef } from "./lib.mjs";

const [outPath] = scriptArgs("node make_stamped_mcap.mjs OUT.mcap", 1);
const poseDef = `std_msgs/Header header
Pose pose
${headerDefs}${defSep}MSG: geometry_msgs/Pose
Point position
Quaternion orientation
${xyzDef("Point")}${quaternionDef}`;
const tfWriter = cdrWriter(tfMessageDef);
const poseWriter = cdrWriter(poseDef);

const mcap = await ros2McapWriter("make_stamped_mcap.mjs", 16384);
const tfSchema = await mcap.schema("tf2_msgs/msg/TFMessage", tfMessageDef);
const poseSchema = await mcap.schema("geometry_msgs/msg/PoseStamped", poseDef);
const tfCh = await mcap.channel("/tf", tfSchema);
const poseCh = await mcap.channel("/pose", poseSchema);
const earlyCh = await mcap.channel("/early", poseSchema);
const w = mcap.w;

const T0 = 1700000000n * 1000000000n;
const at = (tenths) => T0 + BigInt(tenths) * 100000000n; // tenths of a second from T0
const pose = (ns) => ({
  header: { stamp: ros2Time(ns), frame_id: "base_link" },
  pose: { position: { x: 1, y: 0, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } },
});
let seq = 0;
for (let k = 10; k <= 100; k++) {
  const t = at(k);
  const sec = k / 10;
  const tf = {
    transforms: [{
      header: { stamp: ros2Time(t), frame_id: "odom" },
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
await mcap.save(outPath);
