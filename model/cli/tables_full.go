//go:build !bagscope_front

package cli

// tablesLinked is true in the builds that link model/export and
// model/catalog, and with them parquet-go (protobuf, brotli, go-geom): the
// full binary, bagscope-sql and the tests. See tables_front.go.
const tablesLinked = true
