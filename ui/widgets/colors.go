package widgets

import (
	"image/color"
)

// WithAlpha returns c with alpha a.
func WithAlpha(c color.Color, a uint8) color.Color {
	r, g, b, _ := c.RGBA()
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), a}
}
