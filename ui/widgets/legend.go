package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// LegendItem is a colour swatch and what it means.
func LegendItem(c color.Color, s string) fyne.CanvasObject {
	r := canvas.NewRectangle(c)
	r.StrokeColor = theme.Color(theme.ColorNameSeparator)
	r.StrokeWidth = 1
	r.SetMinSize(fyne.NewSize(14, 14))
	t := DimText(s, theme.SizeNameCaptionText, fyne.TextAlignLeading)
	t.Truncation = fyne.TextTruncateOff
	return container.NewHBox(container.NewCenter(r), t)
}
