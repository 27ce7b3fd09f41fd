// Command bagscope is a desktop inspector for robot recordings. With a
// command (info, cat, check, ...) it runs headless; otherwise it opens the
// given recordings, or a start page, in a window. The command line is
// model/cli's; this binary adds the window (gui.go).
package main

import (
	"os"

	"github.com/bagscope/bagscope/model/cli"
)

func main() { os.Exit(cli.Main(runGUI)) }
