package records

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

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

// recordLevel is one list of records: the file's, or a chunk's.
type recordLevel struct {
	set   model.RecordSet
	title string
	sel   int // selected row, or -1
}

// recordsPanel lists every record in byte order; the selected record's
// header is shown as a table and its bytes in a hex view. A chunk record
// can be opened to list the records inside it.
type recordsPanel struct {
	d       *model.Document
	content fyne.CanvasObject
	async   func(func())

	levels []*recordLevel // levels[0] is the file; more are opened chunks

	body     *fyne.Container // loading state or the split
	split    fyne.CanvasObject
	list     *widget.List
	crumb    *widget.Label
	back     *widget.Button
	count    *widget.Label
	table    *widget.Table
	fields   ros1.Header
	fieldAt  int64 // offset of the header bytes of the selected record
	title    *widget.Label
	openBtn  *widget.Button
	hex      *widgets.HexView
	rec      ros1.Record
	hasRec   bool
	progress *widget.ProgressBar
	stage    *widget.Label
	cancel   context.CancelFunc
	mu       sync.Mutex // guards cancel

	// pending is a file offset to select once the index is built
	// (ShowOffset).
	pending    int64
	hasPending bool

	// link, when set, hears of the selected message or time (see
	// records_message.go); pendingMsg is a message record to show once the
	// index is built.
	link       link.Link
	pendingMsg *msgref.Loc
	quiet      bool // selecting without telling the link
}

// newRecordsTab is the "Records" tab of a bag window, and its panel.
func newRecordsTab(d *model.Document) (*container.TabItem, *recordsPanel) {
	p := newRecordsPanel(d, func(f func()) { link.Background(f) })
	return container.NewTabItemWithIcon("Records", theme.ListIcon(), p.content), p
}

// Column widths of the record list.
var recordColumnWidths = []float32{92, 124, 72, 84}

// recordColumns lays out fixed-width columns and gives the last object the
// rest of the width.
type recordColumns struct{}

func (recordColumns) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var h float32
	for _, o := range objs {
		h = max(h, o.MinSize().Height)
	}
	w := float32(0)
	for _, cw := range recordColumnWidths {
		w += cw
	}
	return fyne.NewSize(w+120, h)
}

func (recordColumns) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	x := float32(0)
	for i, o := range objs {
		w := size.Width - x
		if i < len(recordColumnWidths) {
			w = recordColumnWidths[i]
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(max(w, 0), size.Height))
		x += w
	}
}

func newRecordsPanel(d *model.Document, async func(func())) *recordsPanel {
	p := &recordsPanel{d: d, async: async}
	p.list = widget.NewList(p.listLen, p.newRow, p.updateRow)
	p.list.OnSelected = p.selectRow
	p.crumb = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.crumb.Truncation = fyne.TextTruncateEllipsis
	p.back = widget.NewButtonWithIcon("File records", theme.NavigateBackIcon(), p.goBack)
	p.back.Importance = widget.LowImportance
	p.count = widget.NewLabel("")

	head := container.New(recordColumns{},
		widgets.ColTitle("Offset", fyne.TextAlignTrailing), widgets.ColTitle("Op", fyne.TextAlignLeading),
		widgets.ColTitle("Header", fyne.TextAlignTrailing), widgets.ColTitle("Data", fyne.TextAlignTrailing),
		widgets.ColTitle("Key fields", fyne.TextAlignLeading))
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
			o.(*widget.Label).SetText([]string{"Field", "Kind", "Value", "Offset"}[id.Col])
		}
	}
	for i, w := range []float32{120, 72, 420, 90} {
		p.table.SetColumnWidth(i, w)
	}
	p.table.OnSelected = func(id widget.TableCellID) {
		if id.Row >= 0 && id.Row < len(p.fields) {
			p.hex.ScrollToOffset(p.fieldAt + int64(p.fields[id.Row].Offset))
		}
	}
	p.title = widget.NewLabelWithStyle("Select a record", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.title.Truncation = fyne.TextTruncateEllipsis
	p.openBtn = widget.NewButtonWithIcon("Show records inside", theme.FolderOpenIcon(), p.openChunk)
	p.openBtn.Importance = widget.HighImportance
	p.openBtn.Hide()
	p.hex = widgets.NewHexView()

	hexPane := container.NewBorder(nil, hexLegend(), nil, nil, p.hex)
	vs := container.NewVSplit(p.table, hexPane)
	vs.Offset = 0.3
	widgets.RememberSplit(vs, "records.detail")
	right := container.NewBorder(container.NewBorder(nil, nil, nil, p.openBtn, p.title), nil, nil, nil, vs)
	hs := container.NewHSplit(left, right)
	hs.Offset = 0.42
	widgets.RememberSplit(hs, "records")
	p.split = hs

	p.progress = widget.NewProgressBar()
	p.stage = widget.NewLabelWithStyle("Indexing records…", fyne.TextAlignCenter, fyne.TextStyle{})
	p.body = container.NewStack()
	if d.Bag == nil {
		p.body.Objects = []fyne.CanvasObject{widgets.NotForFormat(d, "Records")}
	}
	p.content = widgets.NewStartOnShow(p.body, p.ensureIndex)
	return p
}

