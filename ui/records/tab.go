// Package records is the Records tab of a recording's window: the file's
// records as written, one level at a time (the file, a chunk's records),
// each record's fields and bytes, linked to the selected message. It shows
// what the format's storage lists (bag.RecordLister), so one view serves
// every format: what a format decodes of its records comes as their fields.
package records

import (
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// View is the Records tab's panel as the window uses it.
type View interface {
	// Stop cancels the record listing when the window closes.
	Stop()
	// SetLink connects the panel to the other views of its window.
	SetLink(l link.Link)
	// ShowOffset selects the record that holds file offset off.
	ShowOffset(off int64)
}

// Tab is the Records tab: the records the storage lists, or, for a format
// that does not list them, an empty state saying so.
func Tab(d *model.Document) (*container.TabItem, View) {
	if l := model.Lister(d.Storage); l != nil {
		return newRecordsTab(d, l)
	}
	return container.NewTabItemWithIcon("Records", theme.ListIcon(), widgets.NotForFormat(d, "Records")), noRecords{}
}

// noRecords is the View of a format whose records cannot be listed.
type noRecords struct{}

func (noRecords) Stop()             {}
func (noRecords) SetLink(link.Link) {}
func (noRecords) ShowOffset(int64)  {}
