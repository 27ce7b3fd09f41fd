package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/ui/widgets"
)

// newHeader shows the bag's file name and its key figures.
func newHeader(d *model.Document) fyne.CanvasObject {
	s := d.Summary
	name := widgets.NewClipLabel(d.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	name.SizeName = theme.SizeNameSubHeadingText
	name.Truncation = fyne.TextTruncateOff // the path gives way first
	where := d.Path
	if where == "" {
		where = "embedded sample bag"
	}
	path := widgets.DimClip(where, theme.SizeNameText, fyne.TextAlignLeading)

	duration, start, end := "–", "–", "–"
	if s.Chunks > 0 || s.Messages > 0 {
		duration = human.Duration(d.Duration())
		start, end = human.Time(s.Start), human.Time(s.End)
	}
	indexed := formatName(d)
	// One row of figures, and the time span on the title line, so the
	// views below keep the height.
	facts := container.NewGridWithColumns(6,
		fact("Size", human.Size(d.Size)),
		fact("Messages", human.Count(s.Messages)),
		fact("Topics", human.Count(uint64(len(d.Topics)))),
		fact("Chunks", human.Count(uint64(s.Chunks))),
		fact("Compression", human.Compression(s)),
		fact("Duration", duration),
	)
	spanText := fmt.Sprintf("%s  to  %s UTC      %s", start, end, indexed)
	if t := bag.TransferOf(d.Storage); t.Remote {
		// What reading the URL had fetched when the window showed it
		// (issue 25), as info prints it; not updated as views read more.
		spanText = fmt.Sprintf("fetched %s in %s      %s", human.Size(t.Bytes), plural(t.Requests, "request"), spanText)
	}
	span := widgets.DimText(spanText, theme.SizeNameText, fyne.TextAlignTrailing)
	span.Truncation = fyne.TextTruncateOff
	title := container.NewBorder(nil, nil, name, span, path)
	return container.NewVBox(title, facts)
}

// formatName names the file's format and version: "ROS1 bag v2.0",
// "MCAP v0".
func formatName(d *model.Document) string {
	format, version := d.Summary.Format, d.Summary.Version
	if d.Info != nil {
		format, version = d.Info.Format, d.Info.Version
	}
	if d.Bag != nil || format == "" || format == "ROS 1 bag" {
		format = "ROS1 bag"
	}
	switch {
	case version == "":
		return format
	case version[0] >= '0' && version[0] <= '9':
		return fmt.Sprintf("%s v%s", format, version)
	}
	return format + ", " + version
}

// fact is a caption above a value.
func fact(caption, value string) fyne.CanvasObject {
	c := widgets.DimText(caption, theme.SizeNameCaptionText, fyne.TextAlignLeading)
	v := widgets.NewClipLabel(value, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	return container.New(&widgets.TightVBox{Pull: widgets.CaptionPull}, c, v)
}

// plural is "1 request" or "n requests".
func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
