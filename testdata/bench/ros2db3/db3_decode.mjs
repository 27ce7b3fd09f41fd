// The .db3 benchmark's node peer: @foxglove/rosbag2-web's Rosbag2 over
// SqliteSqljs (SQLite compiled to WASM by sql.js; the file is read into
// memory, as it is the only way sql.js opens one) reads every message, and
// @foxglove/rosmsg2-serialization decodes each against the file's
// message_definitions (ros2msg); prints the count. Rows come in the
// messages table's order, which is timestamp order in the benchmark file.
// Packages come from $BAGSCOPE_ORACLES (make oracles).
//
//   node testdata/bench/ros2db3/db3_decode.mjs FILE.db3
import fs from "node:fs";
import path from "node:path";
import { require } from "../../oracle/lib.mjs";

const { Rosbag2, SqliteSqljs } = require("@foxglove/rosbag2-web");
const { parse } = require("@foxglove/rosmsg");
const { MessageReader } = require("@foxglove/rosmsg2-serialization");

const sqlDir = path.dirname(require.resolve("@foxglove/sql.js"));
const SQL = await SqliteSqljs.Initialize({ wasmBinary: fs.readFileSync(path.join(sqlDir, "sql-wasm.wasm")) });
const bytes = fs.readFileSync(process.argv[2]);

const readers = new Map();
const defs = new SQL.Database(bytes);
for (const [type, encoding, text] of defs.exec("SELECT topic_type, encoding, encoded_message_definition FROM message_definitions")[0]?.values ?? []) {
  if (encoding === "ros2msg") readers.set(type, new MessageReader(parse(text, { ros2: true })));
}
defs.close();

const bag = new Rosbag2([new SqliteSqljs(bytes)]);
await bag.open();
let n = 0;
for await (const m of bag.readMessages({ rawMessages: true })) {
  readers.get(m.topic.type).readMessage(m.data);
  n++;
}
await bag.close();
console.log(n, "messages decoded");
