//go:build !bagscope_front || bagscope_tables

package cli

// tablesLinked is true in the builds that link model/export and
// model/catalog, and with them parquet-go (protobuf, brotli, go-geom): the
// full binary, bagscope-sql, the tests, and bagscope-tables (the front
// built with bagscope_tables too). See tables_front.go.
const tablesLinked = true
