// Package chunk is the Chunk tab of a recording's window: one chunk (or
// block) at a time, its facts, the fields of its own record and of the
// records that index it, its messages per connection and the records
// inside it, following the selected message and the topic selection. It
// shows what the format's storage lists (bag.RecordLister), so one view
// serves every format. A chunk is chosen on the timeline's chunk lane
// (through link.Actions.ShowChunk), with Prev/Next, or by selecting a
// message.
package chunk

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// chunkPanel is the Chunk tab: one block (chunk) of the storage, its facts
// from the storage's block list, its own record and its index records as
// the storage lists them, its messages per connection and the records
// inside it. Selecting a message's record inside selects that message in
// every view.
type chunkPanel struct {
	l       link.Link
	d       *model.Document
	content *fyne.Container // the empty state or the block

	detail  *model.BlockDetail
	records *model.InnerRecords
	gen     int   // the newest block shown, so that a late load is dropped
	pending int64 // offset in the block's data of a record to select once read, or -1
	rows    []int // the records listed when topics are selected; nil lists all
	selRow  int   // the selected row, or -1

	title    *widget.Label
	prev     *widget.Button
	next     *widget.Button
	toRecord *widget.Button
	damage   *fyne.Container
	fields   *fyne.Container
	recInfo  *fyne.Container // the block's length, own and index records (once read)
	length   []model.Field   // the block's length, the first row of recInfo
	conns    *widget.List
	recs     *widget.List
	recState *widget.Label
	showAll  *widget.Button
	loading  *widget.ProgressBarInfinite
	view     fyne.CanvasObject
	empty    fyne.CanvasObject
}

// Column widths of the connection list (conn, messages, topic; the type
// takes the rest) and of the chunk's records (offset, kind; the key
// fields take the rest).
var (
	chunkConnWidths = []float32{-56, -80, 220}
	chunkRecWidths  = []float32{-84, 120}
)

// New is the Chunk tab's content in a recording's window; for a format
// whose storage does not list its records, an empty state saying so.
func New(l link.Link) fyne.CanvasObject {
	if model.Lister(l.Doc().Storage) == nil {
		// No Actions.ShowChunk: the timeline's chunk lane does not lead
		// here.
		return container.NewStack(widgets.NotForFormat(l.Doc(), "Chunk"))
	}
	return makeChunkPanel(l).content
}

// makeChunkPanel builds the chunk panel of a RecordLister storage and
// links it: it offers Actions.ShowChunk and follows the selected message.
func makeChunkPanel(l link.Link) *chunkPanel {
	p := &chunkPanel{l: l, d: l.Doc(), pending: -1, selRow: -1}
	p.build()
	l.Actions().ShowChunk = func(pos int64) {
		l.SelectTab("Chunk")
		p.show(pos, -1)
	}
	l.OnMessage(p.followMessage)
	l.OnTopics(func([]string) { p.filter() })
	if m, ok := l.Message(); ok {
		p.followMessage(m)
	}
	return p
}

