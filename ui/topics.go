package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
)

// topicPanel is the topics table with its filter entry. Clicking a
// column header sorts by it; clicking again reverses the order.
type topicPanel struct {
	content fyne.CanvasObject
	view    *model.TopicView
	filter  *widget.Entry
	count   *widget.RichText
	table   *widget.Table
	noMatch *widget.Label
	widths  [model.NumTopicColumns]float32 // natural column widths
}

func newTopicPanel(d *model.Document) *topicPanel {
	p := &topicPanel{view: model.NewTopicView(d.Topics)}
	p.filter = widget.NewEntry()
	p.filter.SetPlaceHolder("Filter by topic or type…")
	p.filter.ActionItem = widget.NewIcon(theme.SearchIcon())
	p.filter.OnChanged = p.setFilter
	p.count = dimText("", theme.SizeNameText, fyne.TextAlignTrailing)
	p.count.Truncation = fyne.TextTruncateOff
	p.noMatch = widget.NewLabel("")
	p.noMatch.Alignment = fyne.TextAlignCenter
	p.noMatch.Hide()

	p.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(p.view.Rows()), int(model.NumTopicColumns) },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		p.updateCell,
	)
	p.table.ShowHeaderColumn = false
	p.table.CreateHeader = func() fyne.CanvasObject {
		b := widget.NewButton("", nil)
		b.Importance = widget.LowImportance
		b.IconPlacement = widget.ButtonIconTrailingText
		return b
	}
	p.table.UpdateHeader = p.updateHeader
	p.table.OnSelected = func(widget.TableCellID) {} // rows are not selectable yet
	p.measure()
	p.updateCount()

	bar := container.NewBorder(nil, nil, nil, p.count, p.filter)
	tableArea := container.NewStack(&fyne.Container{Layout: &fillColumns{p}, Objects: []fyne.CanvasObject{p.table}}, container.NewCenter(p.noMatch))
	p.content = container.NewBorder(container.NewPadded(bar), nil, nil, nil, tableArea)
	return p
}

func numeric(col model.TopicColumn) bool {
	return col == model.ColMessages || col == model.ColFrequency || col == model.ColConnections
}

func (p *topicPanel) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	l := o.(*widget.Label)
	rows := p.view.Rows()
	if id.Row < 0 || id.Row >= len(rows) {
		l.SetText("")
		return
	}
	col := model.TopicColumn(id.Col)
	l.Alignment = fyne.TextAlignLeading
	if numeric(col) {
		l.Alignment = fyne.TextAlignTrailing
	}
	l.Truncation = fyne.TextTruncateEllipsis
	l.SetText(rows[id.Row].Cell(col))
}

func (p *topicPanel) updateHeader(id widget.TableCellID, o fyne.CanvasObject) {
	b := o.(*widget.Button)
	col := model.TopicColumn(id.Col)
	b.Alignment = widget.ButtonAlignLeading
	if numeric(col) {
		b.Alignment = widget.ButtonAlignTrailing
	}
	sortCol, desc := p.view.Sorting()
	var icon fyne.Resource
	if col == sortCol {
		icon = theme.MenuDropUpIcon()
		if desc {
			icon = theme.MenuDropDownIcon()
		}
	}
	b.SetIcon(icon)
	b.SetText(col.String())
	b.OnTapped = func() { p.sortBy(col) }
}

func (p *topicPanel) sortBy(col model.TopicColumn) {
	p.view.SortBy(col)
	p.table.Refresh()
}

func (p *topicPanel) setFilter(q string) {
	p.view.SetFilter(q)
	p.table.Refresh()
	p.table.ScrollToTop()
	p.updateCount()
}

func (p *topicPanel) updateCount() {
	n, total := len(p.view.Rows()), p.view.Total()
	if n == total {
		p.setCount(fmt.Sprintf("%d topics", total))
	} else {
		p.setCount(fmt.Sprintf("%d of %d topics", n, total))
	}
	if n == 0 && total > 0 {
		p.noMatch.SetText(fmt.Sprintf("No topic or type contains “%s”.", p.filter.Text))
		p.noMatch.Show()
	} else {
		p.noMatch.Hide()
	}
}

// measure computes each column's natural width from its header and all
// its cells.
func (p *topicPanel) measure() {
	pad := 2*theme.Padding() + 2*theme.InnerPadding()
	size := theme.TextSize()
	for c := model.ColTopic; c < model.NumTopicColumns; c++ {
		w := fyne.MeasureText(c.String(), size, fyne.TextStyle{}).Width + theme.IconInlineSize() + theme.Padding()
		for _, t := range p.view.Rows() {
			w = max(w, fyne.MeasureText(t.Cell(c), size, fyne.TextStyle{}).Width)
		}
		p.widths[c] = min(w+pad, 520)
	}
}

// fillColumns sizes the table's columns to their content and gives the
// spare width to the topic and type columns.
type fillColumns struct{ p *topicPanel }

func (l *fillColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	return objs[0].MinSize()
}

func (l *fillColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	p := l.p
	var total float32
	for _, w := range p.widths {
		total += w
	}
	spare := max(0, size.Width-total-theme.ScrollBarSize()-2*theme.Padding())
	text := p.widths[model.ColTopic] + p.widths[model.ColType]
	for c, w := range p.widths {
		if c == int(model.ColTopic) || c == int(model.ColType) {
			w += spare * w / text
		}
		p.table.SetColumnWidth(c, w)
	}
	objs[0].Resize(size)
	objs[0].Move(fyne.NewPos(0, 0))
}

func (p *topicPanel) setCount(s string) {
	p.count.Segments[0].(*widget.TextSegment).Text = s
	p.count.Refresh()
}
