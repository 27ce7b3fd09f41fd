package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// colTitle is a bold column title of the record list.
func colTitle(s string, align fyne.TextAlign) *widget.Label {
	l := widget.NewLabelWithStyle(s, align, fyne.TextStyle{Bold: true})
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

// fixedColumns lays out fixed-width columns and gives the last object the
// rest of the width.
type fixedColumns struct{ widths []float32 }

func (c fixedColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var h, w float32
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	for _, cw := range c.widths {
		w += cw
	}
	return fyne.NewSize(w+120, h)
}

func (c fixedColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	for i, o := range objs {
		w := size.Width - x
		if i < len(c.widths) {
			w = c.widths[i]
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(max(w, 0), size.Height))
		x += w
	}
}
