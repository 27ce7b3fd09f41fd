package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/bagscope/bagscope/plot"
)

// The images `plot -o` writes are drawn with gonum/plot (plot/render), whose
// package initialisers (its fonts, LaTeX symbols, PDF writer and gob) every
// process that links it pays before main, whatever it runs. The
// command-line front (./model/cli/bagscope) does not link it, so that info,
// check, cat and the rest start as fast as a bare Go binary: it sets
// FullBinary, and a plot that writes an image runs in the full binary
// (bagscope-gui), which sets the writers.
var (
	// WriteImage and WriteXYImage write a time plot or an XY plot as
	// PNG or SVG (render.Write, render.WriteXY); nil in the front.
	WriteImage   func(out io.Writer, f plot.Format, series []plot.Series, w plot.Window, y plot.YRange, width, height int, opt plot.Options) (plot.Frame, error)
	WriteXYImage func(out io.Writer, f plot.Format, paths []plot.XY, w plot.Window, width, height int, opt plot.XYOptions) error
	// FullBinary runs this process's command line in the full binary,
	// replacing this process, and returns only on failure, with the exit
	// status to use; nil in the full binary.
	FullBinary func() int
	// TablesBinary runs it so in bagscope-tables, which writes tables
	// (export, catalog) for a build that does not link them
	// (tables_front.go); nil in the builds that do.
	TablesBinary func() int
)

// errNoRenderer is the error of a build that has neither the writers nor
// a full binary to hand the image to.
var errNoRenderer = errors.New("this build of bagscope cannot write images (build the full binary: make build)")

// handOff runs this process's command line in the full binary, for a
// command whose packages this build does not link (what says what it
// needed); an error that says what to build when there is no full binary.
func handOff(what string) error {
	if FullBinary == nil {
		return fmt.Errorf("this build of bagscope cannot %s (build the full binary: make build)", what)
	}
	return status(FullBinary())
}

// handOffTables runs this process's command line in bagscope-tables (or,
// when this build has no TablesBinary, as handOff does), for export and
// catalog in a build that does not link the Parquet writer.
func handOffTables(what string) error {
	if TablesBinary == nil {
		return handOff(what)
	}
	return status(TablesBinary())
}
