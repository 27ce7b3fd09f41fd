package records

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

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

// The Records tab shows what the format's lister (bag.RecordLister: ROS 1,
// MCAP, .db3) says of each record, field by field, with each field's type
// and bytes.

// recordLevel is one list of records: the file's, or a block's.
type recordLevel struct {
	set   model.ListedRecords
	title string
	sel   int    // selected row, or -1
	kind  string // the kind of the record opened ("chunk"), for a block's level
}

// recordsPanel lists every top-level record in byte order; the
// selected record's fields are shown as a table and its bytes in a hex
// view, each field's bytes tinted and named. A block (chunk) record can be
// opened to list the records inside it.
type recordsPanel struct {
	d       *model.Document
	lister  bag.RecordLister
	content fyne.CanvasObject
	async   func(func())

	levels []*recordLevel // levels[0] is the file; more are opened blocks

	body     *fyne.Container // the loading state or the split
	split    fyne.CanvasObject
	list     *widget.List
	crumb    *widget.Label
	back     *widget.Button
	count    *widget.Label
	table    *widget.Table
	title    *widget.Label
	openBtn  *widget.Button
	saveBtn  *widget.Button
	hex      *widgets.HexView
	rec      *bag.Record       // the selected record, or nil
	fields   []bag.RecordField // its fields, and its damage, for the table
	spans    []model.Span
	progress *widget.ProgressBar
	stage    *widget.Label
	cancel   context.CancelFunc
	mu       sync.Mutex // guards cancel

	// blocks are the file offsets of the storage's blocks.
	blocks map[int64]*bag.Block
	// opens says, by file offset, whether a record of a storage without
	// blocks (a SQLite page, say) lists records inside it.
	opens map[int64]bool

	// pending is a file offset to select once the records are listed
	// (ShowOffset); pendingMsg a message record to show then.
	pending    int64
	hasPending bool
	pendingMsg *msgref.Loc

	link  link.Link
	quiet bool // selecting without telling the link
}

// Column widths of the listed records: offset, kind, length; the summary
// takes the rest.
var recordColumnWidths = []float32{96, 116, 76}

// newRecordsTab is the Records tab of a recording whose storage is
// a RecordLister, and its panel.
func newRecordsTab(d *model.Document, l bag.RecordLister) (*container.TabItem, *recordsPanel) {
	p := newRecordsPanel(d, l, func(f func()) { link.Background(f) })
	return container.NewTabItemWithIcon("Records", theme.ListIcon(), p.content), p
}

