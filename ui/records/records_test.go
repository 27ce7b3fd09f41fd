package records

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	_ "github.com/bagscope/bagscope/bag/db3" // a format whose records are SQLite pages
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// Recordings of formats that list their records (MCAP here).
const (
	// topicsMCAP has one uncompressed chunk of 13 messages on 2 topics.
	topicsMCAP = "../../../shared/bags/ros2__rosbag2/rosbag2_cpp/test/rosbag2_cpp/bags/topics_and_services.mcap"
	// conformance is the foxglove MCAP conformance files.
	conformance = "../../../shared/bags/foxglove__mcap/tests/conformance/data"
)

// openListed opens a recording whose storage lists its records.
func openListed(t *testing.T, path string) *model.Document {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("shared bag missing in CI: %v", err)
		}
		t.Skipf("skipping (CI never skips this): %v", err)
	}
	d, err := model.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	if model.Lister(d.Storage) == nil {
		t.Fatalf("%s: not a RecordLister storage", path)
	}
	return d
}

// listerRecords lists every top-level record as the storage gives them.
func listerRecords(t *testing.T, d *model.Document) []*bag.Record {
	t.Helper()
	var out []*bag.Record
	if err := model.Lister(d.Storage).Records(context.Background(), 0, func(r *bag.Record) bool {
		out = append(out, r)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	return out
}

// newRecordsTest shows the Records panel of d in a window, with its
// background work synchronous, and lays it out so that it lists the
// records.
func newRecordsTest(t *testing.T, d *model.Document) (*recordsPanel, fyne.Window) {
	t.Helper()
	p := newRecordsPanel(d, model.Lister(d.Storage), uitest.SyncRun)
	w := test.NewTempWindow(t, p.content)
	w.Resize(fyne.NewSize(1400, 800))
	if len(p.levels) == 0 {
		t.Fatalf("the records were not listed when the tab showed:\n%s", test.RenderObjectToMarkup(p.body))
	}
	return p, w
}

// rowOf returns the row of the current list whose record has kind, or -1.
func rowOf(p *recordsPanel, kind string) int {
	set := p.level().set
	for i := range set.Len() {
		if set.Record(i).Kind == kind {
			return i
		}
	}
	return -1
}

func TestRecordsPanelMCAP(t *testing.T) {
	test.NewTempApp(t)
	d := openListed(t, topicsMCAP)
	p, w := newRecordsTest(t, d)
	want := listerRecords(t, d)
	if p.listLen() != len(want) || len(want) < 10 {
		t.Fatalf("the list has %d rows, the file %d records", p.listLen(), len(want))
	}
	if got := uitest.Shown(w); !strings.Contains(got, fmt.Sprintf("%d records", len(want))) || p.back.Visible() {
		t.Errorf("the count is not shown, or Back is:\n%.3000s", got)
	}
	// Each row: offset in decimal, kind, length, summary.
	for i := range 6 {
		p.list.ScrollTo(i)
	}
	got := uitest.Shown(w)
	for _, r := range want[:6] {
		for _, s := range []string{fmt.Sprint(r.Offset), r.Kind, fmt.Sprint(r.Len)} {
			if !strings.Contains(got, ">"+s+"<") {
				t.Errorf("row of the %s at %d does not show %q", r.Kind, r.Offset, s)
			}
		}
	}

	// The header record: its fields fill the table, its bytes the hex view,
	// each field's bytes tinted and named on hover.
	h := rowOf(p, "header")
	p.list.Select(h)
	r := want[h]
	if p.rec == nil || p.rec.Offset != r.Offset || p.openBtn.Visible() {
		t.Fatalf("selected %+v, open button %v", p.rec, p.openBtn.Visible())
	}
	if rows, cols := p.tableSize(); rows != len(r.Fields) || cols != 4 {
		t.Errorf("table %d×%d for %d fields", rows, cols, len(r.Fields))
	}
	got = uitest.Shown(w)
	for _, f := range r.Fields {
		if !strings.Contains(got, f.Name) || !strings.Contains(got, f.Value) {
			t.Errorf("field %s = %s not shown", f.Name, f.Value)
		}
	}
	if !strings.Contains(got, fmt.Sprintf("header record at byte %d (0x%x)", r.Offset, r.Offset)) {
		t.Errorf("title does not say where the record is:\n%.3000s", got)
	}
	if len(uitest.HexSpans(p.hex)) != len(model.FieldSpans(r)) || uitest.HexStart(p.hex) != r.Offset || uitest.HexSize(p.hex) != r.Len {
		t.Fatalf("hex view %d..+%d with %d spans", uitest.HexStart(p.hex), uitest.HexSize(p.hex), len(uitest.HexSpans(p.hex)))
	}
	kinds := map[model.SpanKind]int{}
	for _, s := range uitest.HexSpans(p.hex) {
		kinds[s.Kind]++
	}
	if kinds[model.SpanLength] != 2 || kinds[model.SpanField] != 2 {
		t.Errorf("header spans %+v", uitest.HexSpans(p.hex))
	}
	// The profile field is tinted with the first field hue, and hovering
	// one of its bytes names it.
	prof := r.Fields[2]
	at := r.Offset + prof.Start + 5
	p.hex.MouseIn(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p.hex.CellPosition(at)}})
	if s := p.hex.Status(); !strings.Contains(s, `profile = "ros2"`) || !strings.Contains(s, fmt.Sprintf("byte %d (0x%x)", at, at)) {
		t.Errorf("hovering byte %d says %q", at, s)
	}
	if i := model.SpanAt(uitest.HexSpans(p.hex), at); i < 0 || uitest.HexSpans(p.hex)[i].Kind != model.SpanField || uitest.HexSpans(p.hex)[i].Field != 0 {
		t.Errorf("byte %d is in span %d", at, i)
	}
	lines := uitest.HexLines(p.hex)
	if row := r.Offset / 16 * 16; len(lines) < 2 || !strings.Contains(lines[0], "offset hex") || !strings.HasPrefix(strings.TrimSpace(lines[1]), fmt.Sprintf("%d %04x ", row, row)) {
		t.Errorf("hex lines do not give offsets in decimal and hex: %q", lines)
	}
	// Selecting a field highlights its bytes.
	p.table.Select(widget.TableCellID{Row: 2, Col: 1})
	if s, e := p.hex.Highlight(); s != r.Offset+prof.Start || e != r.Offset+prof.End {
		t.Errorf("field highlight %d..%d", s, e)
	}

	// A chunk opens to its inner records, with offsets into its data.
	c := rowOf(p, "chunk")
	p.list.Select(c)
	chunkOff := p.rec.Offset
	if !p.openBtn.Visible() {
		t.Fatal("no open button for a chunk")
	}
	test.Tap(p.openBtn)
	in := p.inner()
	if len(p.levels) != 2 || !p.back.Visible() || in == nil || in.Block != chunkOff {
		t.Fatalf("levels %d after opening the chunk", len(p.levels))
	}
	recs, data, err := model.Lister(d.Storage).BlockRecords(chunkOff)
	if err != nil || p.listLen() != len(recs) || in.Size() != int64(len(data)) {
		t.Fatalf("%d inner rows, the chunk has %d records (%v)", p.listLen(), len(recs), err)
	}
	m := rowOf(p, "message")
	p.list.Select(m)
	mr := recs[m]
	if p.rec.Offset != mr.Offset || p.openBtn.Visible() {
		t.Fatalf("inner selection %+v", p.rec)
	}
	if got := uitest.Shown(w); !strings.Contains(got, fmt.Sprintf("of the data of the chunk at %d", chunkOff)) || !strings.Contains(got, "log_time") {
		t.Errorf("inner record not shown:\n%.3000s", got)
	}
	// Its bytes are the chunk's uncompressed data: the op byte first.
	b := make([]byte, 1)
	if _, err := uitest.HexReader(p.hex).ReadAt(b, mr.Offset); err != nil || b[0] != mr.Op || uitest.HexStart(p.hex) != mr.Offset {
		t.Errorf("hex view reads %x at %d (%v), want op %x", b, uitest.HexStart(p.hex), err, mr.Op)
	}
	if last := uitest.HexSpans(p.hex)[len(uitest.HexSpans(p.hex))-1]; last.Kind != model.SpanData || last.End != mr.Offset+mr.Len {
		t.Errorf("message's last span %+v", last)
	}

	// Back returns to the file's records with the chunk still selected.
	test.Tap(p.back)
	if len(p.levels) != 1 || p.rec == nil || p.rec.Offset != chunkOff {
		t.Fatalf("after back: levels %d, selected %+v", len(p.levels), p.rec)
	}
}

