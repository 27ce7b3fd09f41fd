package plot

import "image/color"

// palette is ten colours that stay apart from each other and from the
// plot's background on the dark and on the light theme (and on white, in
// exports): each has at least 3:1 contrast (WCAG's bar for graphics)
// against Fyne's dark and light backgrounds, so all sit at a middle
// lightness (CIELAB L* 47-58), and any two differ by at least 17 in
// CIEDE2000. The hues follow Tableau's ten (blue, orange, green, red,
// purple, brown, pink, olive, cyan, grey) in that order, so neighbours
// differ most and the first seven (a 7-joint arm) are all hues apart.
// palette_test.go checks these figures.
var palette = [...]color.RGBA{
	{0x1F, 0x77, 0xB4, 0xFF}, // blue
	{0xE8, 0x62, 0x0C, 0xFF}, // orange
	{0x2C, 0xA0, 0x2C, 0xFF}, // green
	{0xD6, 0x27, 0x28, 0xFF}, // red
	{0x7E, 0x5F, 0xD8, 0xFF}, // purple
	{0x9C, 0x6E, 0x45, 0xFF}, // brown
	{0xD9, 0x4A, 0x9F, 0xFF}, // pink
	{0x8F, 0x90, 0x00, 0xFF}, // olive
	{0x0E, 0x9A, 0xA7, 0xFF}, // cyan
	{0x7F, 0x7F, 0x7F, 0xFF}, // grey
}

// PaletteSize is the number of distinct colours PaletteColor hands out.
const PaletteSize = len(palette)

// PaletteColor returns the i-th colour of the fixed palette, cycling after
// PaletteSize.
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