func newRecordsPanel(d *model.Document, l bag.RecordLister, async func(func())) *recordsPanel {
	p := &recordsPanel{d: d, lister: l, async: async, blocks: map[int64]*bag.Block{}, opens: map[int64]bool{}}
	for _, b := range d.Storage.Blocks() {
		p.blocks[b.Offset] = b
	}
	p.list = widget.NewList(p.listLen, p.newRow, p.updateRow)
	p.list.OnSelected = p.selectRow
	// The heading and the detail's title wrap rather than cut: on a
	// 1024 px window a record's place and sizes take two lines.
	p.crumb = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.crumb.Wrapping = fyne.TextWrapWord
	p.back = widget.NewButtonWithIcon("File records", theme.NavigateBackIcon(), p.goBack)
	p.back.Importance = widget.LowImportance
	p.count = widget.NewLabel("")

	head := container.New(widgets.FixedColumns{Widths: recordColumnWidths},
		widgets.ColTitle("Offset", fyne.TextAlignTrailing), widgets.ColTitle("Kind", fyne.TextAlignLeading),
		widgets.ColTitle("Length", fyne.TextAlignTrailing), widgets.ColTitle("Summary", fyne.TextAlignLeading))
	left := container.NewBorder(
		container.NewVBox(container.NewBorder(nil, nil, p.back, p.count, p.crumb), head, widget.NewSeparator()),
		nil, nil, nil, p.list)

	p.table = widget.NewTable(p.tableSize, p.newCell, p.updateCell)
	p.table.ShowHeaderRow = true
	p.table.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	p.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 {
			o.(*widget.Label).SetText([]string{"Field", "Type", "Value", "Bytes"}[id.Col])
		}
	}
	for i, w := range []float32{140, 64, 300, 200} {
		p.table.SetColumnWidth(i, w)
	}
	p.table.OnSelected = func(id widget.TableCellID) {
		if p.rec != nil && id.Row >= 0 && id.Row < len(p.fields) {
			f := p.fields[id.Row]
			p.hex.SetHighlight(p.rec.Offset+f.Start, p.rec.Offset+f.End)
		}
	}
	p.title = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.title.Wrapping = fyne.TextWrapWord
	p.openBtn = widget.NewButtonWithIcon("Show records inside", theme.FolderOpenIcon(), p.openBlock)
	p.openBtn.Importance = widget.HighImportance
	p.openBtn.Hide()
	p.saveBtn = widget.NewButtonWithIcon("Save data…", theme.DocumentSaveIcon(), p.saveRecordPayload)
	p.saveBtn.Hide()
	p.hex = widgets.NewHexView()
	p.hex.DecimalOffsets = true

	hexPane := container.NewBorder(nil, hexLegend(), nil, nil, p.hex)
	vs := container.NewVSplit(p.table, hexPane)
	vs.Offset = 0.36 // the fields above, the bytes below, which want the room
	widgets.RememberSplit(vs, "records.listed.detail")
	right := container.NewBorder(container.NewBorder(nil, nil, nil, container.NewHBox(p.saveBtn, p.openBtn), p.title), nil, nil, nil, vs)
	hs := container.NewHSplit(left, right)
	hs.Offset = 0.45
	widgets.RememberSplit(hs, "records.listed")
	p.split = hs

	p.progress = widget.NewProgressBar()
	p.stage = widget.NewLabelWithStyle("Listing the records…", fyne.TextAlignCenter, fyne.TextStyle{})
	p.body = container.NewStack()
	p.content = widgets.NewStartOnShow(p.body, p.ensureList)
	return p
}

// hexLegend explains the hex view's tints of listed records.
func hexLegend() fyne.CanvasObject {
	v := fyne.CurrentApp().Settings().ThemeVariant()
	objs := []fyne.CanvasObject{widgets.LegendItem(widgets.SpanColor(model.Span{Kind: model.SpanLength}, v), "op, length")}
	for i := range 3 {
		objs = append(objs, widgets.LegendItem(widgets.SpanColor(model.Span{Kind: model.SpanField, Field: i}, v), fmt.Sprintf("field %d", i+1)))
	}
	objs = append(objs, widgets.LegendItem(widgets.SpanColor(model.Span{Kind: model.SpanData}, v), "data"))
	return container.NewHBox(objs...)
}

// ensureList starts listing the records unless they are listed or being
// listed.
func (p *recordsPanel) ensureList() {
	if len(p.levels) == 0 && !p.listing() {
		p.startList()
	}
}

// listing reports whether the records are being listed.
func (p *recordsPanel) listing() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cancel != nil
}

// Stop cancels the listing, if it is running, when the window closes.
func (p *recordsPanel) Stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cancel != nil {
		p.cancel()
	}
}

// startList lists the records in the background, showing progress with a
// Cancel button.
func (p *recordsPanel) startList() {
	ctx, cancel := context.WithCancel(context.Background())
	p.mu.Lock()
	p.cancel = cancel
	p.mu.Unlock()
	p.progress.SetValue(0)
	stop := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), p.Stop)
	p.body.Objects = []fyne.CanvasObject{widgets.NewCentered(420, container.NewVBox(p.stage, p.progress, container.NewCenter(stop)))}
	p.body.Refresh()
	l, size := p.lister, p.d.Size
	if p.d.Info != nil && p.d.Info.Size > 0 {
		size = p.d.Info.Size
	}
	p.async(func() {
		var last time.Time
		x, err := model.BuildFileRecords(ctx, l, size, func(done, total int64, _ string) {
			if now := time.Now(); now.Sub(last) > 100*time.Millisecond && total > 0 {
				last = now
				f := float64(done) / float64(total)
				fyne.Do(func() { p.progress.SetValue(f) })
			}
		})
		cancel()
		fyne.Do(func() { p.listed(x, err) })
	})
}

