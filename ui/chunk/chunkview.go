// Package chunk is the Chunk tab of a recording's window: one chunk (or
// block) at a time, its fields, its messages per connection and the
// records inside it, following the selected message and the topic
// selection. A chunk is chosen on the timeline's chunk lane (through
// link.Actions.ShowChunk), with Prev/Next, or by selecting a message.
package chunk

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// chunkPanel shows one chunk: its chunk info fields, its chunk record's
// header, its messages per connection and the records inside it. A chunk
// is chosen on the timeline's chunk lane (through Actions.ShowChunk), with
// Prev/Next, or by selecting a message elsewhere; selecting a message
// record inside selects that message in every view.
type chunkPanel struct {
	l       link.Link
	d       *model.Document
	content *fyne.Container // the empty state or the chunk

	detail  *model.ChunkDetail
	records *model.ChunkRecords
	gen     int // the newest chunk shown, so a late load is dropped
	// pending is the offset (in the chunk data) of a record to select
	// once the records have loaded, or -1.
	pending int64
	// selRow is the selected record row, or -1.
	selRow int
	// rows are the indices of the records listed when topics are selected
	// (model.TopicRows); nil lists them all.
	rows []int

	title    *widget.Label
	prev     *widget.Button
	next     *widget.Button
	toRecord *widget.Button
	damage   *fyne.Container
	fields   *fyne.Container
	conns    *widget.List
	connHead fyne.CanvasObject
	recs     *widget.List
	recState *widget.Label
	showAll  *widget.Button
	loading  *widget.ProgressBarInfinite
	view     fyne.CanvasObject
	empty    fyne.CanvasObject
}

// Column widths of the connection and record lists.
var (
	chunkConnWidths = []float32{-56, -80, 220}
	chunkRecWidths  = []float32{-84, 104}
)

// New is the Chunk tab's content in a recording's window: the ROS 1 chunk
// view, or for another format whose storage lists its records the generic
// one (chunkview_lister.go).
func New(l link.Link) fyne.CanvasObject {
	if l.Doc().Bag == nil && model.Lister(l.Doc().Storage) != nil {
		return makeListedChunkPanel(l).content
	}
	return makeChunkPanel(l).content
}

// makeChunkPanel builds the chunk panel and links it: it offers
// Actions.ShowChunk and follows the selected message.
func makeChunkPanel(l link.Link) *chunkPanel {
	p := &chunkPanel{l: l, d: l.Doc(), pending: -1, selRow: -1}
	if l.Doc().Bag == nil {
		// The chunk view decodes ROS 1 chunk records; other formats get
		// it later. No Actions.ShowChunk: the timeline's chunk lane does not
		// lead here.
		p.content = container.NewStack(widgets.NotForFormat(l.Doc(), "Chunk"))
		return p
	}
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
			p.l.Actions().ShowRecord(p.detail.Info.ChunkPos)
		}
	})
	for _, b := range []*widget.Button{p.prev, p.next, p.toRecord} {
		b.Importance = widget.LowImportance
	}
	top := container.NewBorder(nil, nil, nil, container.NewHBox(p.prev, p.next, p.toRecord), p.title)
	p.damage = container.NewVBox()
	p.fields = container.NewGridWithColumns(2)

	p.conns, p.connHead = widgets.CompactList(chunkConnWidths, []string{"Conn", "Messages", "Topic", "Type"},
		func() int {
			if p.detail == nil {
				return 0
			}
			return len(p.detail.Conns)
		},
		func(i int) []string {
			c := p.detail.Conns[i]
			return []string{fmt.Sprint(c.Conn), human.Count(uint64(c.Count)), c.Topic, c.Type}
		})
	p.conns.OnSelected = func(i widget.ListItemID) {
		p.conns.Unselect(i)
		if p.detail != nil {
			p.l.SetTopics([]string{p.detail.Conns[i].Topic})
		}
	}
	p.recs, _ = widgets.CompactList(chunkRecWidths, []string{"Offset", "Op", "Key fields"}, p.recLen, p.recCells)
	p.recs.OnSelected = p.selectRecord
	_, recHead := widgets.CompactList(chunkRecWidths, []string{"Offset", "Op", "Key fields"}, func() int { return 0 }, nil)
	p.recState = widget.NewLabel("")
	p.recState.Truncation = fyne.TextTruncateEllipsis
	p.showAll = widget.NewButtonWithIcon("Show all", theme.ContentClearIcon(), func() { p.l.SetTopics(nil) })
	p.showAll.Importance = widget.LowImportance
	p.showAll.Hide()
	p.loading = widget.NewProgressBarInfinite()
	p.loading.Hide()

	left := container.NewBorder(container.NewVBox(p.fields, widget.NewSeparator(), p.connHead), nil, nil, nil, p.conns)
	state := container.NewBorder(nil, nil, nil, p.showAll, container.NewStack(p.recState, p.loading))
	right := container.NewBorder(container.NewVBox(state, recHead), nil, nil, nil, p.recs)
	split := container.NewHSplit(left, right)
	split.Offset = 0.55
	widgets.RememberSplit(split, "chunk")
	p.view = container.NewBorder(container.NewVBox(top, p.damage), nil, nil, nil, split)

	if len(p.d.Bag.ChunkInfos) == 0 {
		p.empty = widgets.NewEmptyState("This bag has no chunks", "Its messages are not stored in chunk records, so there is no chunk to show.")
	} else {
		first := widget.NewButtonWithIcon("Show the first chunk", theme.NavigateNextIcon(), func() { p.show(p.d.Bag.ChunkInfos[0].ChunkPos, -1) })
		first.Importance = widget.HighImportance
		t := widget.NewLabelWithStyle("No chunk chosen", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
		t.SizeName = theme.SizeNameSubHeadingText
		p.empty = widgets.NewCentered(520, container.NewVBox(t,
			widgets.DimWrapped("Click a chunk on the chunk lane of the timeline above, or select a message, to see its chunk here: its index fields, its compression, its messages per connection and the records inside it.", fyne.TextAlignCenter),
			container.NewCenter(first)))
	}
	p.content = container.NewStack(p.empty)
}

