package records

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// fieldOf returns the value of the selected record's field name, or "".
func fieldOf(p *recordsPanel, name string) string {
	for _, f := range p.fields {
		if f.Name == name {
			return f.Value
		}
	}
	return ""
}

// TestRecordsPanel shows the sample ROS 1 bag's records through the seam,
// as the ROS 1 view did: every record of the file in byte order (checked
// against the bag's own walk), the bag header's fields with their types,
// a connection's header field by field, a chunk opened to its records
// with offsets into its data, and Back.
func TestRecordsPanel(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenSample(t)
	p := newRecordsPanel(d, model.Lister(d.Storage), uitest.SyncRun)
	w := test.NewTempWindow(t, p.content)
	w.Resize(fyne.NewSize(1280, 720))

	// The version line and then every record the bag walks.
	var offs []int64
	for wk := d.Bag.Walk(); wk.Next(); {
		offs = append(offs, wk.Record().Offset)
	}
	x := p.levels[0].set.(*model.FileRecords)
	if x.Len() != len(offs)+1 || len(offs) == 0 || x.Offset(0) != 0 {
		t.Fatalf("the list has %d rows, the bag %d records and its version line", x.Len(), len(offs))
	}
	for i, off := range offs {
		if x.Offset(i+1) != off {
			t.Fatalf("row %d at %d, the bag's record %d at %d", i+1, x.Offset(i+1), i, off)
		}
	}
	if !strings.Contains(p.count.Text, "records") || p.back.Visible() {
		t.Errorf("count %q, back visible %v", p.count.Text, p.back.Visible())
	}

	// The bag header: its fields, typed, fill the table.
	p.list.Select(rowOf(p, "bag header"))
	types := map[string]string{}
	for _, f := range p.fields {
		types[f.Name] = f.Type
	}
	for name, want := range map[string]string{"header_len": "uint32", "op": "op", "index_pos": "uint64", "conn_count": "uint32", "chunk_count": "uint32", "data_len": "uint32"} {
		if types[name] != want {
			t.Errorf("bag header field %s has type %q, want %q", name, types[name], want)
		}
	}
	if fieldOf(p, "index_pos") != fmt.Sprint(d.Bag.Header.IndexPos) || p.openBtn.Visible() {
		t.Errorf("index_pos %q, want %d; open button shown %v", fieldOf(p, "index_pos"), d.Bag.Header.IndexPos, p.openBtn.Visible())
	}
	uitest.AssertMarkup(t, "records_bagheader.xml", w.Canvas())
	uitest.AssertHexLines(t, "records_bagheader_hex.txt", p.hex)
	// Each header field's 4-byte length is tinted as framing, apart from
	// its name and value; op, header_len and data_len are framing.
	kinds := map[model.SpanKind]int{}
	for _, s := range uitest.HexSpans(p.hex) {
		kinds[s.Kind]++
	}
	if kinds[model.SpanFieldLength] != 4 || kinds[model.SpanField] != 3 || kinds[model.SpanLength] != 3 {
		t.Errorf("spans %+v: want 4 field lengths, 3 fields and 3 framing", uitest.HexSpans(p.hex))
	}

	// A connection names its topic in the list and its header field by
	// field in the table.
	p.list.Select(rowOf(p, "connection"))
	if topic := fieldOf(p, "connection topic"); !strings.HasPrefix(topic, `"/`) || fieldOf(p, "connection md5sum") == "" || !strings.Contains(uitest.Shown(w), strings.Trim(topic, `"`)) {
		t.Errorf("connection topic %q not shown", topic)
	}

	// A chunk opens to its inner records, with offsets into its data.
	p.list.Select(rowOf(p, "chunk"))
	if !p.openBtn.Visible() {
		t.Fatal("no open button for a chunk")
	}
	chunkOff := p.rec.Offset
	test.Tap(p.openBtn)
	in := p.inner()
	if len(p.levels) != 2 || !p.back.Visible() || in == nil || in.Block != chunkOff || in.Len() == 0 {
		t.Fatalf("levels %d after opening the chunk at %d", len(p.levels), chunkOff)
	}
	j := rowOf(p, "message data")
	p.list.Select(j)
	if p.rec.Kind != "message data" || p.rec.Offset+p.rec.Len > in.Size() {
		t.Fatalf("inner selection %s at %d", p.rec.Kind, p.rec.Offset)
	}
	if _, ok := in.Message(j); !ok {
		t.Errorf("the message data record at %d is not a message of the chunk's index", p.rec.Offset)
	}
	uitest.AssertMarkup(t, "records_chunk.xml", w.Canvas())
	uitest.AssertHexLines(t, "records_chunk_hex.txt", p.hex)

	// Back returns to the file's records with the chunk still selected.
	test.Tap(p.back)
	if len(p.levels) != 1 || p.rec == nil || p.rec.Offset != chunkOff {
		t.Fatalf("after back: levels %d, selected %+v", len(p.levels), p.rec)
	}
}