// TestRecordsConformance lists every record of the foxglove MCAP
// conformance files: as many rows as records, every record's spans inside
// it, and every chunk opened to as many rows as it has records.
func TestRecordsConformance(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(conformance, "*", "*.mcap"))
	if len(files) == 0 {
		t.Skip("shared bags missing")
	}
	test.NewTempApp(t)
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			d := openListed(t, f)
			p, _ := newRecordsTest(t, d)
			want := listerRecords(t, d)
			if p.listLen() != len(want) {
				t.Fatalf("%d rows, %d records", p.listLen(), len(want))
			}
			for i, r := range want {
				p.list.Select(i)
				if p.rec.Offset != r.Offset || uitest.HexSize(p.hex) != r.Len {
					t.Fatalf("row %d shows %+v, want the %s at %d", i, p.rec, r.Kind, r.Offset)
				}
				for _, s := range uitest.HexSpans(p.hex) {
					if s.Start < r.Offset || s.End > r.Offset+r.Len {
						t.Errorf("%s at %d: span %+v outside it", r.Kind, r.Offset, s)
					}
				}
				if r.Kind != "chunk" {
					continue
				}
				recs, _, err := model.Lister(d.Storage).BlockRecords(r.Offset)
				test.Tap(p.openBtn)
				if err != nil || len(p.levels) != 2 || p.listLen() != len(recs) || len(recs) == 0 {
					t.Fatalf("chunk at %d: %d rows, %d records (%v)", r.Offset, p.listLen(), len(recs), err)
				}
				p.goBack()
			}
		})
	}
}

