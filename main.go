// Command bagscope is a desktop inspector for robot recordings. With a
// command (info, cat, check, ...) it runs headless; otherwise it opens the
// given recordings, or a start page, in a window. The command line is
// model/cli's; this binary adds the window (gui.go).
package main

import (
	"os"

	"github.com/bagscope/bagscope/model/cli"
	"github.com/bagscope/bagscope/plot/render"
)

func main() {
	// The full binary draws the images `plot -o` writes (the front hands
	// them here: model/cli/render_hook.go).
	cli.WriteImage, cli.WriteXYImage = render.Write, render.WriteXY
	os.Exit(cli.Main(runGUI))
}
