package widgets

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
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

// NotForFormat is the empty state of a view that reads only ROS 1 bags so
// far, shown for a recording of another format.
func NotForFormat(d *model.Document, view string) fyne.CanvasObject {
	format := "this format"
	if d.Info != nil && d.Info.Format != "" {
		format = d.Info.Format
	}
	return NewEmptyState(fmt.Sprintf("The %s view is not available for %s files yet", view, format),
		fmt.Sprintf("It shows the records of ROS 1 bags and of formats whose reader lists its records (MCAP, rosbag2 SQLite); the %s reader does not, for now. The Topics, Message, Plots and Findings views and the timeline read this %s file.", format, format))
}