// TestRecordsShots writes the panel of the sample ROS 1 bag in the
// default dark and light themes to $BAGSCOPE_SHOTS/records-*.png when that
// variable is set, to look at it by eye.
func TestRecordsShots(t *testing.T) {
	dir := os.Getenv("BAGSCOPE_SHOTS")
	if dir == "" {
		t.Skip("BAGSCOPE_SHOTS not set")
	}
	for _, v := range []struct {
		name string
		th   fyne.Theme
	}{{"dark", uitest.VariantTheme{Theme: theme.DefaultTheme(), V: theme.VariantDark}}, {"light", uitest.VariantTheme{Theme: theme.DefaultTheme(), V: theme.VariantLight}}} {
		t.Run(v.name, func(t *testing.T) {
			a := test.NewTempApp(t)
			a.Settings().SetTheme(v.th)
			d := uitest.OpenSample(t)
			p := newRecordsPanel(d, model.Lister(d.Storage), uitest.SyncRun)
			render := func(name string) {
				img := widgets.RenderContent(p.content, fyne.NewSize(1280, 720))
				if err := widgets.WritePNG(filepath.Join(dir, "records-"+name+"-"+v.name+".png"), img); err != nil {
					t.Fatal(err)
				}
			}
			widgets.RenderContent(p.content, fyne.NewSize(1280, 720)) // lay out once
			p.list.Select(rowOf(p, "chunk"))
			p.hex.MouseIn(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p.hex.CellPosition(p.rec.Offset + 9)}})
			render("chunk")
			test.Tap(p.openBtn)
			p.list.Select(rowOf(p, "message data") + 2)
			p.hex.MouseIn(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p.hex.CellPosition(p.rec.Offset + 21)}})
			render("inner")
		})
	}
}

// TestRecordsListingStopsWithWindow closes the window's link while the
// records are being listed and checks that the listing is cancelled.
func TestRecordsListingStopsWithWindow(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenSample(t)
	l := link.NewHub(d, func(f func()) { f() })
	var run func()
	p := newRecordsPanel(d, model.Lister(d.Storage), func(f func()) { run = f }) // held, as if still running
	stopped := make(chan struct{})
	context.AfterFunc(l.Context(), func() { p.Stop(); close(stopped) })
	p.startList()
	if run == nil {
		t.Fatal("listing did not start")
	}
	l.Close()
	<-stopped
	run()
	if len(p.levels) != 0 {
		t.Errorf("the records were listed after the window closed: %d levels", len(p.levels))
	}
	if m := test.RenderObjectToMarkup(p.body); !strings.Contains(m, "was cancelled") {
		t.Errorf("the panel does not say the listing was cancelled:\n%s", m)
	}
}

