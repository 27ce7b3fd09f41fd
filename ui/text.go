package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// dimText is secondary text (captions, paths): the placeholder colour,
// which stays readable in both light and dark themes.
func dimText(s string, size fyne.ThemeSizeName, align fyne.TextAlign) *widget.RichText {
	t := widget.NewRichText(&widget.TextSegment{Text: s, Style: widget.RichTextStyle{
		Alignment: align,
		ColorName: theme.ColorNamePlaceHolder,
		SizeName:  size,
		Inline:    true,
	}})
	t.Truncation = fyne.TextTruncateEllipsis
	return t
}

// dimWrapped is dimText that wraps at word boundaries instead of
// truncating.
func dimWrapped(s string, align fyne.TextAlign) *widget.RichText {
	t := dimText(s, theme.SizeNameText, align)
	t.Truncation = fyne.TextTruncateOff
	t.Wrapping = fyne.TextWrapWord
	return t
}
