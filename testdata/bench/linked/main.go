// Command linked is the start-up floor of a binary the size of the
// command-line front: it links every package the front links (model/cli,
// built with the same tags) and calls none of them, so that timed beside
// testdata/bench/bare and `bagscope info` (startup.sh) it says how much of
// info's start-up is the binary's size and its packages' initialisers,
// which no command can avoid, and how much is the command's own.
package main

import (
	"os"

	"github.com/bagscope/bagscope/model/cli"
)

func main() {
	// Never true: the call keeps model/cli linked, initialisers and all.
	if len(os.Args) > 1<<20 {
		os.Exit(cli.Main(nil))
	}
	os.Stdout.WriteString("linked\n")
}
