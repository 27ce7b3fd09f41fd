package plot

import (
	"fmt"
	"path/filepath"
	"strings"
)

// Format is an image file format that plot/render writes.
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