func (p *chunkPanel) build() {
	p.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.title.Truncation = fyne.TextTruncateEllipsis
	p.prev = widget.NewButtonWithIcon("Prev", theme.NavigateBackIcon(), func() { p.step(-1) })
	p.next = widget.NewButtonWithIcon("Next", theme.NavigateNextIcon(), func() { p.step(1) })
	p.next.IconPlacement = widget.ButtonIconTrailingText
	p.toRecord = widget.NewButtonWithIcon("Show in Records", theme.ListIcon(), func() {
		if p.detail != nil && p.l.Actions().ShowRecord != nil {
			p.l.Actions().ShowRecord(p.detail.Block.Offset)
		}
	})
	for _, b := range []*widget.Button{p.prev, p.next, p.toRecord} {
		b.Importance = widget.LowImportance
	}
	top := container.NewBorder(nil, nil, nil, container.NewHBox(p.prev, p.next, p.toRecord), p.title)
	p.damage = container.NewVBox()
	p.fields = container.NewGridWithColumns(2)
	p.recInfo = container.NewStack()

	var connHead fyne.CanvasObject
	p.conns, connHead = widgets.CompactList(chunkConnWidths, []string{"Conn", "Messages", "Topic", "Type"},
		func() int {
			if p.detail == nil {
				return 0
			}
			return len(p.detail.Conns)
		},
		func(i int) []string {
			c := p.detail.Conns[i]
			return []string{fmt.Sprint(c.Conn), human.Count(c.Count), c.Topic, c.Type}
		})
	p.conns.OnSelected = func(i widget.ListItemID) {
		p.conns.Unselect(i)
		if p.detail != nil {
			p.l.SetTopics([]string{p.detail.Conns[i].Topic})
		}
	}
	titles := []string{"Offset", "Kind", "Key fields"}
	p.recs, _ = widgets.CompactList(chunkRecWidths, titles, p.recLen, p.recCells)
	p.recs.OnSelected = p.selectRecord
	_, recHead := widgets.CompactList(chunkRecWidths, titles, func() int { return 0 }, nil)
	p.recState = widget.NewLabel("")
	p.recState.Truncation = fyne.TextTruncateEllipsis
	p.showAll = widget.NewButtonWithIcon("Show all", theme.ContentClearIcon(), func() { p.l.SetTopics(nil) })
	p.showAll.Importance = widget.LowImportance
	p.showAll.Hide()
	p.loading = widget.NewProgressBarInfinite()
	p.loading.Hide()

	// The long lines scroll sideways rather than run under the records.
	left := container.NewBorder(container.NewVBox(p.fields, container.NewHScroll(p.recInfo), widget.NewSeparator(), connHead), nil, nil, nil, p.conns)
	state := container.NewBorder(nil, nil, nil, p.showAll, container.NewStack(p.recState, p.loading))
	right := container.NewBorder(container.NewVBox(state, recHead), nil, nil, nil, p.recs)
	split := container.NewHSplit(left, right)
	split.Offset = 0.55
	widgets.RememberSplit(split, "chunk")
	p.view = container.NewBorder(container.NewVBox(top, p.damage), nil, nil, nil, split)

	if blocks := p.d.Storage.Blocks(); len(blocks) == 0 {
		p.empty = widgets.NewEmptyState("This file has no chunks", "Its messages are not stored in chunk records, so there is no chunk to show. The Records tab lists every record of the file.")
	} else {
		first := widget.NewButtonWithIcon("Show the first chunk", theme.NavigateNextIcon(), func() { p.show(blocks[0].Offset, -1) })
		first.Importance = widget.HighImportance
		t := widget.NewLabelWithStyle("No chunk chosen", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
		t.SizeName = theme.SizeNameSubHeadingText
		p.empty = widgets.NewCentered(520, container.NewVBox(t,
			widgets.DimWrapped("Click a chunk on the chunk lane of the timeline above, or select a message, to see its chunk here: where it is, its compression, its messages per connection and the records inside it.", fyne.TextAlignCenter),
			container.NewCenter(first)))
	}
	p.content = container.NewStack(p.empty)
}

// followMessage shows the block holding a message selected elsewhere and
// selects its record.
func (p *chunkPanel) followMessage(m msgref.Ref) {
	if p.detail != nil && p.detail.Block.Offset == m.ChunkPos {
		p.selectOffset(int64(m.Offset))
		return
	}
	p.show(m.ChunkPos, int64(m.Offset))
}

// step shows the previous (-1) or next (+1) block.
func (p *chunkPanel) step(d int) {
	if p.detail == nil {
		return
	}
	if c := model.BlockDetailOf(p.d.Storage, p.detail.Index+d); c != nil {
		p.show(c.Block.Offset, -1)
	}
}

// show shows the block whose record is at pos and reads its records in
// the background; sel, when not -1, is a record to select once read. A
// pos that is no block (a message outside any chunk) shows nothing new.
func (p *chunkPanel) show(pos, sel int64) {
	c := model.BlockDetailAt(p.d.Storage, pos)
	if c == nil {
		return
	}
	if p.detail != nil && p.detail.Block.Offset == pos {
		if sel >= 0 {
			p.selectOffset(sel)
		}
		return
	}
	p.detail, p.records, p.rows, p.pending = c, nil, nil, sel
	p.showAll.Hide()
	p.gen++
	p.title.SetText(fmt.Sprintf("Chunk %d of %d at byte %s", c.Index+1, c.N, model.OffsetText(pos)))
	p.prev.Enable()
	p.next.Enable()
	if c.Index == 0 {
		p.prev.Disable()
	}
	if c.Index == c.N-1 {
		p.next.Disable()
	}
	p.damage.Objects = nil
	if why := c.Damage(); why != "" {
		p.damage.Objects = []fyne.CanvasObject{widgets.Banner(theme.WarningIcon(), "**This chunk is damaged**", why)}
	}
	p.damage.Refresh()
	// Where and when on the left, its compression on the right, and the
	// long lines (its length, its records) across both.
	var where, comp []model.Field
	p.length = nil
	for _, f := range c.Fields(p.d.Summary.Start.Nanos()) {
		switch f.Name {
		case "Length":
			p.length = append(p.length, f)
		case "Compression", "Compressed size", "Uncompressed size", "Ratio":
			comp = append(comp, f)
		default:
			where = append(where, f)
		}
	}
	p.fields.Objects = []fyne.CanvasObject{widgets.FieldGrid(where, 80), widgets.FieldGrid(comp, 124)}
	p.fields.Refresh()
	p.recInfo.Objects = []fyne.CanvasObject{widgets.FieldGrid(p.length, 104)}
	p.recInfo.Refresh()
	p.conns.UnselectAll()
	p.conns.Refresh()
	p.conns.ScrollToTop()
	p.recs.UnselectAll()
	p.selRow = -1
	p.recs.Refresh()
	p.content.Objects = []fyne.CanvasObject{p.view}
	p.content.Refresh()
	p.loadRecords(c)
	p.l.ChunkShown(pos)
}

// loadRecords reads the records inside the block in the background,
// showing progress meanwhile.
func (p *chunkPanel) loadRecords(c *model.BlockDetail) {
	comp := c.Block.Compression
	if comp == "" {
		comp = "none"
	}
	p.recState.SetText(fmt.Sprintf("Reading %s of %s records…", human.Size(int64(c.Block.CompressedSize)), comp))
	p.loading.Show()
	p.loading.Start()
	gen, pos, s := p.gen, c.Block.Offset, p.d.Storage
	var recs *model.InnerRecords
	var err error
	p.l.Go(func(ctx context.Context) {
		recs, err = model.ReadInnerRecords(ctx, s, pos)
	}, func() {
		if gen != p.gen {
			return
		}
		p.loading.Stop()
		p.loading.Hide()
		if err != nil {
			p.recState.SetText("The records cannot be read: " + err.Error())
			return
		}
		p.records = recs
		p.recInfo.Objects = []fyne.CanvasObject{widgets.FieldGrid(append(slices.Clip(p.length), recordFacts(recs)...), 104)}
		p.recInfo.Refresh()
		p.filter()
		if p.pending >= 0 {
			p.selectOffset(p.pending)
			p.pending = -1
		}
	})
}

// filter lists the records of the selected topics' messages (all records
// when no topic is selected) and says so above the list.
func (p *chunkPanel) filter() {
	if p.records == nil {
		return
	}
	recs := p.records
	topics := p.l.Topics()
	p.rows = recs.TopicRows(p.d.Storage, topics)
	state := fmt.Sprintf("%s in %s of uncompressed data (offsets into it)", human.Plural(uint64(recs.Len()), "record"), human.Size(recs.Size()))
	p.showAll.Hide()
	if p.rows != nil {
		state = fmt.Sprintf("%s of %s records: those of %s (the topic selection)", human.Count(uint64(len(p.rows))), human.Count(uint64(recs.Len())), strings.Join(topics, ", "))
		p.showAll.Show()
	}
	if recs.Err != nil {
		state += "; stopped early: " + recs.Err.Error()
	}
	p.recState.SetText(state)
	p.recs.UnselectAll()
	p.selRow = -1
	p.recs.Refresh()
}

// record returns the index in p.records of list row i.
func (p *chunkPanel) record(i int) int {
	if p.rows == nil {
		return i
	}
	return p.rows[i]
}

func (p *chunkPanel) recLen() int {
	switch {
	case p.records == nil:
		return 0
	case p.rows != nil:
		return len(p.rows)
	}
	return p.records.Len()
}

func (p *chunkPanel) recCells(i int) []string {
	k := p.record(i)
	r := p.records.Record(k)
	if e, ok := p.records.Message(k); ok {
		topic := fmt.Sprintf("connection %d", e.Conn)
		if c := p.d.Storage.Connection(e.Conn); c != nil {
			topic = c.Topic
		}
		start := p.d.Summary.Start.Nanos()
		return []string{fmt.Sprint(r.Offset), r.Kind, fmt.Sprintf("%s  ·  +%s s  ·  %s  ·  %s", topic, widgets.RelSeconds(e.Time.Nanos()-start, 6), widgets.TickLabel(e.Time.Nanos(), 0, 1e6, true), human.Size(dataLen(r)))}
	}
	return []string{fmt.Sprint(r.Offset), r.Kind, r.Line()}
}

// selectOffset selects the record at off in the block's data, once read.
func (p *chunkPanel) selectOffset(off int64) {
	if p.records == nil {
		p.pending = off
		return
	}
	i := p.records.Find(off)
	if i < 0 {
		return
	}
	if p.rows != nil {
		// A record of a topic not selected is not listed.
		k, found := slices.BinarySearch(p.rows, i)
		if !found {
			return
		}
		i = k
	}
	p.recs.Select(i)
	p.recs.ScrollTo(i)
}

// selectRecord selects the message of a message's record everywhere.
func (p *chunkPanel) selectRecord(i widget.ListItemID) {
	p.selRow = i
	if p.records == nil || p.detail == nil {
		return
	}
	e, ok := p.records.Message(p.record(i))
	if !ok {
		return
	}
	p.l.SelectMessage(msgref.Ref{T: e.Time.Nanos(), Loc: msgref.Loc{ChunkPos: e.Loc.Block, Offset: e.Loc.Offset, Conn: e.Conn}})
}

// recordFacts says where the block's own record keeps its fields and its
// data, and where the records that index it are, as the storage lists
// them: a ROS 1 chunk's header and data, and its chunk info.
func recordFacts(in *model.InnerRecords) []model.Field {
	var out []model.Field
	if r := in.Own; r != nil {
		data := r.Len
		for _, sp := range model.FieldSpans(r) {
			if sp.Kind == model.SpanData {
				data = sp.Start - r.Offset
				break
			}
		}
		v := fmt.Sprintf("fields at bytes %d..%d", r.Offset, r.Offset+data-1)
		if data < r.Len {
			v += fmt.Sprintf(", data at bytes %d..%d", r.Offset+data, r.Offset+r.Len-1)
		}
		out = append(out, model.Field{Name: upperFirst(r.Kind) + " record", Value: v})
	}
	for _, r := range in.Index {
		out = append(out, model.Field{Name: upperFirst(r.Kind) + " at", Value: fmt.Sprintf("byte %d: %s", r.Offset, r.Line())})
	}
	if in.IndexKnown && len(in.Index) == 0 {
		out = append(out, model.Field{Name: "Index record", Value: "none in the file (rebuilt by a scan)"})
	}
	return out
}

// upperFirst capitalises s's first letter.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// dataLen is the length of a record's data field (a message's payload), or
// of the whole record when it has none.
func dataLen(r *bag.Record) int64 {
	for _, f := range r.Fields {
		if f.Name == "data" {
			return f.End - f.Start
		}
	}
	return r.Len
}
