//go:build bagscope_front && !bagscope_tables

package cli

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
)

// tablesLinked is false in the command-line front (built with the tag
// bagscope_front). The Parquet writer's packages (parquet-go, with
// protobuf, brotli and go-geom) are half of what the front's initialisers
// and page faults cost before main, on every command; so export and
// catalog, which write tables, run in bagscope-tables (handOffTables: the
// front built with the tag bagscope_tables too, model/cli/bagscope-tables),
// and every other command starts without them (issue 29: start-up).
const tablesLinked = false

// runExport and writeCatalog are never reached in the front: export and
// catalog hand their command line to bagscope-tables before reading.
func runExport(bag.Storage, string, string, exportRequest, bool, io.Writer, io.Writer) error {
	return handOffTables("write Parquet or CSV tables")
}

func exportInputs(*env, *cobra.Command, *selection, []string, string, exportRequest, bool, string, bool) (bool, error) {
	return true, handOffTables("write Parquet or CSV tables")
}

func writeCatalog(*env, []string, catalogRequest) error {
	return handOffTables("write a catalogue (Parquet)")
}