// followMessage shows the chunk holding a message selected elsewhere and
// selects its record.
func (p *chunkPanel) followMessage(m msgref.Ref) {
	if p.detail != nil && p.detail.Info.ChunkPos == m.ChunkPos {
		p.selectOffset(int64(m.Offset))
		return
	}
	p.show(m.ChunkPos, int64(m.Offset))
}

// step shows the previous (-1) or next (+1) chunk.
func (p *chunkPanel) step(d int) {
	if p.detail == nil {
		return
	}
	if c := model.ChunkDetailOf(p.d, p.detail.Index+d); c != nil {
		p.show(c.Info.ChunkPos, -1)
	}
}

// show shows the chunk whose record is at pos and reads its records in
// the background; sel, when not -1, is a record to select once read.
func (p *chunkPanel) show(pos, sel int64) {
	c := model.ChunkDetailAt(p.d, pos)
	if c == nil {
		return
	}
	if p.detail != nil && p.detail.Info.ChunkPos == pos {
		if sel >= 0 {
			p.selectOffset(sel)
		}
		return
	}
	p.detail, p.records, p.rows, p.pending = c, nil, nil, sel
	p.showAll.Hide()
	p.gen++
	start := p.d.Summary.Start
	p.title.SetText(fmt.Sprintf("Chunk %d of %d at byte %d", c.Index+1, c.N, c.Info.ChunkPos))
	p.prev.Enable()
	p.next.Enable()
	if c.Index == 0 {
		p.prev.Disable()
	}
	if c.Index == c.N-1 {
		p.next.Disable()
	}
	p.damage.Objects = nil
	if c.Damaged != "" {
		p.damage.Objects = []fyne.CanvasObject{widgets.Banner(theme.WarningIcon(), "**This chunk is damaged**", c.Damaged)}
	}
	p.damage.Refresh()
	p.fields.Objects = []fyne.CanvasObject{widgets.FieldGrid(c.InfoFields(start.Nanos()), 104), widgets.FieldGrid(c.HeaderFields(), 124)}
	p.fields.Refresh()
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

// loadRecords reads the records inside the chunk in the background,
// showing progress meanwhile.
func (p *chunkPanel) loadRecords(c *model.ChunkDetail) {
	if c.Header == nil {
		p.recState.SetText("The chunk record cannot be read: " + c.HeaderErr.Error())
		return
	}
	p.recState.SetText(fmt.Sprintf("Reading %s of %s records…", human.Size(int64(c.Header.DataLen)), c.Header.Compression))
	p.loading.Show()
	p.loading.Start()
	gen, pos := p.gen, c.Info.ChunkPos
	var recs *model.ChunkRecords
	var err error
	p.l.Go(func(ctx context.Context) {
		recs, err = model.ReadChunkRecords(ctx, p.d.Bag, pos)
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
		p.filter()
		if p.pending >= 0 {
			p.selectOffset(p.pending)
			p.pending = -1
		}
	})
}

// filter lists the records of the selected topics (all when none is
// selected) and says so above the list.
func (p *chunkPanel) filter() {
	if p.records == nil {
		return
	}
	recs := p.records
	topics := p.l.Topics()
	p.rows = model.TopicRows(recs, p.d.Bag, topics)
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
	rec, err := p.records.Record(p.record(i))
	if err != nil {
		return []string{"", "", err.Error()}
	}
	if rec.Op == ros1.OpMessageData {
		if m, err := ros1.ParseMessageData(rec); err == nil {
			start := p.d.Summary.Start
			topic := fmt.Sprintf("connection %d", m.Conn)
			if c := p.d.Storage.Connection(m.Conn); c != nil {
				topic = c.Topic
			}
			return []string{fmt.Sprint(rec.Offset), rec.Op.Name(), fmt.Sprintf("%s  ·  +%s s  ·  %s  ·  %s", topic, widgets.RelSeconds(m.Time.Nanos()-start.Nanos(), 6), widgets.TickLabel(m.Time.Nanos(), 0, 1e6, true), human.Size(int64(rec.DataLen)))}
		}
	}
	return []string{fmt.Sprint(rec.Offset), rec.Op.Name(), model.RecordSummary(&rec, p.d.Bag)}
}

// selectOffset selects the record at off in the chunk data, once read.
func (p *chunkPanel) selectOffset(off int64) {
	if p.records == nil {
		p.pending = off
		return
	}
	n := p.records.Len()
	i := sort.Search(n, func(i int) bool { r, _ := p.records.Record(i); return r.Offset >= off })
	if i == n {
		return
	}
	if r, _ := p.records.Record(i); r.Offset != off {
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

// selectRecord selects the message of a message data record everywhere.
func (p *chunkPanel) selectRecord(i widget.ListItemID) {
	p.selRow = i
	if p.records == nil || p.detail == nil {
		return
	}
	rec, err := p.records.Record(p.record(i))
	if err != nil || rec.Op != ros1.OpMessageData {
		return
	}
	m, err := ros1.ParseMessageData(rec)
	if err != nil {
		p.recState.SetText(err.Error())
		return
	}
	p.l.SelectMessage(msgref.Ref{T: m.Time.Nanos(), Loc: msgref.Loc{ChunkPos: p.detail.Info.ChunkPos, Offset: uint32(rec.Offset), Conn: m.Conn}})
}
