package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// DimText is secondary text (captions, paths): the placeholder colour,
// which stays readable in both light and dark themes.
func DimText(s string, size fyne.ThemeSizeName, align fyne.TextAlign) *widget.RichText {
	t := widget.NewRichText(&widget.TextSegment{Text: s, Style: widget.RichTextStyle{
		Alignment: align,
		ColorName: theme.ColorNamePlaceHolder,
		SizeName:  size,
		Inline:    true,
	}})
	t.Truncation = fyne.TextTruncateEllipsis
	return t
}

// DimWrapped is DimText that wraps at word boundaries instead of
// truncating.
func DimWrapped(s string, align fyne.TextAlign) *widget.RichText {
	t := DimText(s, theme.SizeNameText, align)
	t.Truncation = fyne.TextTruncateOff
	t.Wrapping = fyne.TextWrapWord
	return t
}
