// The benchmark's node peer: @mcap/core's indexed reader reads every
// message of an MCAP file in log-time order and
// @foxglove/rosmsg2-serialization decodes each (CDR, ros2msg schemas);
// prints the count. Packages come from $BAGSCOPE_ORACLES (make oracles).
//
//   node testdata/bench/mcap_decode.mjs FILE.mcap
import fs from "node:fs/promises";
import { require, decompressHandlers } from "../oracle/lib.mjs";

const { McapIndexedReader } = require("@mcap/core");
const { parse } = require("@foxglove/rosmsg");
const { MessageReader } = require("@foxglove/rosmsg2-serialization");

const fh = await fs.open(process.argv[2], "r");
const readable = {
  size: async () => BigInt((await fh.stat()).size),
  read: async (offset, length) => {
    const buf = new Uint8Array(Number(length));
    await fh.read(buf, 0, Number(length), Number(offset));
    return buf;
  },
};
const reader = await McapIndexedReader.Initialize({ readable, decompressHandlers: decompressHandlers() });
const readers = new Map();
for (const [id, ch] of reader.channelsById) {
  const schema = reader.schemasById.get(ch.schemaId);
  readers.set(id, new MessageReader(parse(new TextDecoder().decode(schema.data), { ros2: true })));
}
let n = 0;
for await (const m of reader.readMessages()) {
  readers.get(m.channelId).readMessage(m.data);
  n++;
}
console.log(n, "messages decoded");
await fh.close();