// hexLegend explains the hex view's tints.
func hexLegend() fyne.CanvasObject {
	v := fyne.CurrentApp().Settings().ThemeVariant()
	item := widgets.LegendItem
	objs := []fyne.CanvasObject{item(widgets.SpanColor(model.Span{Kind: model.SpanLength}, v), "length fields")}
	for i := range 3 {
		objs = append(objs, item(widgets.SpanColor(model.Span{Kind: model.SpanField, Field: i}, v), fmt.Sprintf("header field %d", i+1)))
	}
	objs = append(objs, item(widgets.SpanColor(model.Span{Kind: model.SpanData}, v), "data"))
	return container.NewHBox(objs...)
}

// startIndex builds the record index in the background, showing progress
// with a Cancel button.
func (p *recordsPanel) startIndex() {
	ctx, cancel := context.WithCancel(context.Background())
	p.mu.Lock()
	p.cancel = cancel
	p.mu.Unlock()
	p.progress.SetValue(0)
	stop := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() {
		p.mu.Lock()
		if p.cancel != nil {
			p.cancel()
		}
		p.mu.Unlock()
	})
	p.body.Objects = []fyne.CanvasObject{widgets.NewCentered(420, container.NewVBox(p.stage, p.progress, container.NewCenter(stop)))}
	p.body.Refresh()
	b := p.d.Bag
	p.async(func() {
		var last time.Time
		x, err := model.BuildRecordIndex(ctx, b, func(done, total int64, _ string) {
			if now := time.Now(); now.Sub(last) > 100*time.Millisecond && total > 0 {
				last = now
				f := float64(done) / float64(total)
				fyne.Do(func() { p.progress.SetValue(f) })
			}
		})
		cancel()
		fyne.Do(func() { p.indexed(x, err) })
	})
}

