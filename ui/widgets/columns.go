package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// ColTitle is a bold column title of the record list.
func ColTitle(s string, align fyne.TextAlign) *widget.Label {
	l := widget.NewLabelWithStyle(s, align, fyne.TextStyle{Bold: true})
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

// FixedColumns lays out fixed-width columns and gives the last object the
// rest of the width.
type FixedColumns struct{ Widths []float32 }

// MinSize is the columns' widths and the tallest object's height.
func (c FixedColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var h, w float32
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	for _, cw := range c.Widths {
		w += cw
	}
	return fyne.NewSize(w+120, h)
}

// Layout places the objects in their columns.
func (c FixedColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	for i, o := range objs {
		w := size.Width - x
		if i < len(c.Widths) {
			w = c.Widths[i]
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(max(w, 0), size.Height))
		x += w
	}
}
