// Command mangen writes bagscope's man pages, one per command
// (bagscope.1, bagscope-info.1, ...), from the command line's own help,
// with cobra/doc: `go run ./model/cli/mangen DIR`. `make install` installs
// them. It is a program of its own so that the man page generator
// (cobra/doc, go-md2man) is not linked into bagscope.
package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra/doc"

	"github.com/bagscope/bagscope/model/cli"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./model/cli/mangen DIR")
		os.Exit(cli.ExitUsage)
	}
	if err := write(os.Args[1]); err != nil {
		fmt.Fprintf(os.Stderr, "mangen: %v\n", err)
		os.Exit(cli.ExitProblems)
	}
}

// write writes a man page (section 1) for bagscope and each command into
// dir.
func write(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	header := &doc.GenManHeader{Title: "BAGSCOPE", Section: "1", Source: "bagscope " + cli.Version, Manual: "bagscope manual"}
	return doc.GenManTree(cli.ManRoot(), header, dir)
}
