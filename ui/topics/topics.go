// Package topics is the Topics tab: the recording's topics as a table that
// sorts, filters and expands to connections, with each topic's rate and
// intervals; the topics selected there filter the other views (through
// the link).
package topics

import (
	"context"
	"fmt"
	"image/color"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// Panel is the topics table with its filter entry. Clicking a
// column header sorts by it; clicking again reverses the order. Clicking a
// row selects its topic (again: unselects it); selected topics filter the
// other views. Topics with several connections expand to list them. The
// Frequency column shows each topic's rate as `rosbag info --freq` does,
// computed in the background from the message index; the detail line
// under the table tells the hovered (or last clicked) row's interval
// statistics.
type Panel struct {
	Content fyne.CanvasObject
	link    link.Link
	view    *model.TopicView
	clear   *widget.Button
	filter  *widget.Entry
	count   *widget.RichText
	table   *widget.Table
	noMatch *widget.Label
	// detail describes the hovered or last clicked row's statistics.
	detail *widgets.ClipRich
	// shown is the row the detail line describes, or nil.
	shown *model.TopicLine
	// bytesRow says why the Bytes column is empty and offers to count
	// them (a remote recording: counting fetches every message); hidden
	// otherwise.
	bytesRow *fyne.Container
	// bytesNote is bytesRow's text; countBtn its button.
	bytesNote *widget.Label
	countBtn  *widget.Button
	// bottom holds the detail line (and bytesRow above it once
	// OfferCount placed it: bytesRowPlaced).
	bottom         *fyne.Container
	bytesRowPlaced bool
	widths         [model.NumTopicColumns]float32 // natural column widths
}

// New builds the Topics tab. It counts every topic's bytes in the
// background unless countLater is set: then bytes come from setBytes or a
// later countBytes.
func New(d *model.Document, l link.Link, countLater bool) *Panel {
	p := &Panel{view: model.NewTopicView(d.Topics), link: l}
	p.filter = widget.NewEntry()
	p.filter.SetPlaceHolder("Filter by topic or type…")
	p.filter.ActionItem = widget.NewIcon(theme.SearchIcon())
	p.filter.OnChanged = p.setFilter
	p.count = widgets.DimText("", theme.SizeNameText, fyne.TextAlignTrailing)
	p.count.Truncation = fyne.TextTruncateOff
	p.noMatch = widget.NewLabel("")
	p.noMatch.Alignment = fyne.TextAlignCenter
	p.noMatch.Hide()

	p.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(p.view.Lines()), int(model.NumTopicColumns) },
		newTopicCell,
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
	p.table.OnSelected = p.tapped
	p.table.OnHighlighted = p.describe
	p.detail = widgets.DimClip(topicsHint, theme.SizeNameText, fyne.TextAlignLeading)
	p.clear = widget.NewButtonWithIcon("Show all topics", theme.ContentClearIcon(), func() { l.SetTopics(nil) })
	p.clear.Importance = widget.LowImportance
	p.clear.Hide()
	p.bytesNote = widget.NewLabel("")
	p.bytesNote.Truncation = fyne.TextTruncateEllipsis
	p.countBtn = widget.NewButtonWithIcon("Count", theme.DownloadIcon(), p.CountBytes)
	p.bytesRow = container.NewBorder(nil, nil, nil, p.countBtn, p.bytesNote)
	p.bytesRow.Hide()
	p.measure()
	p.updateCount()
	l.OnTopics(func(topics []string) {
		p.table.Refresh()
		p.updateCount()
		if len(topics) == 1 {
			p.describeTopic(topics[0])
		}
	})
	if !countLater {
		p.CountBytes()
	}
	l.WithStats(p.setStats)

	bar := container.NewBorder(nil, nil, nil, container.NewHBox(p.clear, p.count), p.filter)
	tableArea := container.NewStack(&fyne.Container{Layout: &fillColumns{p}, Objects: []fyne.CanvasObject{p.table}}, container.NewCenter(p.noMatch))
	p.bottom = container.NewPadded(p.detail)
	p.Content = container.NewBorder(container.NewPadded(bar), p.bottom, nil, nil, tableArea)
	// Only while shown: playback selects a message every frame.
	l.OnMessageShown(p.Content, func(m msgref.Ref) {
		if c := d.Storage.Connection(m.Conn); c != nil {
			p.describeTopic(c.Topic)
		}
	})
	return p
}

// topicsHint is the detail line before a row is hovered or clicked.
const topicsHint = "Hover or click a topic for its intervals, jitter, gaps and active span."

// describe shows a row's statistics on the detail line.
func (p *Panel) describe(id widget.TableCellID) {
	lines := p.view.Lines()
	if id.Row < 0 || id.Row >= len(lines) {
		return
	}
	line := lines[id.Row]
	p.shown = &line
	p.showDetail()
}

