package diagview

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// StatusTable is the statuses' table: a widget.Table that also steps the
// current time to the previous ([) or next (]) change of level while it
// has the keyboard.
type StatusTable struct {
	widget.Table
	v *View
}

func newStatusTable(v *View) *StatusTable {
	t := &StatusTable{v: v}
	t.Length = func() (int, int) { return len(v.rows), nCols }
	t.CreateCell = func() fyne.CanvasObject {
		lb := widget.NewLabel("")
		lb.Truncation = fyne.TextTruncateEllipsis
		return lb
	}
	t.UpdateCell = v.cell
	t.ShowHeaderRow = true
	t.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	t.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 && id.Col < nCols {
			o.(*widget.Label).SetText(colTitles[id.Col])
		}
	}
	t.OnSelected = func(id widget.TableCellID) { v.Select(id.Row) }
	t.ExtendBaseWidget(t)
	for c, w := range colWidths {
		t.SetColumnWidth(c, w)
	}
	return t
}

// TypedRune steps to the previous ([) or next (]) change of level.
func (t *StatusTable) TypedRune(r rune) {
	switch r {
	case '[':
		t.v.Step(false)
	case ']':
		t.v.Step(true)
	default:
		t.Table.TypedRune(r)
	}
}
