package plot

import (
	"fmt"
	"image/png"
	"io"
	"path/filepath"
	"strings"
)

// Format is an image file format Write produces.
type Format string

// Image formats.
const (
	PNG Format = "png"
	SVG Format = "svg"
)

// FormatOf returns the image format named by path's extension.
func FormatOf(path string) (Format, error) {
	switch ext := strings.ToLower(filepath.Ext(path)); ext {
	case ".png":
		return PNG, nil
	case ".svg":
		return SVG, nil
	default:
		return "", fmt.Errorf("unknown image format %q: want .png or .svg", ext)
	}
}

// Write renders the plot (as Render does) and writes it to out as a PNG or
// an SVG document.
func Write(out io.Writer, f Format, series []Series, w Window, y YRange, width, height int, opt Options) (Frame, error) {
	if width <= 0 || height <= 0 {
		return Frame{}, ErrNoSize
	}
	switch f {
	case PNG:
		img, fr := Render(series, w, y, width, height, opt)
		return fr, png.Encode(out, img)
	case SVG:
		b, fr, err := RenderSVG(series, w, y, width, height, opt)
		if err != nil {
			return fr, err
		}
		_, err = out.Write(b)
		return fr, err
	}
	return Frame{}, fmt.Errorf("unknown image format %q", f)
}
