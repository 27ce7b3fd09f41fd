package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	ttwidget "github.com/dweymouth/fyne-tooltip/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/ui/widgets"
)

// prefHeaderCollapsed remembers whether the user folded the header's
// figures away (Ctrl+Shift+H); until they choose, the header folds on
// short windows, where the views need the height.
const prefHeaderCollapsed = "header.collapsed"

// foldHeaderBelow is the window height under which the header starts
// folded when the user has not chosen.
const foldHeaderBelow = 720

// header is the bag's file name and its key figures: two rows, or one
// line when folded.
type header struct {
	root      *fyne.Container
	full      fyne.CanvasObject
	line      fyne.CanvasObject
	toggle    *ttwidget.Button
	collapsed bool
	// onToggle is told when the user folds or unfolds the header.
	onToggle func()

	// messages is the Messages figure's value, summary the folded line
	// (parts its figures): setRead changes them.
	messages *widgets.ClipLabel
	summary  *widgets.ClipRich
	parts    []string
}

// headerCollapsed is whether a new window of height h starts with its
// header folded: as the user last left it, else folded on short windows.
func headerCollapsed(h float32) bool {
	if a := fyne.CurrentApp(); a != nil {
		switch a.Preferences().String(prefHeaderCollapsed) {
		case "yes":
			return true
		case "no":
			return false
		}
	}
	return h < foldHeaderBelow
}

// newHeader shows the bag's file name and its key figures, folded to one
// line when collapsed.
func newHeader(d *model.Document, collapsed bool) *header {
	s := d.Summary
	where := d.Path
	if where == "" {
		where = "embedded sample bag"
	}
	duration, start, end := "–", "–", "–"
	if s.Chunks > 0 || s.Messages > 0 {
		duration = human.Duration(d.Duration())
		start, end = human.Time(s.Start), human.Time(s.End)
	}
	indexed := formatName(d)
	unitsCaption, units := human.StorageUnits(d.Storage, s)
	figures := []struct{ caption, value string }{
		{"Size", human.Size(d.Size)},
		{"Messages", human.Count(s.Messages)},
		{"Topics", human.Count(uint64(len(d.Topics)))},
		{unitsCaption, units},
		{"Compression", human.StorageCompression(d.Storage, s)},
		{"Duration", duration},
	}
	spanText := fmt.Sprintf("%s  to  %s UTC      %s", start, end, indexed)
	if t := bag.TransferOf(d.Storage); t.Remote {
		// What opening the URL fetched (issue 25), as info prints it;
		// the status line below the views follows what they read since.
		spanText = fmt.Sprintf("opened with %s in %s      %s", human.Size(t.Bytes), plural(t.Requests, "request"), spanText)
	}

	h := &header{collapsed: collapsed}
	h.toggle = ttwidget.NewButtonWithIcon("", theme.MenuDropUpIcon(), h.Toggle)
	h.toggle.Importance = widget.LowImportance
	h.toggle.SetToolTip("Fold the figures into one line, or show them again (Ctrl+Shift+H)")

	name := widgets.NewClipLabel(d.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	name.SizeName = theme.SizeNameSubHeadingText
	name.Truncation = fyne.TextTruncateOff // the path gives way first
	path := widgets.DimClip(where, theme.SizeNameText, fyne.TextAlignLeading)
	// One row of figures, and the time span on the title line, so the
	// views below keep the height.
	cells := make([]fyne.CanvasObject, len(figures))
	for i, f := range figures {
		var v *widgets.ClipLabel
		cells[i], v = fact(f.caption, f.value)
		if f.caption == "Messages" {
			h.messages = v
		}
	}
	facts := container.NewGridWithColumns(len(cells), cells...)
	span := widgets.DimText(spanText, theme.SizeNameText, fyne.TextAlignTrailing)
	span.Truncation = fyne.TextTruncateOff
	h.full = container.NewVBox(container.NewBorder(nil, nil, name, span, path), facts)

	// Folded: the name, then every figure on one dim line that gives way
	// at its end, the whole of it (with the path and span) in a tooltip.
	lineName := widgets.NewClipLabel(d.Name, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	lineName.Truncation = fyne.TextTruncateOff
	parts := make([]string, 0, len(figures)+1)
	for _, f := range figures {
		parts = append(parts, f.caption+" "+f.value)
	}
	parts = append(parts, indexed)
	summary := widgets.DimClip(strings.Join(parts, "  ·  "), theme.SizeNameText, fyne.TextAlignLeading)
	summary.Tip = where + "\n" + spanText
	h.summary, h.parts = summary, parts
	h.line = container.NewBorder(nil, nil, lineName, nil, summary)

	h.root = container.NewBorder(nil, nil, nil, container.NewVBox(h.toggle), h.full, h.line)
	h.show()
	return h
}

// Toggle folds the figures into one line, or shows them again, and
// remembers the choice for the windows opened next.
func (h *header) Toggle() {
	h.collapsed = !h.collapsed
	if a := fyne.CurrentApp(); a != nil {
		a.Preferences().SetString(prefHeaderCollapsed, map[bool]string{true: "yes", false: "no"}[h.collapsed])
	}
	h.show()
	if h.onToggle != nil {
		h.onToggle()
	}
}

// Collapsed says whether the header is folded to one line.
func (h *header) Collapsed() bool { return h.collapsed }

func (h *header) show() {
	if h.collapsed {
		h.full.Hide()
		h.line.Show()
		h.toggle.SetIcon(theme.MenuDropDownIcon())
	} else {
		h.line.Hide()
		h.full.Show()
		h.toggle.SetIcon(theme.MenuDropUpIcon())
	}
	h.root.Refresh()
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

// fact is a caption above a value (returned too, to be changed).
func fact(caption, value string) (fyne.CanvasObject, *widgets.ClipLabel) {
	c := widgets.DimText(caption, theme.SizeNameCaptionText, fyne.TextAlignLeading)
	v := widgets.NewClipLabel(value, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	return container.New(&widgets.TightVBox{Pull: widgets.CaptionPull}, c, v), v
}

// setRead makes the Messages figure what a read of every message gave,
// with what the index or summary counted beside it when that differs
// ("4,079 of 4,093"): the header says what was read, as every view does.
func (h *header) setRead(read, counted uint64) {
	v := human.Count(read)
	if counted != read {
		v += " of " + human.Count(counted)
	}
	if h.messages == nil || h.messages.Text == v {
		return
	}
	h.messages.SetText(v)
	for i, p := range h.parts {
		if strings.HasPrefix(p, "Messages ") {
			h.parts[i] = "Messages " + v
		}
	}
	h.summary.Segments[0].(*widget.TextSegment).Text = strings.Join(h.parts, "  ·  ")
	h.summary.Refresh()
}

// plural is "1 request" or "n requests".
func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
