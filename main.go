// Command bagscope is a desktop inspector for ROS bag files. With a
// subcommand (info, records, ...) it runs headless; otherwise it opens the
// given bags, or a start page, in a window.
package main

import (
	"os"

	"github.com/bagscope/bagscope/model/cli"
)

func main() {
	if len(os.Args) > 1 && cli.IsCommand(os.Args[1]) {
		os.Exit(cli.Run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(runGUI(os.Args[1:]))
}