// describeTopic shows a topic's statistics on the detail line (a topic
// selected elsewhere: on the timeline, or by its message).
func (p *Panel) describeTopic(topic string) {
	for _, line := range p.view.Lines() {
		if line.Conn == nil && line.Topic.Topic == topic {
			p.shown = &line
			p.showDetail()
			return
		}
	}
}

// showDetail writes the detail line for the shown row.
func (p *Panel) showDetail() {
	text := topicsHint
	if line := p.shown; line != nil {
		name, st := line.Topic.Topic, line.Topic.Stats
		if line.Conn != nil {
			name, st = fmt.Sprintf("%s, connection %d", name, line.Conn.ID), line.Conn.Stats
		}
		// The names and the type in full: the table's cells may cut them.
		typ := line.Topic.Cell(model.ColType)
		if line.Conn != nil {
			typ = line.Conn.Cell(model.ColType)
		}
		text = name + " (" + typ + "): " + st.Detail()
	}
	p.detail.SetText(text)
}

// setStats shows every topic's statistics.
func (p *Panel) setStats(set *stats.Set) {
	p.view.SetStats(set)
	p.measure()
	p.table.Refresh()
	if p.shown != nil {
		// The view's rows were rebuilt: find the shown one again.
		for _, line := range p.view.Lines() {
			if line.Topic.Topic == p.shown.Topic.Topic && (line.Conn == nil) == (p.shown.Conn == nil) &&
				(line.Conn == nil || line.Conn.ID == p.shown.Conn.ID) {
				p.shown = &line
				break
			}
		}
		p.showDetail()
	}
}

func numeric(col model.TopicColumn) bool {
	return col == model.ColMessages || col == model.ColFrequency || col == model.ColConnections
}

func (p *Panel) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	c := o.(*topicCell)
	// A reused cell may show or hide its lead: lay it out again.
	defer c.content.Refresh()
	lines := p.view.Lines()
	if id.Row < 0 || id.Row >= len(lines) {
		c.label.SetText("")
		c.lead.Hide()
		return
	}
	line := lines[id.Row]
	col := model.TopicColumn(id.Col)
	c.label.Alignment = fyne.TextAlignLeading
	if numeric(col) {
		c.label.Alignment = fyne.TextAlignTrailing
	}
	c.label.Truncation = fyne.TextTruncateEllipsis
	text := p.view.LineCell(line, col)
	c.label.TextStyle = fyne.TextStyle{Italic: line.Conn != nil && col == model.ColTopic}
	c.label.SetText(text)
	if col != model.ColTopic {
		c.lead.Hide()
		return
	}
	c.lead.Show()
	topic := line.Topic.Topic
	switch {
	case line.Conn != nil:
		c.expand.Hide()
		c.check.Hide()
		c.indent.Show()
	case line.Topic.Expandable():
		c.indent.Hide()
		c.expand.Show()
		c.check.Show()
		if p.view.Expanded(topic) {
			c.expand.SetIcon(theme.MenuDropDownIcon())
		} else {
			c.expand.SetIcon(theme.MenuExpandIcon())
		}
		c.expand.OnTapped = func() {
			p.view.ToggleExpanded(topic)
			p.table.Refresh()
		}
	default:
		c.expand.Hide()
		c.indent.Show()
		c.check.Show()
	}
	if sel := p.link.Topics(); len(sel) > 0 && slices.Contains(sel, topic) {
		c.check.SetResource(theme.CheckButtonCheckedIcon())
	} else {
		c.check.SetResource(theme.CheckButtonIcon())
	}
}

// tapped toggles the selection of the tapped row's topic.
func (p *Panel) tapped(id widget.TableCellID) {
	p.table.UnselectAll()
	lines := p.view.Lines()
	if id.Row < 0 || id.Row >= len(lines) {
		return
	}
	p.describe(id)
	topic := lines[id.Row].Topic.Topic
	sel := slices.Clone(p.link.Topics())
	if i := slices.Index(sel, topic); i >= 0 {
		sel = slices.Delete(sel, i, i+1)
	} else {
		sel = append(sel, topic)
		slices.Sort(sel)
	}
	p.link.SetTopics(sel)
}

// OfferCount leaves the Bytes column empty until the user asks: counting
// reads every message, which for a remote recording fetches about fetch
// bytes. The row above the detail line says so, with a Count button.
// Call it before Content is placed: the row goes above the detail line.
func (p *Panel) OfferCount(fetch int64) {
	if !p.bytesRowPlaced {
		p.bottom.Objects = []fyne.CanvasObject{container.NewVBox(p.bytesRow, p.detail)}
		p.bytesRowPlaced = true
	}
	p.view.SetBytesWaiting(true)
	p.bytesNote.SetText(fmt.Sprintf("Bytes: not counted: reading them fetches %s.", human.Size(fetch)))
	p.countBtn.SetText("Count")
	p.countBtn.Enable()
	p.bytesRow.Show()
}