// indexed shows the record index, or why it is missing.
func (p *recordsPanel) indexed(x *model.RecordIndex, err error) {
	p.mu.Lock()
	p.cancel = nil
	p.mu.Unlock()
	if err != nil {
		msg := "Indexing the records failed: " + err.Error()
		if errors.Is(err, context.Canceled) {
			msg = "Indexing the records was cancelled."
		}
		retry := widget.NewButtonWithIcon("Index records", theme.ViewRefreshIcon(), p.startIndex)
		p.body.Objects = []fyne.CanvasObject{widgets.NewCentered(520, container.NewVBox(
			widget.NewLabelWithStyle(msg, fyne.TextAlignCenter, fyne.TextStyle{}), container.NewCenter(retry)))}
		p.body.Refresh()
		return
	}
	title := p.d.Name
	switch {
	case x.Err != nil && len(x.Skipped)+len(x.Damaged) == 0:
		title += " (stopped at a damaged record: " + x.Err.Error() + ")"
	case x.Err != nil:
		title += fmt.Sprintf(" (%d damaged, %d byte ranges skipped; first: %v)", len(x.Damaged), len(x.Skipped), x.Err)
	}
	p.levels = []*recordLevel{{set: x, title: title, sel: -1}}
	p.body.Objects = []fyne.CanvasObject{p.split}
	p.body.Refresh()
	p.showLevel()
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

// showLevel shows the current level's records and selection.
func (p *recordsPanel) showLevel() {
	l := p.level()
	p.crumb.SetText(l.title)
	if len(p.levels) > 1 {
		p.back.Show()
	} else {
		p.back.Hide()
	}
	p.count.SetText(human.Plural(uint64(l.set.Len()), "record"))
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
	op := widget.NewLabel("")
	op.Truncation = fyne.TextTruncateEllipsis
	sum := widget.NewLabel("")
	sum.Truncation = fyne.TextTruncateEllipsis
	return container.New(recordColumns{}, num(), op, num(), num(), sum)
}

func (p *recordsPanel) updateRow(i widget.ListItemID, o fyne.CanvasObject) {
	labels := o.(*fyne.Container).Objects
	set := func(k int, s string) { labels[k].(*widget.Label).SetText(s) }
	l := p.level()
	if l == nil || i >= l.set.Len() {
		return
	}
	rec, err := l.set.Record(i)
	set(0, fmt.Sprint(rec.Offset))
	if err != nil {
		set(1, "?")
		set(2, "")
		set(3, "")
		set(4, err.Error())
		return
	}
	opl := labels[1].(*widget.Label)
	opl.TextStyle.Bold = rec.Op == ros1.OpChunk
	opl.Text = rec.Op.String()
	opl.Refresh()
	set(2, fmt.Sprint(rec.HeaderLen))
	set(3, fmt.Sprint(rec.DataLen))
	summary := model.RecordSummary(&rec, p.d.Bag)
	if x, ok := l.set.(*model.RecordIndex); ok && x.Damaged[i] != nil {
		summary += " · damaged: " + x.Damaged[i].Error()
	}
	set(4, summary)
}

// selectRow shows record i's header and bytes.
func (p *recordsPanel) selectRow(i widget.ListItemID) {
	l := p.level()
	if l == nil || i >= l.set.Len() {
		return
	}
	l.sel = i
	rec, err := l.set.Record(i)
	if err != nil {
		p.clearSelection()
		p.title.SetText(fmt.Sprintf("Record at %d: %v", rec.Offset, err))
		return
	}
	p.rec, p.hasRec = rec, true
	p.fields = rec.Header
	p.fieldAt = rec.HeaderOffset
	p.table.UnselectAll()
	p.table.Refresh()
	p.table.ScrollToTop()
	where := ""
	if len(p.levels) > 1 {
		where = " of the chunk's data"
	}
	p.title.SetText(fmt.Sprintf("%s record at %d%s: header %d bytes, data %d bytes", rec.Op, rec.Offset, where, rec.HeaderLen, rec.DataLen))
	p.hex.SetData(l.set.ReaderAt(), rec.Offset, rec.Size(), model.RecordSpans(&rec))
	p.linkRecord(&rec)
	if rec.Op == ros1.OpChunk && len(p.levels) == 1 {
		p.openBtn.Enable()
		p.openBtn.SetText("Show records inside")
		p.openBtn.Show()
	} else {
		p.openBtn.Hide()
	}
}

func (p *recordsPanel) clearSelection() {
	p.hasRec = false
	p.fields = nil
	p.table.Refresh()
	p.title.SetText("Select a record to see its header and bytes")
	if len(p.levels) > 1 {
		p.title.SetText("Offsets are into the chunk's uncompressed data. Select a record to see its header and bytes")
	}
	p.openBtn.Hide()
	p.hex.Clear()
}

// openChunk decompresses the selected chunk in the background and lists
// the records inside it.
func (p *recordsPanel) openChunk() { p.openChunkThen(nil) }

// openChunkThen is openChunk, calling then once the chunk's records are
// listed.
func (p *recordsPanel) openChunkThen(then func()) {
	if !p.hasRec || p.rec.Op != ros1.OpChunk {
		return
	}
	off := p.rec.Offset
	p.openBtn.Disable()
	p.openBtn.SetText("Decompressing…")
	b := p.d.Bag
	p.async(func() {
		cr, err := model.ReadChunkRecords(context.Background(), b, off)
		fyne.Do(func() {
			p.openBtn.Enable()
			p.openBtn.SetText("Show records inside")
			if err != nil {
				p.title.SetText(fmt.Sprintf("Chunk at %d: %v", off, err))
				return
			}
			title := fmt.Sprintf("Chunk %d (%s)", off, cr.Chunk.Compression)
			if cr.Err != nil {
				title += " (stopped at a damaged record: " + cr.Err.Error() + ")"
			}
			p.levels = append(p.levels, &recordLevel{set: cr, title: title, sel: -1})
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
		p.levels = p.levels[:len(p.levels)-1]
		p.showLevel()
	}
}

func (p *recordsPanel) tableSize() (int, int) { return len(p.fields), 4 }

func (p *recordsPanel) newCell() fyne.CanvasObject {
	l := widget.NewLabel("")
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

func (p *recordsPanel) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	l := o.(*widget.Label)
	if id.Row >= len(p.fields) {
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
		l.SetText(model.KindName(f.Kind()))
	case 2:
		l.SetText(model.FieldText(f))
	case 3:
		l.Alignment = fyne.TextAlignTrailing
		l.SetText(fmt.Sprint(p.fieldAt + int64(f.Offset)))
	}
}
