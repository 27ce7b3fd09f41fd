package ui

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
)

func (p *messagePanel) childIDs(id string) []string {
	if p.ft == nil {
		return nil
	}
	return p.ft.Children(id)
}

func (p *messagePanel) isBranch(id string) bool {
	return p.ft != nil && (id == "" || p.ft.IsBranch(id))
}

// A tree row: the field's name, its value, and its type at the end.
func (p *messagePanel) newRow(bool) fyne.CanvasObject {
	name := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	value := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Monospace: true})
	value.Truncation = fyne.TextTruncateEllipsis
	typ := dimText("", theme.SizeNameText, fyne.TextAlignTrailing)
	typ.Truncation = fyne.TextTruncateOff
	return container.NewBorder(nil, nil, name, typ, value)
}

func (p *messagePanel) updateRow(id string, _ bool, o fyne.CanvasObject) {
	c := o.(*fyne.Container)
	var name, value *widget.Label
	var typ *widget.RichText
	for _, obj := range c.Objects {
		switch w := obj.(type) {
		case *widget.Label:
			if w.TextStyle.Bold {
				name = w
			} else {
				value = w
			}
		case *widget.RichText:
			typ = w
		}
	}
	if p.ft == nil {
		return
	}
	if model.IsMore(id) {
		name.SetText("")
		value.SetText(p.ft.MoreText(id))
		setDim(typ, "")
		c.Refresh()
		return
	}
	n := p.ft.Node(id)
	if n == nil {
		return
	}
	name.SetText(model.FieldName(n))
	value.SetText(model.FieldValue(n))
	setDim(typ, n.Type)
	c.Refresh() // a reused row lays out again for its new texts
}

// selectField highlights the bytes of the selected field, or lists more
// elements when the "more" row is selected.
func (p *messagePanel) selectField(id string) {
	if p.ft == nil || p.msg == nil {
		return
	}
	if model.IsMore(id) {
		p.ft.ShowMore(id)
		p.tree.Unselect(id)
		p.tree.Refresh()
		return
	}
	n := p.ft.Node(id)
	if n == nil {
		return
	}
	p.sel = id
	base := p.msg.DataOffset
	start, end := base+int64(n.Start), base+int64(n.End)
	if p.busy {
		// The user tapped a byte: keep the hex view where it is.
		p.hex.hiStart, p.hex.hiEnd = start, end
		p.hex.Refresh()
	} else {
		p.hex.SetHighlight(start, end)
		p.hex.SetCursor(start)
	}
	path := p.ft.Path(id)
	size := fmt.Sprintf("bytes %d..%d of the message", n.Start, n.End-1)
	if n.End == n.Start {
		size = fmt.Sprintf("no bytes, at %d", n.Start)
	}
	p.detail.SetText(fmt.Sprintf("%s  ·  %s  ·  %s  ·  %s", path, n.Type, size, model.FieldValue(n)))
	if p.ft.Plottable(id) && p.l.addSeries != nil {
		p.plot.Enable()
	} else {
		p.plot.Disable()
	}
}

// selectByte selects the field holding byte off (an offset into the chunk
// data), opening the branches down to it.
func (p *messagePanel) selectByte(off int64) {
	if p.ft == nil || p.msg == nil {
		return
	}
	base := p.msg.DataOffset
	if off < base {
		// The record's header: no field.
		p.tree.UnselectAll()
		p.sel = ""
		p.hex.SetHighlight(0, 0)
		p.plot.Disable()
		p.detail.SetText("The message data record's header: see its fields in the Records tab.")
		return
	}
	id := p.ft.At(int(off - base))
	if id == "" {
		p.tree.UnselectAll()
		p.hex.SetHighlight(0, 0)
		return
	}
	p.busy = true
	defer func() { p.busy = false }()
	p.selectTreeID(id)
}

// selectTreeID opens the branches above id, selects it and scrolls to it.
func (p *messagePanel) selectTreeID(id string) {
	var up []string
	for a, _ := model.ParentID(id); a != ""; a, _ = model.ParentID(a) {
		up = append(up, a)
	}
	for i := len(up) - 1; i >= 0; i-- {
		p.tree.OpenBranch(up[i])
	}
	p.tree.Refresh() // At may have listed more elements
	p.tree.Select(id)
	p.tree.ScrollTo(id)
	if p.sel != id {
		p.selectField(id) // Select does not call OnSelected for the selected node
	}
}

// hexLegendMessage explains the Message tab's hex tints.
func hexLegendMessage() fyne.CanvasObject {
	v := fyne.CurrentApp().Settings().ThemeVariant()
	return container.NewHBox(
		legendItem(spanColor(model.Span{Kind: model.SpanLength}, v), "lengths"),
		legendItem(spanColor(model.Span{Kind: model.SpanField}, v), "record header fields"),
		legendItem(spanColor(model.Span{Kind: model.SpanData, Field: 0}, v), "fields"),
		legendItem(spanColor(model.Span{Kind: model.SpanData, Field: 1}, v), "next field"),
		legendItem(hexHighlightColor(v), "selected field"),
	)
}

// legendItem is a colour swatch and what it means.
func legendItem(c color.Color, s string) fyne.CanvasObject {
	r := canvas.NewRectangle(c)
	r.StrokeColor = theme.Color(theme.ColorNameSeparator)
	r.StrokeWidth = 1
	r.SetMinSize(fyne.NewSize(14, 14))
	t := dimText(s, theme.SizeNameCaptionText, fyne.TextAlignLeading)
	t.Truncation = fyne.TextTruncateOff
	return container.NewHBox(container.NewCenter(r), t)
}