// TestRecordsMessageLink shows a ROS 1 message's record as the Message
// view's Show in Records asks (Actions.ShowMessageRecord): the chunk is
// opened and the record selected, the message unchanged; selecting another
// message data record selects that message everywhere, and the cursor
// moves to it.
func TestRecordsMessageLink(t *testing.T) {
	d := uitest.OpenSample(t)
	l, rp, _ := newLinkedRecords(t, d)
	var x *model.MessageIndex
	l.WithIndex(func(i *model.MessageIndex) { x = i })
	if x == nil {
		t.Fatal("the message index was not built")
	}
	ref := x.Topic("/status").At(3)
	l.SelectMessage(ref)
	l.Actions().ShowMessageRecord(ref.ChunkPos, ref.Offset)
	in := rp.inner()
	if in == nil || in.Block != ref.ChunkPos {
		t.Fatalf("Records does not show the chunk at %d", ref.ChunkPos)
	}
	if rp.rec == nil || rp.rec.Offset != int64(ref.Offset) || rp.rec.Kind != "message data" {
		t.Fatalf("Records selects %+v, want the record at %d", rp.rec, ref.Offset)
	}
	if got, _ := l.Message(); got != ref {
		t.Fatalf("showing the record changed the message to %+v", got)
	}
	for i := range in.Len() {
		r := in.Record(i)
		if r.Kind != "message data" || r.Offset == int64(ref.Offset) {
			continue
		}
		rp.list.Select(i)
		got, _ := l.Message()
		found := false
		for _, tm := range x.Topics {
			found = found || tm.IndexOf(got) >= 0
		}
		if !found || got.ChunkPos != ref.ChunkPos || got.Offset != uint32(r.Offset) {
			t.Fatalf("selecting the record at %d selects %+v, which the index does not list", r.Offset, got)
		}
		if c, _ := l.Cursor(); c != got.T {
			t.Errorf("cursor %d, message time %d", c, got.T)
		}
		break
	}
}

// TestRecordsFollowIntoAnotherChunk selects, while a chunk's records are
// listed, a message of another chunk: Records opens that chunk and
// selects its record, as the ROS 1 view did.
func TestRecordsFollowIntoAnotherChunk(t *testing.T) {
	d := uitest.OpenSample(t)
	if len(d.Bag.ChunkInfos) < 2 {
		t.Skip("the sample has one chunk")
	}
	l, rp, _ := newLinkedRecords(t, d)
	l.SelectTab("Records")
	var imu *model.TopicMessages
	l.WithIndex(func(x *model.MessageIndex) { imu = x.Topic("/imu") })
	first := imu.At(0)
	l.Actions().ShowMessageRecord(first.ChunkPos, first.Offset)
	var later = first
	for i := range imu.Len() {
		if m := imu.At(i); m.ChunkPos != first.ChunkPos {
			later = m
			break
		}
	}
	if later.ChunkPos == first.ChunkPos {
		t.Fatal("/imu has messages in one chunk only")
	}
	l.SelectMessage(later)
	if in := rp.inner(); in == nil || in.Block != later.ChunkPos || rp.rec == nil || rp.rec.Offset != int64(later.Offset) {
		t.Fatalf("Records shows %+v; want the record at %d of the chunk at %d", rp.rec, later.Offset, later.ChunkPos)
	}
	if got, _ := l.Message(); got != later {
		t.Errorf("following changed the message to %+v", got)
	}
}

// TestRecordsTitlesWhole lays the panel out in the room a 1024x640
// window leaves the tab and selects the sample's chunk, then a message
// inside it: the detail's title and the list's heading show whole (on
// two lines where one is too short), never cut with "…".
func TestRecordsTitlesWhole(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenSample(t)
	p := newRecordsPanel(d, model.Lister(d.Storage), uitest.SyncRun)
	w := test.NewTempWindow(t, p.content)
	w.Resize(fyne.NewSize(1024, 400))
	whole := func(what string, l *widget.Label) {
		t.Helper()
		var parts []string
		for _, o := range test.LaidOutObjects(l) {
			if tx, ok := o.(*canvas.Text); ok && tx.Visible() && tx.Text != "" {
				parts = append(parts, strings.TrimSpace(tx.Text))
			}
		}
		if got := strings.Join(parts, " "); got != l.Text {
			t.Errorf("the %s shows %q of %q", what, got, l.Text)
		}
	}
	p.list.Select(rowOf(p, "chunk"))
	whole("chunk's title", p.title)
	whole("heading", p.crumb)
	test.Tap(p.openBtn)
	p.list.Select(rowOf(p, "message data"))
	whole("inner message's title", p.title)
	whole("chunk's heading", p.crumb)
	if dir := os.Getenv("BAGSCOPE_SHOTS"); dir != "" {
		if err := widgets.WritePNG(filepath.Join(dir, "records-titles-1024.png"), widgets.RenderContent(p.content, fyne.NewSize(1024, 400))); err != nil {
			t.Fatal(err)
		}
	}
}
