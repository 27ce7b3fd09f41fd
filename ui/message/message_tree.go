package message

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	ttwidget "github.com/dweymouth/fyne-tooltip/widget"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/echo"
	"github.com/bagscope/bagscope/ui/widgets"
)

// msgTree is the Message view's field tree. It takes the copy shortcuts
// while it has the keyboard focus (a tap on a row gives it the focus).
type msgTree struct {
	widget.Tree
	p *messagePanel
}

var _ fyne.Shortcutable = (*msgTree)(nil)

func newMsgTree(p *messagePanel) *msgTree {
	t := &msgTree{p: p}
	t.ChildUIDs = p.childIDs
	t.IsBranch = p.isBranch
	t.CreateNode = p.newRow
	t.UpdateNode = p.updateRow
	t.ExtendBaseWidget(t)
	return t
}

// TypedShortcut copies the selected field's value (Ctrl+C) or path
// (Ctrl+Shift+C), or the message (Ctrl+Shift+Y, Ctrl+Shift+J).
func (t *msgTree) TypedShortcut(s fyne.Shortcut) {
	t.p.typedShortcut(s)
}

func (p *messagePanel) childIDs(id string) []string {
	if p.ft == nil {
		return nil
	}
	return p.ft.Children(id)
}

func (p *messagePanel) isBranch(id string) bool {
	return p.ft != nil && (id == "" || p.ft.IsBranch(id))
}

// msgRow is a tree row: the field's name, its value (with a sparkline
// for a long array of numbers), and its type at the end, drawn as plain
// texts with little padding so that many rows fit. A value too long for
// the row ends with an ellipsis and shows whole in a tooltip (and in the
// status line once the row is selected). A right click opens the copy
// menu. The row takes the pointer from the tree, so it draws its own hover
// tint.
type msgRow struct {
	widget.BaseWidget
	ttwidget.ToolTipWidgetExtend
	p                *messagePanel
	id               string
	name, value, typ string
	nameT, typT      *canvas.Text
	valT             *widgets.LineLabel // a raster: values change with every message (see LineLabel)
	spark            *widgets.Sparkline
	hover            *canvas.Rectangle
}

var (
	_ fyne.SecondaryTappable = (*msgRow)(nil)
	_ desktop.Hoverable      = (*msgRow)(nil)
)

func (p *messagePanel) newRow(bool) fyne.CanvasObject {
	r := &msgRow{p: p}
	r.nameT = canvas.NewText("", theme.Color(theme.ColorNameForeground))
	r.nameT.TextStyle.Bold = true
	r.valT = widgets.NewLineLabel("", fyne.TextStyle{Monospace: true})
	r.valT.Tight = true
	r.typT = canvas.NewText("", theme.Color(theme.ColorNamePlaceHolder))
	r.spark = widgets.NewSparkline()
	r.hover = canvas.NewRectangle(theme.Color(theme.ColorNameHover))
	r.hover.Hide()
	r.ExtendBaseWidget(r)
	r.ExtendToolTipWidget(r)
	return r
}

// MouseIn tints the row and starts its tooltip.
func (r *msgRow) MouseIn(e *desktop.MouseEvent) {
	r.hover.Show()
	r.hover.Refresh()
	r.ToolTipWidgetExtend.MouseIn(e)
}

// MouseOut removes the tint and the tooltip.
func (r *msgRow) MouseOut() {
	r.hover.Hide()
	r.hover.Refresh()
	r.ToolTipWidgetExtend.MouseOut()
}

// set changes the row's texts.
func (r *msgRow) set(name, value, typ string) {
	r.name, r.value, r.typ = name, value, typ
	r.Refresh()
}

// CreateRenderer lays the texts out.
func (r *msgRow) CreateRenderer() fyne.WidgetRenderer { return &msgRowRenderer{r: r} }

// TappedSecondary selects the row and opens its copy menu.
func (r *msgRow) TappedSecondary(ev *fyne.PointEvent) {
	r.p.rowMenu(r.id, ev.AbsolutePosition)
}

// msgRowPad is the room around a row's texts.
const msgRowPad = 3

type msgRowRenderer struct{ r *msgRow }

func (m *msgRowRenderer) Destroy() {}

func (m *msgRowRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{m.r.hover, m.r.nameT, m.r.valT, m.r.spark, m.r.typT}
}

func (m *msgRowRenderer) MinSize() fyne.Size {
	size := theme.TextSize()
	h := fyne.MeasureText("Mg", size, fyne.TextStyle{Monospace: true}).Height
	return fyne.NewSize(2*theme.Padding(), h+2*msgRowPad)
}

