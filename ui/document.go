package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
)

// moreTabs returns the views after the topics tab, each from its own file.
// selectTab shows the tab whose title starts with a name.
func moreTabs(d *model.Document, w fyne.Window, selectTab func(name string)) []*container.TabItem {
	timeline, tv := newTimelineTab(d)
	records, rp := newRecordsTab(d)
	// A finding's "Show in Records" selects the record it is about.
	showRecord := func(off int64) {
		selectTab("Records")
		rp.showOffset(off)
	}
	findings := newFindingsTab(d, w, showRecord, rp.showOffset, tv.markFindings)
	return []*container.TabItem{timeline, findings, records}
}

// newDocumentPanel shows an opened bag: the header above, the views
// below. The views are tabs; the timeline, records and message views will
// join the topics tab.
func newDocumentPanel(d *model.Document, w fyne.Window) fyne.CanvasObject {
	var body fyne.CanvasObject
	var tabs *container.AppTabs
	if len(d.Topics) == 0 {
		body = newEmptyState("This bag has no messages",
			"It holds no connections and no chunks: the recording was opened and closed without any message being written.")
	} else {
		topics := newTopicPanel(d)
		items := []*container.TabItem{
			container.NewTabItemWithIcon(fmt.Sprintf("Topics (%d)", len(d.Topics)), theme.ListIcon(), topics.content),
		}
		items = append(items, moreTabs(d, w, func(name string) { selectTabNamed(tabs, name) })...)
		tabs = container.NewAppTabs(items...)
		body = tabs
	}
	top := []fyne.CanvasObject{newHeader(d)}
	if d.Summary.Messages == 0 && len(d.Topics) > 0 {
		top = append(top, banner(theme.InfoIcon(), "This bag has connections but no messages: every topic below has 0 messages."))
	}
	if d.Scan != nil {
		scan := banner(theme.WarningIcon(), model.ScanSummary(d.Scan), d.Scan.Reason.Error(), model.FixHint)
		if tabs != nil {
			// A link to the doctor's findings for this bag.
			show := widget.NewButtonWithIcon("Show findings", theme.NavigateNextIcon(), func() { selectTabNamed(tabs, "Findings") })
			show.Importance = widget.LowImportance
			scan = container.NewBorder(nil, nil, nil, container.NewVBox(show), scan)
		}
		top = append(top, scan)
	}
	for _, w := range d.Warnings {
		top = append(top, banner(theme.WarningIcon(), w.Error()))
	}
	top = append(top, widget.NewSeparator())
	return container.NewBorder(container.NewPadded(container.NewVBox(top...)), nil, nil, nil, body)
}

// newEmptyState is a centred explanation where content would be.
func newEmptyState(title, detail string) fyne.CanvasObject {
	t := widget.NewLabelWithStyle(title, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	t.SizeName = theme.SizeNameSubHeadingText
	d := dimWrapped(detail, fyne.TextAlignCenter)
	return newCentered(520, container.NewVBox(t, d))
}

// banner is a notice with an icon: a line of text (markdown) and dimmer
// lines of detail. Lines are truncated rather than wrapped, so the header
// keeps its height.
func banner(icon fyne.Resource, text string, details ...string) fyne.CanvasObject {
	t := widget.NewRichTextFromMarkdown(text)
	t.Truncation = fyne.TextTruncateEllipsis
	lines := container.New(&tightVBox{}, t)
	for _, d := range details {
		lines.Add(dimText(d, theme.SizeNameText, fyne.TextAlignLeading))
	}
	return container.NewBorder(nil, nil, container.NewCenter(widget.NewIcon(icon)), nil, lines)
}
