package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
)

// Compact rows for the chunk view: one line of small text each, so that a
// chunk's fields, connections and records fit below the timeline.
const (
	rowTextSize = 12
	rowPad      = 3
)

// columns lays out fixed-width columns, the last taking the rest, with a
// gap after each; a negative width right-aligns its text (see newRow).
type columns struct{ widths []float32 }

func (c columns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var w, h float32
	for i, o := range objs {
		m := o.MinSize()
		h = max(h, m.Height)
		if i < len(c.widths) {
			w += absf(c.widths[i])
		} else {
			w += min(m.Width, 120)
		}
	}
	return fyne.NewSize(w, h+2*rowPad)
}

func (c columns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := float32(theme.Padding())
	for i, o := range objs {
		w := size.Width - x
		if i < len(c.widths) {
			w = absf(c.widths[i])
		}
		h := o.MinSize().Height
		o.Move(fyne.NewPos(x, (size.Height-h)/2))
		o.Resize(fyne.NewSize(max(0, w-8), h))
		x += w
	}
}

func absf(f float32) float32 {
	if f < 0 {
		return -f
	}
	return f
}

// rowText is one cell of a compact row.
func rowText(s string, bold bool) *canvas.Text {
	t := canvas.NewText(s, theme.Color(theme.ColorNameForeground))
	t.TextSize = rowTextSize
	t.TextStyle.Bold = bold
	return t
}

// dimRowText is a cell in the placeholder colour.
func dimRowText(s string) *canvas.Text {
	t := rowText(s, false)
	t.Color = theme.Color(theme.ColorNamePlaceHolder)
	return t
}

// newRow is a compact row of texts in columns.
func newRow(widths []float32, cells ...*canvas.Text) *fyne.Container {
	objs := make([]fyne.CanvasObject, len(cells))
	for i, c := range cells {
		if i < len(widths) && widths[i] < 0 {
			c.Alignment = fyne.TextAlignTrailing
		}
		objs[i] = c
	}
	return newBox(columns{widths}, objs...)
}

func newBox(l fyne.Layout, objs ...fyne.CanvasObject) *fyne.Container {
	return &fyne.Container{Layout: l, Objects: objs}
}

// setRow sets a compact row's texts.
func setRow(row fyne.CanvasObject, texts ...string) {
	for i, o := range row.(*fyne.Container).Objects {
		if i < len(texts) {
			t := o.(*canvas.Text)
			if t.Text != texts[i] {
				t.Text = texts[i]
				t.Refresh()
			}
		}
	}
}

// FieldGrid shows labelled values, one compact row each.
func FieldGrid(fields []model.Field, keyW float32) fyne.CanvasObject {
	var rows []fyne.CanvasObject
	for _, f := range fields {
		rows = append(rows, newRow([]float32{keyW}, dimRowText(f.Name), rowText(f.Value, false)))
	}
	return newBox(&TightVBox{}, rows...)
}

// CompactList is a list of compact rows with a bold header row.
func CompactList(widths []float32, titles []string, n func() int, cells func(i int) []string) (*widget.List, fyne.CanvasObject) {
	list := widget.NewList(n, func() fyne.CanvasObject {
		texts := make([]*canvas.Text, len(titles))
		for i := range texts {
			texts[i] = rowText("", false)
		}
		return newRow(widths, texts...)
	}, func(i widget.ListItemID, o fyne.CanvasObject) { setRow(o, cells(i)...) })
	head := make([]*canvas.Text, len(titles))
	for i, t := range titles {
		head[i] = rowText(t, true)
	}
	return list, newRow(widths, head...)
}
