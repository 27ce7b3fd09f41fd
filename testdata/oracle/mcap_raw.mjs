#!/usr/bin/env node
// mcap_raw.mjs: an MCAP file as @mcap/core reads it, payloads untouched.
//
//   node testdata/oracle/mcap_raw.mjs FILE.mcap
//
// One JSON line per channel, then one per message in log time order (ties
// in file order), read with McapIndexedReader:
//
//   {"conn": {"topic", "type", "encoding", "schema_encoding", "definition", "qos", "metadata"}}
//   {"topic": T, "t": LOG_TIME_NS, "publish": NS, "sequence": N, "data": BASE64}
//
// Exit status: 0, or 1 with the reader's error on stderr.

import fs from "node:fs";
import { require, decompressHandlers } from "./lib.mjs";

const { McapIndexedReader } = require("@mcap/core");

const data = fs.readFileSync(process.argv[2]);
const readable = {
  size: async () => BigInt(data.length),
  read: async (offset, length) => data.subarray(Number(offset), Number(offset + length)),
};
try {
  const reader = await McapIndexedReader.Initialize({ readable, decompressHandlers: decompressHandlers() });
  const out = [];
  for (const ch of reader.channelsById.values()) {
    const s = reader.schemasById.get(ch.schemaId);
    const md = Object.fromEntries([...ch.metadata.entries()].sort());
    out.push(JSON.stringify({ conn: { topic: ch.topic, type: s?.name ?? "", encoding: ch.messageEncoding,
      schema_encoding: s?.encoding ?? "", definition: s ? new TextDecoder().decode(s.data) : "",
      qos: md.offered_qos_profiles ?? "", metadata: md } }));
  }
  for await (const m of reader.readMessages()) {
    const ch = reader.channelsById.get(m.channelId);
    out.push(JSON.stringify({ topic: ch.topic, t: m.logTime.toString(), publish: m.publishTime.toString(),
      sequence: m.sequence, data: Buffer.from(m.data).toString("base64") }));
  }
  process.stdout.write(out.join("\n") + "\n");
} catch (e) {
  process.stderr.write(`mcap_raw: ${e.message}\n`);
  process.exit(1);
}
