// Package records is the Records tab of a recording's window: the file's
// records as written, one level at a time (the file, a chunk's records),
// each record's fields and bytes, linked to the selected message. ROS 1
// bags have their own view (records.go); every other format whose
// storage lists its records (bag.RecordLister) has the generic one
// (records_lister.go).
package records

import (
	"fyne.io/fyne/v2/container"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/link"
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

// Tab is the Records tab: the ROS 1 records view, or for another format
// whose storage lists its records the generic one, or the ROS 1 panel's
// empty state.
func Tab(d *model.Document) (*container.TabItem, View) {
	if l := model.Lister(d.Storage); d.Bag == nil && l != nil {
		return newListedRecordsTab(d, l)
	}
	return newRecordsTab(d)
}