func (m *msgRowRenderer) Layout(size fyne.Size) {
	r := m.r
	r.hover.Resize(size)
	ts := theme.TextSize()
	measure := func(t *canvas.Text, s string) float32 {
		if s == "" {
			return 0
		}
		return fyne.MeasureText(s, ts, t.TextStyle).Width
	}
	y := func(t *canvas.Text) float32 {
		return (size.Height - fyne.MeasureText("Mg", ts, t.TextStyle).Height) / 2
	}
	r.nameT.Text = r.name
	nw := measure(r.nameT, r.name)
	r.nameT.Move(fyne.NewPos(0, y(r.nameT)))
	r.nameT.Resize(fyne.NewSize(nw, size.Height))
	right := size.Width - msgRowPad
	// The name is never cut; the type gives way to it in a narrow row.
	r.typT.Text = fitText(r.typ, max(0, right-nw-2*msgRowPad), ts, r.typT.TextStyle)
	tw := measure(r.typT, r.typT.Text)
	right -= tw
	r.typT.Move(fyne.NewPos(right, y(r.typT)))
	r.typT.Resize(fyne.NewSize(tw, size.Height))
	if r.spark.Visible() && right-x0(nw) > 2*r.spark.MinSize().Width {
		sw := r.spark.MinSize().Width
		right -= sw + 2*msgRowPad
		r.spark.Move(fyne.NewPos(right+msgRowPad, (size.Height-r.spark.MinSize().Height)/2))
		r.spark.Resize(r.spark.MinSize())
	} else {
		r.spark.Resize(fyne.NewSize(0, 0)) // no room in this row
	}
	x := x0(nw)
	room := right - x - 2*msgRowPad
	r.valT.Text = r.value // it cuts itself to its width
	r.valT.Move(fyne.NewPos(x, 0))
	r.valT.Resize(fyne.NewSize(max(0, room), size.Height))
	switch {
	case r.typT.Text != r.typ:
		r.SetToolTip(r.value + "  ·  " + r.typ) // cut: whole on hover
	case r.valT.Cut():
		r.SetToolTip(r.value)
	default:
		r.SetToolTip("")
	}
}

func (m *msgRowRenderer) Refresh() {
	r := m.r
	r.nameT.Color = theme.Color(theme.ColorNameForeground)
	r.typT.Color = theme.Color(theme.ColorNamePlaceHolder)
	r.hover.FillColor = theme.Color(theme.ColorNameHover)
	ts := theme.TextSize()
	r.nameT.TextSize, r.typT.TextSize = ts, ts
	m.Layout(r.Size())
	canvas.Refresh(r.nameT)
	r.valT.Refresh()
	canvas.Refresh(r.typT)
	r.spark.Refresh()
}

// x0 is where a row's value starts after a name nw wide.
func x0(nw float32) float32 {
	if nw > 0 {
		return nw + 2*msgRowPad
	}
	return 0
}

// fitText returns s, or its longest start that fits in width with an
// ellipsis after it.
func fitText(s string, width, size float32, style fyne.TextStyle) string {
	if s == "" || fyne.MeasureText(s, size, style).Width <= width {
		return s
	}
	rs := []rune(s)
	lo, hi := 0, len(rs) // the longest fitting prefix has lo runes
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fyne.MeasureText(string(rs[:mid])+"…", size, style).Width <= width {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if lo == 0 {
		return ""
	}
	return string(rs[:lo]) + "…"
}

func (p *messagePanel) updateRow(id string, _ bool, o fyne.CanvasObject) {
	r := o.(*msgRow)
	r.id = id
	if p.ft == nil {
		return
	}
	r.spark.SetValues(nil)
	switch {
	case model.IsMore(id):
		r.set("", p.ft.MoreText(id), "")
	case model.IsGroup(id):
		r.set(p.ft.GroupName(id), p.ft.GroupValue(id), "")
	default:
		n := p.ft.Node(id)
		if n == nil {
			return
		}
		if model.Groupable(n) && n.Len() >= widgets.SparkMin {
			r.spark.SetValues(n)
		}
		r.set(p.ft.RowName(id), model.EnumText(echo.FieldValue(n), p.ft.EnumNames(id)), n.Type)
	}
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
	s, e, ok := p.ft.Range(id)
	if !ok {
		return
	}
	p.sel = id
	base := p.msg.DataOffset
	start, end := base+int64(s), base+int64(e)
	if p.busy {
		// The user tapped a byte: keep the hex view where it is.
		p.hex.HighlightInPlace(start, end)
	} else {
		p.hex.SetHighlight(start, end)
		p.hex.SetCursor(start)
	}
	size := fmt.Sprintf("bytes %d..%d of the message", s, e-1)
	if e == s {
		size = fmt.Sprintf("no bytes, at %d", s)
	}
	typ, value := "", ""
	if n := p.ft.Node(id); n != nil {
		typ, value = n.Type, model.EnumText(echo.FieldValue(n), p.ft.EnumNames(id))
	} else if arr, _, _, ok := p.ft.Group(id); ok {
		typ, value = arr.Type, p.ft.GroupValue(id)
	}
	p.setDetail(fmt.Sprintf("%s  ·  %s  ·  %s  ·  %s", p.fieldPath(id), typ, size, value))
	if p.plottable(id) && p.l.Actions().AddSeries != nil {
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
		p.setDetail("The message data record's header: see its fields in the Records tab.")
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
		widgets.LegendItem(widgets.SpanColor(model.Span{Kind: model.SpanLength}, v), "lengths"),
		widgets.LegendItem(widgets.SpanColor(model.Span{Kind: model.SpanField}, v), "record header fields"),
		widgets.LegendItem(widgets.SpanColor(model.Span{Kind: model.SpanData, Field: 0}, v), "fields"),
		widgets.LegendItem(widgets.SpanColor(model.Span{Kind: model.SpanData, Field: 1}, v), "next field"),
		widgets.LegendItem(widgets.HexHighlightColor(v), "selected field"),
	)
}

// elemKind names what an array's rows are, for the row menu.
func elemKind(n *rosmsg.Node) string {
	if n.Kind == rosmsg.KindBool {
		return "values"
	}
	return "numbers"
}
