// Command bagscope-sql runs `bagscope sql`: SQL over a catalogue of
// recordings and over their messages, in embedded DuckDB (model/sqlquery).
// It is a binary of its own because DuckDB is large (cgo, ~70 MB): the
// headless front (model/cli/bagscope) executes it only for `sql`, so its
// start-up and `info` do not load it. `make build` puts it beside bagscope.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/pflag"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/sqlquery"

	_ "github.com/bagscope/bagscope/model" // the formats
)

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	fs := pflag.NewFlagSet("bagscope sql", pflag.ContinueOnError)
	cat := fs.String("catalog", "", "the catalogue folder (bagscope catalog -o) whose tables are recordings and topics")
	asJSON := fs.Bool("json", false, "print one JSON object per row")
	asCSV := fs.Bool("csv", false, "print CSV with a header line")
	asRows := fs.Bool("rows", false, "print the columns and their types, then each row as a JSON array (the window's query box reads this)")
	fs.MarkHidden("rows")
	remoteScan := fs.Bool("allow-remote-scan", false, "read a remote recording without an index whole")
	fs.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: bagscope sql [--catalog CATALOG] [--json|--csv] 'SELECT ...'")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return 0
		}
		return 2
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(os.Stderr, "bagscope: sql: give one query (got %d arguments); quote it: bagscope sql 'SELECT ...'\n", fs.NArg())
		return 2
	}
	format := sqlquery.Table
	switch {
	case *asJSON && *asCSV:
		fmt.Fprintln(os.Stderr, "bagscope: sql: give --json or --csv, not both")
		return 2
	case *asJSON:
		format = sqlquery.JSON
	case *asCSV:
		format = sqlquery.CSV
	case *asRows:
		format = sqlquery.Rows
	}
	err := sqlquery.Run(context.Background(), fs.Arg(0), sqlquery.Options{Catalog: *cat, Format: format, Open: bag.OpenOptions{AllowRemoteScan: *remoteScan}}, os.Stdout)
	switch e := err.(type) {
	case nil:
		return 0
	case *sqlquery.LostError:
		for _, l := range e.Lost {
			fmt.Fprintf(os.Stderr, "bagscope: %s\n", l)
		}
		return 1
	default:
		fmt.Fprintf(os.Stderr, "bagscope: sql: %v\n", err)
		return 2
	}
}
