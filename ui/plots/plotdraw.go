package plots

import (
	"image"
	"math"

	"github.com/bagscope/bagscope/plot"
)

// plotLine is one decimated series to rasterise, in its colour.
type plotLine = plot.Line

// rasterize draws lines into img (see plot.Rasterize).
func rasterize(img *image.RGBA, f plot.Frame, lines []plotLine, lw int) {
	plot.Rasterize(img, f, lines, lw)
}

func finiteF(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// valueRange is plot.ValueRange.
func valueRange(lines []plotLine, w plot.Window) (lo, hi float64, ok bool) {
	return plot.ValueRange(lines, w)
}

// autoRange is plot.AutoRange.
func autoRange(lo, hi float64, ok bool) (float64, float64) { return plot.AutoRange(lo, hi, ok) }