// listed shows the records, or why they are missing.
func (p *recordsPanel) listed(x *model.FileRecords, err error) {
	p.mu.Lock()
	p.cancel = nil
	p.mu.Unlock()
	if err != nil {
		msg := "Listing the records failed: " + err.Error()
		if errors.Is(err, context.Canceled) {
			msg = "Listing the records was cancelled."
		}
		retry := widget.NewButtonWithIcon("List records", theme.ViewRefreshIcon(), p.startList)
		p.body.Objects = []fyne.CanvasObject{widgets.NewCentered(520, container.NewVBox(
			widget.NewLabelWithStyle(msg, fyne.TextAlignCenter, fyne.TextStyle{}), container.NewCenter(retry)))}
		p.body.Refresh()
		return
	}
	title := p.d.Name
	switch {
	case x.Damaged() > 0:
		title += fmt.Sprintf(" (%d damaged; first: %v)", x.Damaged(), x.Err)
	case x.Err != nil:
		title += " (stopped early: " + x.Err.Error() + ")"
	}
	p.levels = []*recordLevel{{set: x, title: title, sel: -1}}
	if x.Len() > 0 {
		p.levels[0].sel = 0 // the first record fills the fields and bytes
	}
	if p.link != nil && p.pendingMsg == nil && !p.hasPending {
		// Show where the selected message is: its chunk's record.
		if m, ok := p.link.Message(); ok {
			if k := x.Find(m.ChunkPos); k >= 0 && x.Offset(k) == m.ChunkPos {
				p.levels[0].sel = k
			}
		}
	}
	p.body.Objects = []fyne.CanvasObject{p.split}
	p.body.Refresh()
	p.quiet = true
	p.showLevel()
	p.quiet = false
	p.applyPending()
	p.applyPendingMessage()
}

// level is the list shown now.
func (p *recordsPanel) level() *recordLevel {
	if len(p.levels) == 0 {
		return nil
	}
	return p.levels[len(p.levels)-1]
}

// inner returns the block whose records are listed now, or nil at the
// file's level.
func (p *recordsPanel) inner() *model.InnerRecords {
	if l := p.level(); l != nil {
		if in, ok := l.set.(*model.InnerRecords); ok {
			return in
		}
	}
	return nil
}

// showLevel shows the current level's records and selection.
func (p *recordsPanel) showLevel() {
	l := p.level()
	p.crumb.SetText(l.title)
	if len(p.levels) > 1 {
		p.back.Show()
	} else {
		p.back.Hide()
	}
	count := human.Plural(uint64(l.set.Len()), "record")
	if x, ok := l.set.(*model.FileRecords); ok && x.Damaged() > 0 {
		count += fmt.Sprintf(", %d damaged", x.Damaged())
	}
	p.count.SetText(count)
	p.list.UnselectAll()
	p.list.Refresh()
	p.clearSelection()
	if l.sel >= 0 {
		p.list.Select(l.sel)
		p.list.ScrollTo(l.sel)
	} else {
		p.list.ScrollToTop()
	}
}

func (p *recordsPanel) listLen() int {
	if l := p.level(); l != nil {
		return l.set.Len()
	}
	return 0
}

func (p *recordsPanel) newRow() fyne.CanvasObject {
	num := func() *widget.Label {
		l := widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true})
		l.Truncation = fyne.TextTruncateClip
		return l
	}
	kind := widget.NewLabel("")
	kind.Truncation = fyne.TextTruncateEllipsis
	sum := widget.NewLabel("")
	sum.Truncation = fyne.TextTruncateEllipsis
	return container.New(widgets.FixedColumns{Widths: recordColumnWidths}, num(), kind, num(), sum)
}

func (p *recordsPanel) updateRow(i widget.ListItemID, o fyne.CanvasObject) {
	labels := o.(*fyne.Container).Objects
	l := p.level()
	if l == nil || i >= l.set.Len() {
		return
	}
	r := l.set.Record(i)
	set := func(k int, s string, bold bool, imp widget.Importance) {
		lb := labels[k].(*widget.Label)
		if lb.Text != s || lb.TextStyle.Bold != bold || lb.Importance != imp {
			lb.Text, lb.TextStyle.Bold, lb.Importance = s, bold, imp
			lb.Refresh()
		}
	}
	imp := widget.MediumImportance
	if r.Damaged {
		imp = widget.DangerImportance
	}
	set(0, fmt.Sprint(r.Offset), false, widget.MediumImportance)
	set(1, r.Kind, p.openable(r, false), imp)
	set(2, fmt.Sprint(r.Len), false, widget.MediumImportance)
	set(3, r.Line(), false, imp)
}