// CountBytes adds up every topic's payload bytes in the background.
func (p *Panel) CountBytes() {
	if p.bytesRow.Visible() {
		p.bytesNote.SetText("Bytes: counting: reading every message…")
		p.countBtn.Disable()
	}
	p.view.SetBytesWaiting(false)
	p.table.Refresh()
	var perConn map[uint32]uint64
	var loss stats.ReadLoss
	var claim *bag.Claim
	p.link.Go(func(ctx context.Context) {
		s := p.link.Doc().Storage
		perConn, loss, _ = stats.CountBytes(ctx, s, nil)
		claim = bag.TopicClaimOf(s)
	}, func() {
		if loss.Complete && loss.ByConn() {
			// What was read, with what the recording claims beside it.
			p.view.SetRead(loss.Conn, claim)
		}
		if perConn != nil {
			p.SetBytes(perConn)
		} else if p.bytesRow.Visible() {
			// Stopped (the window closing) or failed: offer it again.
			p.bytesNote.SetText("Bytes: not counted: the read stopped before it finished.")
			p.countBtn.Enable()
			p.view.SetBytesWaiting(true)
			p.table.Refresh()
		}
		if !loss.Empty() || loss.Complete {
			// Complete: the banner gives the count read, not the
			// index's.
			p.link.ReportReadLoss(loss)
		}
	})
}

// View is the table's rows as they stand.
func (p *Panel) View() *model.TopicView { return p.view }

// SetBytes shows the payload bytes per connection ID.
func (p *Panel) SetBytes(perConn map[uint32]uint64) {
	p.bytesRow.Hide()
	p.view.SetBytes(perConn)
	p.measure()
	p.table.Refresh()
}

// topicCell is a cell of the topics table: in the topic column an
// expander (topics with several connections) and a selection mark before
// the text.
type topicCell struct {
	widget.BaseWidget
	lead   *fyne.Container
	expand *widget.Button
	indent *canvas.Rectangle
	check  *widget.Icon
	label  *widget.Label
	// content lays the lead out before the label.
	content *fyne.Container
}

func newTopicCell() fyne.CanvasObject {
	c := &topicCell{label: widget.NewLabel("")}
	c.expand = widget.NewButtonWithIcon("", theme.MenuExpandIcon(), nil)
	c.expand.Importance = widget.LowImportance
	c.indent = canvas.NewRectangle(color.Transparent)
	c.indent.SetMinSize(c.expand.MinSize())
	c.check = widget.NewIcon(theme.CheckButtonIcon())
	c.lead = container.NewHBox(container.NewStack(c.indent, c.expand), c.check)
	c.content = container.NewBorder(nil, nil, c.lead, nil, c.label)
	c.ExtendBaseWidget(c)
	return c
}

// CreateRenderer shows the content.
func (c *topicCell) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(c.content)
}

func (p *Panel) updateHeader(id widget.TableCellID, o fyne.CanvasObject) {
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

func (p *Panel) sortBy(col model.TopicColumn) {
	p.view.SortBy(col)
	p.table.Refresh()
}

func (p *Panel) setFilter(q string) {
	p.view.SetFilter(q)
	p.table.Refresh()
	p.table.ScrollToTop()
	p.updateCount()
}

func (p *Panel) updateCount() {
	n, total := len(p.view.Rows()), p.view.Total()
	text := human.Plural(uint64(total), "topic")
	if n != total {
		text = fmt.Sprintf("%d of %s", n, human.Plural(uint64(total), "topic"))
	}
	if sel := len(p.link.Topics()); sel > 0 {
		text += fmt.Sprintf(", %d selected", sel)
		p.clear.Show()
	} else {
		p.clear.Hide()
	}
	p.setCount(text)
	if n == 0 && total > 0 {
		p.noMatch.SetText(fmt.Sprintf("No topic or type contains “%s”.", p.filter.Text))
		p.noMatch.Show()
	} else {
		p.noMatch.Hide()
	}
}

// measure computes each column's natural width from its header and all
// its cells.
func (p *Panel) measure() {
	pad := 2*theme.Padding() + 2*theme.InnerPadding()
	size := theme.TextSize()
	lead := 2*theme.IconInlineSize() + 4*theme.Padding() + 2*theme.InnerPadding()
	for c := model.ColTopic; c < model.NumTopicColumns; c++ {
		w := fyne.MeasureText(c.String(), size, fyne.TextStyle{}).Width + theme.IconInlineSize() + theme.Padding()
		for _, t := range p.view.Rows() {
			w = max(w, fyne.MeasureText(t.Cell(c), size, fyne.TextStyle{}).Width)
			for _, cr := range t.Conns {
				w = max(w, fyne.MeasureText(cr.Cell(c), size, fyne.TextStyle{}).Width)
			}
		}
		if c == model.ColTopic {
			w += lead
		}
		p.widths[c] = min(w+pad, 520)
	}
}

// fillColumns sizes the table's columns to their content and gives the
// spare width to the topic and type columns.
type fillColumns struct{ p *Panel }

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

func (p *Panel) setCount(s string) {
	p.count.Segments[0].(*widget.TextSegment).Text = s
	p.count.Refresh()
}
