#!/usr/bin/env node
// duckdb_query.mjs: run SQL in DuckDB (@duckdb/node-api), an independent
// reader of the Parquet and CSV files `bagscope export` writes.
//
//   node testdata/oracle/duckdb_query.mjs 'SQL' ['SQL'...]
//
// For each statement, in order, prints a line {"columns": [[name, type],
// ...]} with the result's schema as DuckDB reads it, then one JSON object
// per result row, keys in column order, values
// exact: integers (BIGINT, UBIGINT, ...) as strings of digits, floats as
// JavaScript writes them (the shortest form that reads back; NaN and the
// infinities as "NaN", "Infinity", "-Infinity"), timestamps as
// {"ns": "digits"} since the epoch, BLOBs as {"base64": "..."}, lists as
// arrays, structs as objects.
//
// Exit status: 0, or 1 with DuckDB's error on stderr.

import { require } from "./lib.mjs";

const duck = require("@duckdb/node-api");

function value(v) {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case "bigint":
      return v.toString();
    case "number":
      if (Number.isNaN(v)) return "NaN";
      if (v === Infinity) return "Infinity";
      if (v === -Infinity) return "-Infinity";
      return v;
    case "string":
    case "boolean":
      return v;
  }
  if (v instanceof duck.DuckDBTimestampNanosecondsValue) return { ns: v.nanos.toString() };
  if (v instanceof duck.DuckDBTimestampValue) return { ns: (v.micros * 1000n).toString() };
  if (v instanceof duck.DuckDBTimestampTZValue) return { ns: (v.micros * 1000n).toString() };
  if (v instanceof duck.DuckDBBlobValue) return { base64: Buffer.from(v.bytes).toString("base64") };
  if (v instanceof duck.DuckDBListValue || v instanceof duck.DuckDBArrayValue) return v.items.map(value);
  if (v instanceof duck.DuckDBStructValue) {
    const out = {};
    for (const [k, x] of Object.entries(v.entries)) out[k] = value(x);
    return out;
  }
  return String(v);
}

const statements = process.argv.slice(2);
if (statements.length === 0) {
  process.stderr.write("usage: node duckdb_query.mjs 'SQL' ['SQL'...]\n");
  process.exit(2);
}
try {
  const inst = await duck.DuckDBInstance.create(":memory:");
  const con = await inst.connect();
  for (const sql of statements) {
    const reader = await con.runAndReadAll(sql);
    const names = reader.columnNames();
    const types = reader.columnTypes().map((t) => t.toString());
    process.stdout.write(JSON.stringify({ columns: names.map((n, i) => [n, types[i]]) }) + "\n");
    for (const row of reader.getRows()) {
      const o = {};
      row.forEach((v, i) => (o[names[i]] = value(v)));
      process.stdout.write(JSON.stringify(o) + "\n");
    }
  }
} catch (e) {
  process.stderr.write(`duckdb: ${e.message}\n`);
  process.exit(1);
}