// TestRecordsDamaged lists a file cut short: the cut bytes are a
// damaged record, marked in the list and named in the count.
func TestRecordsDamaged(t *testing.T) {
	if _, err := os.Stat(topicsMCAP); err != nil {
		t.Skip("shared bags missing")
	}
	data, err := os.ReadFile(topicsMCAP)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.mcap")
	if err := os.WriteFile(cut, data[:9000], 0o644); err != nil {
		t.Fatal(err)
	}
	test.NewTempApp(t)
	d := openListed(t, cut)
	p, w := newRecordsTest(t, d)
	last := p.listLen() - 1
	x := p.level().set.(*model.FileRecords)
	if last < 0 || !x.IsDamaged(last) || !strings.Contains(p.count.Text, "1 damaged") || !strings.Contains(p.crumb.Text, "damaged") {
		t.Fatalf("count %q, crumb %q, last damaged %v", p.count.Text, p.crumb.Text, last >= 0 && x.IsDamaged(last))
	}
	p.list.ScrollTo(last)
	p.list.Select(last)
	got := uitest.Shown(w)
	if !strings.Contains(got, "Damaged bytes at byte") || !strings.Contains(got, `color="error" pos="8,8" size="62x19">damaged<`) || !strings.Contains(got, "unreadable bytes  ·  damag") {
		t.Errorf("the damaged record is not marked in the list:\n%s", got)
	}
	// The table says why.
	if rows, _ := p.tableSize(); rows != 1 || p.fields[0].Name != "damage" || !strings.Contains(got, x.Record(last).Err.Error()[:20]) {
		t.Errorf("the table does not say what the damage is: %+v", p.fields)
	}
	if len(uitest.HexSpans(p.hex)) != 1 || uitest.HexSize(p.hex) != x.RecordLen(last) {
		t.Errorf("damaged bytes shown as %+v", uitest.HexSpans(p.hex))
	}
}