// openable says whether a record of the file's level is a block whose
// records can be listed: a block the storage lists, or a chunk record. A
// storage without blocks (SQLite, whose pages hold cells) is asked, when
// probe is set: it lists a record's inside cheaply.
func (p *recordsPanel) openable(r *bag.Record, probe bool) bool {
	if len(p.levels) != 1 || r.Damaged {
		return false
	}
	if _, ok := p.blocks[r.Offset]; ok || r.Kind == "chunk" {
		return true
	}
	if len(p.blocks) > 0 {
		return false
	}
	switch r.Kind {
	case "header", "footer", "magic":
		return false // a file's framing, even where it shares a page with records
	}
	ok, known := p.opens[r.Offset]
	if !known && probe {
		recs, _, err := p.lister.BlockRecords(r.Offset)
		ok = len(recs) > 0 && (err == nil || len(recs) > 1)
		p.opens[r.Offset] = ok
	}
	return ok
}

// selectRow shows record i's fields and bytes.
func (p *recordsPanel) selectRow(i widget.ListItemID) {
	l := p.level()
	if l == nil || i >= l.set.Len() {
		return
	}
	l.sel = i
	r := l.set.Record(i)
	p.rec = r
	p.fields = r.Fields
	if r.Damaged && r.Err != nil {
		p.fields = append(slices.Clip(p.fields), bag.RecordField{Name: "damage", Value: r.Err.Error(), Start: 0, End: r.Len})
	}
	p.spans = model.FieldSpans(r)
	at := r.Offset
	if in := p.inner(); in != nil {
		at = in.Block
	}
	prefix, shift, added := bag.RecordShift(p.lister, at)
	if added {
		p.fields = alignedFields(p.fields, prefix, shift)
	}
	p.table.UnselectAll()
	p.table.Refresh()
	p.table.ScrollToTop()
	where := "byte " + model.OffsetText(r.Offset)
	if in := p.inner(); in != nil {
		where += fmt.Sprintf(" of the data of the %s at %d", p.level().kind, in.Block)
	}
	title := fmt.Sprintf("%s record at %s: %s", r.Kind, where, human.Plural(uint64(r.Len), "byte"))
	for _, sp := range p.spans {
		if sp.Kind == model.SpanData {
			// What of it is data, as the ROS 1 view said ("data 321 bytes").
			title += fmt.Sprintf(", data %s", human.Plural(uint64(sp.End-sp.Start), "byte"))
			break
		}
	}
	if r.Damaged {
		title = fmt.Sprintf("Damaged bytes at %s: %s", where, human.Plural(uint64(r.Len), "byte"))
	}
	if added {
		title += fmt.Sprintf(" · %s's own times (%s: the window's)", strings.TrimSuffix(prefix, ":"), OnTimeline)
	}
	p.title.SetText(title)
	n := min(r.Len, max(l.set.Size()-r.Offset, 0))
	if part, _ := bag.SplitPart(r.Offset); part > 0 {
		// A record of a later file of several (its offset joined, past
		// the first file's size): its own length, read from its file.
		n = r.Len
	}
	p.hex.OffsetLimit = max(l.set.Size(), r.Offset+n)
	p.hex.SetData(l.set.ReaderAt(), r.Offset, n, p.spans)
	p.linkRecord(r)
	if _, _, _, ok := savable(r); ok {
		p.saveBtn.Show()
	} else {
		p.saveBtn.Hide()
	}
	if p.openable(r, true) {
		p.openBtn.Enable()
		p.openBtn.SetText("Show records inside")
		p.openBtn.Show()
	} else {
		p.openBtn.Hide()
	}
}

func (p *recordsPanel) clearSelection() {
	p.rec, p.fields, p.spans = nil, nil, nil
	p.table.Refresh()
	p.title.SetText("Select a record to see its fields and bytes")
	if len(p.levels) > 1 {
		p.title.SetText(fmt.Sprintf("Offsets are into the data of the %s at %d. Select a record to see its fields and bytes", p.level().kind, p.inner().Block))
	}
	p.openBtn.Hide()
	p.saveBtn.Hide()
	p.hex.Clear()
}

