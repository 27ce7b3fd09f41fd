package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// NewEmptyState is a centred explanation where content would be.
func NewEmptyState(title, detail string) fyne.CanvasObject {
	t := widget.NewLabelWithStyle(title, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	t.SizeName = theme.SizeNameSubHeadingText
	d := DimWrapped(detail, fyne.TextAlignCenter)
	return NewCentered(520, container.NewVBox(t, d))
}

// Banner is a notice with an icon: a line of text (markdown) and dimmer
// lines of detail. Lines are truncated rather than wrapped, so the header
// keeps its height.
func Banner(icon fyne.Resource, text string, details ...string) fyne.CanvasObject {
	t := widget.NewRichTextFromMarkdown(text)
	t.Truncation = fyne.TextTruncateEllipsis
	lines := container.New(&TightVBox{Pull: CaptionPull}, t)
	for _, d := range details {
		lines.Add(DimText(d, theme.SizeNameText, fyne.TextAlignLeading))
	}
	return container.NewBorder(nil, nil, container.NewCenter(widget.NewIcon(icon)), nil, lines)
}
