package query

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// cell is one value of the result: numbers right-aligned, NULL shown as
// NULL in italics, dimmed. A click selects its row, a double click opens
// the row's recording (when the result has a path column).
type cell struct {
	widget.Label
	v   *View
	row int
	col int
}

func newCell(v *View) *cell {
	c := &cell{v: v, row: -1}
	c.Truncation = fyne.TextTruncateEllipsis
	c.ExtendBaseWidget(c)
	return c
}

func (c *cell) set(id widget.TableCellID) {
	c.row, c.col = id.Row, id.Col
	v := c.v
	if v.res == nil || id.Row >= len(v.order) || id.Col >= len(v.res.Columns) {
		c.SetText("")
		return
	}
	val := v.res.Rows[v.order[id.Row]][id.Col]
	c.Alignment = fyne.TextAlignLeading
	if v.res.Numeric(id.Col) {
		c.Alignment = fyne.TextAlignTrailing
	}
	c.TextStyle = fyne.TextStyle{Italic: val.Null}
	c.Importance = widget.MediumImportance
	if val.Null {
		c.Importance = widget.LowImportance
	}
	c.SetText(val.Text)
}

// Tapped selects the cell's row.
func (c *cell) Tapped(*fyne.PointEvent) {
	c.v.grid.Select(widget.TableCellID{Row: c.row, Col: c.col})
}

// DoubleTapped opens the row's recording.
func (c *cell) DoubleTapped(*fyne.PointEvent) {
	c.Tapped(nil)
	c.v.OpenRow(c.row)
}