// openBlock lists the records inside the selected block.
func (p *recordsPanel) openBlock() { p.openBlockThen(nil) }

// openBlockThen decompresses the selected block in the background, lists
// the records inside it and then calls then, if not nil.
func (p *recordsPanel) openBlockThen(then func()) {
	if p.rec == nil || !p.openable(p.rec, true) {
		return
	}
	off, kind := p.rec.Offset, p.rec.Kind
	p.openBtn.Disable()
	p.openBtn.SetText("Decompressing…")
	s := p.d.Storage
	p.async(func() {
		in, err := model.ReadInnerRecords(context.Background(), s, off)
		fyne.Do(func() {
			p.openBtn.Enable()
			p.openBtn.SetText("Show records inside")
			if err != nil {
				p.title.SetText(fmt.Sprintf("The %s at %d: %v", kind, off, err))
				return
			}
			if len(p.levels) != 1 {
				return // the user went elsewhere meanwhile
			}
			title := fmt.Sprintf("%s at %d", upperFirst(kind), off)
			if in.Info != nil {
				comp := in.Info.Compression
				if comp == "" {
					comp = "none"
				}
				title += fmt.Sprintf(" (%s, %s uncompressed)", comp, human.Size(in.Size()))
			}
			if in.Err != nil {
				title += " (stopped at damage: " + in.Err.Error() + ")"
			}
			p.levels = append(p.levels, &recordLevel{set: in, title: title, sel: -1, kind: kind})
			p.showLevel()
			if then != nil {
				then()
			}
		})
	})
}

// goBack returns to the file's records.
func (p *recordsPanel) goBack() {
	if len(p.levels) > 1 {
		p.levels = p.levels[:1]
		p.showLevel()
	}
}

func (p *recordsPanel) tableSize() (int, int) {
	return len(p.fields), 4
}

func (p *recordsPanel) newCell() fyne.CanvasObject {
	l := widget.NewLabel("")
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

func (p *recordsPanel) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	l := o.(*widget.Label)
	if p.rec == nil || id.Row >= len(p.fields) {
		l.SetText("")
		return
	}
	f := p.fields[id.Row]
	l.TextStyle = fyne.TextStyle{Monospace: id.Col == 3, Bold: id.Col == 0}
	l.Alignment = fyne.TextAlignLeading
	switch id.Col {
	case 0:
		l.SetText(f.Name)
	case 1:
		l.SetText(f.Type)
	case 2:
		l.SetText(strings.ReplaceAll(f.Value, "\n", `\n`))
	case 3:
		start, end := p.rec.Offset+f.Start, p.rec.Offset+f.End
		l.SetText(fmt.Sprintf("%d..%d (0x%x)", start, end-1, start))
	}
}

// SetLink connects the panel to the other views of its window: selecting
// a message record selects the message everywhere, selecting a chunk moves
// the time cursor to its start, the selected message selects its record
// when it is in the list shown, and the other views can show a message's
// record.
func (p *recordsPanel) SetLink(l link.Link) {
	p.link = l
	l.Actions().ShowMessageRecord = func(chunkPos int64, off uint32) {
		l.SelectTab("Records")
		p.showMessageRecord(chunkPos, off)
	}
	l.OnMessageShown(p.content, p.followMessage) // followed only while shown: playback moves it every frame
}

// linkRecord tells the link about a record the user selected.
func (p *recordsPanel) linkRecord(r *bag.Record) {
	if p.link == nil || p.quiet {
		return
	}
	if in := p.inner(); in != nil {
		if i := in.Find(r.Offset); i >= 0 {
			if e, ok := in.Message(i); ok {
				p.link.SelectMessage(msgref.Ref{T: e.Time.Nanos(), Loc: msgref.Loc{ChunkPos: e.Loc.Block, Offset: e.Loc.Offset, Conn: e.Conn}})
			}
		}
		return
	}
	if b, ok := p.blocks[r.Offset]; ok {
		p.link.SelectChunkStart(r.Offset, b.Start.Nanos())
		return
	}
	// A message outside any chunk: its place is its own record.
	if x := p.link.Index(); x != nil && len(p.blocks) == 0 {
		for _, t := range x.Topics {
			for _, ref := range t.All() {
				if ref.ChunkPos == r.Offset && ref.Offset == 0 {
					p.link.SelectMessage(ref)
					return
				}
			}
		}
	}
}

