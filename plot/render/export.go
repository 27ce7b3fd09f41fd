package render

import (
	"github.com/bagscope/bagscope/plot"

	"fmt"
	"image/png"
	"io"
)

// Write renders the plot (as Render does) and writes it to out as a PNG or
// an SVG document.
func Write(out io.Writer, f plot.Format, series []plot.Series, w plot.Window, y plot.YRange, width, height int, opt plot.Options) (plot.Frame, error) {
	if width <= 0 || height <= 0 {
		return plot.Frame{}, ErrNoSize
	}
	switch f {
	case plot.PNG:
		img, fr := Render(series, w, y, width, height, opt)
		return fr, png.Encode(out, img)
	case plot.SVG:
		b, fr, err := RenderSVG(series, w, y, width, height, opt)
		if err != nil {
			return fr, err
		}
		_, err = out.Write(b)
		return fr, err
	}
	return plot.Frame{}, fmt.Errorf("unknown image format %q", f)
}