// newLinkedRecords builds the Records panel of d on one link, as a window
// does, with the tabs' selection recorded.
func newLinkedRecords(t *testing.T, d *model.Document) (*link.Hub, *recordsPanel, *string) {
	t.Helper()
	test.NewTempApp(t)
	old := link.Background
	link.Background = uitest.SyncRun
	t.Cleanup(func() { link.Background = old })
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	tab := new(string)
	var tabs *container.AppTabs
	// As the window does: the tab is shown, and the views that follow the
	// message only while shown (Records) catch up.
	l.SetTabs(func(name string) bool {
		*tab = name
		for _, it := range tabs.Items {
			if it.Text == name {
				tabs.Select(it)
			}
		}
		return true
	})
	rp := newRecordsPanel(d, model.Lister(d.Storage), uitest.SyncRun)
	rp.SetLink(l)
	l.Actions().ShowRecord = func(off int64) { l.SelectTab("Records"); rp.ShowOffset(off) }
	tabs = container.NewAppTabs(
		container.NewTabItem("Chunk", widget.NewLabel("chunk")), container.NewTabItem("Records", rp.content))
	tabs.OnSelected = func(*container.TabItem) { l.CatchUp(false) }
	w := test.NewTempWindow(t, tabs)
	w.Resize(fyne.NewSize(1400, 800))
	return l, rp, tab
}

// TestRecordsLinksMCAP follows a message through the Records panel: Show in
// Records opens the chunk and selects the message's record; selecting a
// message's record selects the message; the Chunk view's Show in Records
// selects the chunk record.
func TestRecordsLinksMCAP(t *testing.T) {
	d := openListed(t, topicsMCAP)
	l, rp, tab := newLinkedRecords(t, d)
	var ref msgref.Ref
	l.WithIndex(func(x *model.MessageIndex) { ref = x.Topic("/parameter_events").At(3) })
	l.SelectMessage(ref)
	blk := d.Storage.Blocks()[0]

	// Show in Records, before the records are listed: they are listed,
	// the chunk opened and the message's record selected.
	if f := l.Actions().ShowMessageRecord; f != nil {
		f(ref.ChunkPos, ref.Offset)
	}
	if *tab != "Records" || rp.inner() == nil || rp.rec == nil || rp.rec.Offset != int64(ref.Offset) {
		t.Fatalf("Records shows tab %q, level %d, record %+v", *tab, len(rp.levels), rp.rec)
	}
	// Selecting another message elsewhere selects its record in the chunk
	// listed.
	var other msgref.Ref
	l.WithIndex(func(x *model.MessageIndex) { other = x.Topic("/add_two_ints/_service_event").At(2) })
	l.SelectMessage(other)
	if rp.rec == nil || rp.rec.Offset != int64(other.Offset) {
		t.Errorf("the Records panel did not follow the message: %+v", rp.rec)
	}
	// Selecting a message's record selects the message everywhere.
	i := rp.inner().Find(int64(ref.Offset))
	rp.list.Select(i)
	if m, _ := l.Message(); m != ref {
		t.Errorf("selected %+v, want %+v", m, ref)
	}
	// At the file's level, the message selects its chunk without moving
	// the cursor off the message.
	rp.goBack()
	l.SelectMessage(other)
	if rp.rec == nil || rp.rec.Offset != blk.Offset {
		t.Errorf("file level selects %+v, want the chunk at %d", rp.rec, blk.Offset)
	}
	if c, _ := l.Cursor(); c != other.T {
		t.Errorf("cursor %d, the message is at %d", c, other.T)
	}
	// The Chunk view's Show in Records selects the chunk record.
	*tab = ""
	l.Actions().ShowRecord(blk.Offset)
	if *tab != "Records" || rp.rec.Offset != blk.Offset || len(rp.levels) != 1 {
		t.Errorf("Show in Records: tab %q, record %+v", *tab, rp.rec)
	}
}