// followMessage selects the record of a message selected elsewhere when
// it is in the list shown: the chunk holding it (or its own record) among
// the file's records, or its record among the chunk's.
func (p *recordsPanel) followMessage(m msgref.Ref) {
	l := p.level()
	if l == nil {
		return
	}
	i := -1
	if in := p.inner(); in != nil {
		if in.Block != m.ChunkPos {
			if _, ok := p.blocks[m.ChunkPos]; ok {
				// Another chunk's message: open that chunk.
				p.showMessageRecord(m.ChunkPos, m.Offset)
			}
			return
		}
		i = in.Find(int64(m.Offset))
	} else if x, ok := l.set.(*model.FileRecords); ok {
		if k := x.Find(m.ChunkPos); k >= 0 && x.Offset(k) == m.ChunkPos {
			i = k
		}
	}
	if i < 0 || i == l.sel {
		return
	}
	p.quiet = true
	p.list.Select(i)
	p.list.ScrollTo(i)
	p.quiet = false
}

// ShowOffset selects, in the file's records, the record that holds file
// offset off and scrolls the hex view to it. Before the records are
// listed it starts listing them and selects the record when done.
func (p *recordsPanel) ShowOffset(off int64) {
	p.pending, p.hasPending = off, true
	if len(p.levels) == 0 {
		p.ensureList()
		return
	}
	p.applyPending()
}

// applyPending selects the record asked for by ShowOffset, if any.
func (p *recordsPanel) applyPending() {
	if !p.hasPending || len(p.levels) == 0 {
		return
	}
	p.hasPending = false
	x, ok := p.levels[0].set.(*model.FileRecords)
	if !ok || x.Len() == 0 {
		return
	}
	p.levels = p.levels[:1]
	p.levels[0].sel = max(x.Find(p.pending), 0)
	p.showLevel()
	p.hex.ScrollToOffset(p.pending)
}

// showMessageRecord shows the record of the message at (chunkPos, off):
// it opens the chunk at chunkPos and selects the record at off in its
// data, or, for a message outside any chunk, selects its own record.
// Before the records are listed it starts listing them and shows the
// record when done.
func (p *recordsPanel) showMessageRecord(chunkPos int64, off uint32) {
	p.pendingMsg = &msgref.Loc{ChunkPos: chunkPos, Offset: off}
	if len(p.levels) == 0 {
		p.ensureList()
		return
	}
	p.applyPendingMessage()
}

// applyPendingMessage shows the record asked for by showMessageRecord, if
// any.
func (p *recordsPanel) applyPendingMessage() {
	if p.pendingMsg == nil || len(p.levels) == 0 {
		return
	}
	loc := *p.pendingMsg
	p.pendingMsg = nil
	selectInner := func() {
		in := p.inner()
		if in == nil {
			return
		}
		if i := in.Find(int64(loc.Offset)); i >= 0 && p.level().sel != i {
			// The message is selected already (and the time may be
			// past it): selecting its record must not move the time.
			p.level().sel = i
			p.quiet = true
			p.showLevel()
			p.quiet = false
		}
	}
	if in := p.inner(); in != nil && in.Block == loc.ChunkPos {
		selectInner()
		return
	}
	x, ok := p.levels[0].set.(*model.FileRecords)
	if !ok {
		return
	}
	i := x.Find(loc.ChunkPos)
	if i < 0 || x.Offset(i) != loc.ChunkPos {
		// A format whose messages are not placed by file offset (a
		// SQLite row id, say).
		p.title.SetText(fmt.Sprintf("The message's place (%d, %d) is not a record's offset in this file", loc.ChunkPos, loc.Offset))
		return
	}
	p.levels = p.levels[:1]
	p.levels[0].sel = i
	// Selecting the chunk on the way must not move the cursor off the
	// message.
	p.quiet = true
	p.showLevel()
	p.quiet = false
	if p.openable(x.Record(i), true) {
		p.openBlockThen(selectInner)
	}
}

// upperFirst capitalises s's first letter.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
