// Package export writes a recording's messages as tables for analysis
// tools (pandas, polars, DuckDB, Spark): one table per topic, Parquet or
// CSV, fields flattened to columns, streamed with bounded memory.
package export