// TestRecordsUnchunked shows an MCAP file without chunks: a selected
// message selects its own record.
func TestRecordsUnchunked(t *testing.T) {
	d := openListed(t, filepath.Join(conformance, "OneMessage", "OneMessage.mcap"))
	if len(d.Storage.Blocks()) != 0 {
		t.Skip("the file has chunks")
	}
	l, rp, _ := newLinkedRecords(t, d)
	rp.ensureList()
	l.SelectTab("Records") // it follows the message while shown
	var ref msgref.Ref
	l.WithIndex(func(x *model.MessageIndex) { ref = x.Topics[0].At(0) })
	l.SelectMessage(ref)
	if rp.rec == nil || rp.rec.Offset != ref.ChunkPos || rp.rec.Kind != "message" {
		t.Errorf("selected %+v, want the message at %d", rp.rec, ref.ChunkPos)
	}
	rp.list.UnselectAll()
	l.SelectMessage(msgref.Ref{})
	rp.list.Select(rowOf(rp, "message"))
	if m, _ := l.Message(); m != ref {
		t.Errorf("selecting the message's record selected %+v", m)
	}
}

// TestRecordsDB3 lists a SQLite rosbag2 file, whose reader lists its
// pages as records and a page's cells as the records inside it.
func TestRecordsDB3(t *testing.T) {
	test.NewTempApp(t)
	d := openListed(t, strings.TrimSuffix(topicsMCAP, ".mcap")+".db3")
	p, w := newRecordsTest(t, d)
	want := listerRecords(t, d)
	if p.listLen() != len(want) || len(want) < 2 {
		t.Fatalf("%d rows, %d records", p.listLen(), len(want))
	}
	leaf := rowOf(p, "table leaf")
	if leaf < 0 {
		t.Fatal("no table leaf page")
	}
	p.list.Select(leaf)
	if !p.openBtn.Visible() || len(uitest.HexSpans(p.hex)) == 0 {
		t.Fatalf("a table leaf page: open button %v, %d spans", p.openBtn.Visible(), len(uitest.HexSpans(p.hex)))
	}
	test.Tap(p.openBtn)
	recs, _, err := model.Lister(d.Storage).BlockRecords(want[leaf].Offset)
	if err != nil || len(p.levels) != 2 || p.listLen() != len(recs) || len(recs) == 0 {
		t.Fatalf("page opened to %d rows, it has %d cells (%v)", p.listLen(), len(recs), err)
	}
	p.list.Select(0)
	if got := uitest.Shown(w); !strings.Contains(got, "of the data of the table leaf at") {
		t.Errorf("a cell is not shown as the page's:\n%.3000s", got)
	}
	// The header is no page: nothing inside it to list.
	p.goBack()
	p.list.Select(0)
	if p.openBtn.Visible() {
		t.Error("the database header offers to open")
	}
}

// TestRecordsShotsMCAP writes the panel, a byte hovered, to
// $BAGSCOPE_SHOTS/listed-*.png when that variable is set, to look at it by
// eye.
func TestRecordsShotsMCAP(t *testing.T) {
	dir := os.Getenv("BAGSCOPE_SHOTS")
	if dir == "" {
		t.Skip("BAGSCOPE_SHOTS not set")
	}
	test.NewTempApp(t)
	d := openListed(t, topicsMCAP)
	p := newRecordsPanel(d, model.Lister(d.Storage), uitest.SyncRun)
	size := fyne.NewSize(1280, 460)
	render := func(name string) {
		if err := widgets.WritePNG(filepath.Join(dir, "listed-"+name+".png"), widgets.RenderContent(p.content, size)); err != nil {
			t.Fatal(err)
		}
	}
	widgets.RenderContent(p.content, size) // lay out once: lists the records
	p.list.Select(rowOf(p, "chunk"))
	p.hex.MouseIn(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p.hex.CellPosition(p.rec.Offset + 26)}})
	render("chunk")
	test.Tap(p.openBtn)
	p.list.Select(rowOf(p, "message"))
	p.hex.MouseIn(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p.hex.CellPosition(p.rec.Offset + 16)}})
	render("inner")
}
