// Command bagscope-tables runs `bagscope export` and `bagscope catalog`,
// the commands that write tables (Parquet through parquet-go, and CSV),
// for the command-line front (model/cli/bagscope), which executes it
// with the whole command line. It is the front's code built with the
// Parquet writer (make build: -tags bagscope_front,bagscope_tables,
// CGO_ENABLED=0), so that:
//
//   - the front does not run parquet-go's and protobuf's package
//     initialisers on every other command (39 of them, ~90 KB and ~4 MB of
//     RSS before main: model/cli/tables_front.go);
//   - export and catalog do not run in bagscope-gui, whose start alone,
//     Fyne and its 84 MB binary mapped, is ~57 MiB of RSS, above what
//     issue 29 allows a headless command whole (64 MiB).
//
// Like the front it links neither Fyne, nor gonum/plot, nor the AWS SDK:
// the front hands a command line naming an s3:// or gs:// URL to
// bagscope-gui before it would come here. `make build` puts it beside
// bagscope, `make install` in ../libexec/bagscope.
package main

import (
	"os"

	"github.com/bagscope/bagscope/model/cli"
)

func main() {
	// The soft memory limit of its commands: 64 MiB less this binary's own
	// pages, which are more than the front's (19 MB resident at catalog's
	// peak, against 12-15), with a margin. At 48 MiB, the front's, catalog
	// of the bench files peaked at 67.6 MiB; at 42 MiB, with export's row
	// groups at 16 MiB in all, catalog peaks at 61-63 MiB and export at
	// 55-56, its CPU as at 48 (BENCHMARKS.md: export and catalog within
	// 64 MiB).
	cli.CommandMemoryLimit = 42 << 20
	os.Exit(cli.Main(nil))
}
