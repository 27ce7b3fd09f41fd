package plot

import "image/color"

// palette is the Okabe–Ito colour-blind safe palette, reordered so that
// neighbours differ most and yellow (weak on white) comes last.
var palette = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x00, 0x00, 0x00, 0xFF}, // black
	{0xF0, 0xE4, 0x42, 0xFF}, // yellow
}

// PaletteColor returns the i-th colour of the fixed, colour-blind friendly
// palette (Okabe–Ito), cycling after eight.
func PaletteColor(i int) color.RGBA {
	if i < 0 {
		i = -i
	}
	return palette[i%len(palette)]
}

// ColorOf returns s's colour, or the palette colour of position i.
func ColorOf(s Series, i int) color.Color {
	if s.Color != nil {
		return s.Color
	}
	return PaletteColor(i)
}
