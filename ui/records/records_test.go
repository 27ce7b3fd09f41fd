package records

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// firstOp returns the first row of the current list with op.
func firstOp(t *testing.T, p *recordsPanel, op ros1.Op) int {
	t.Helper()
	set := p.level().set
	for i := 0; i < set.Len(); i++ {
		if r, err := set.Record(i); err == nil && r.Op == op {
			return i
		}
	}
	t.Fatalf("no %s record", op)
	return -1
}

func TestRecordsPanel(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenSample(t)
	p := newRecordsPanel(d, uitest.SyncRun)
	w := test.NewTempWindow(t, p.content)
	w.Resize(fyne.NewSize(1280, 720))

	n := 0
	for wk := d.Bag.Walk(); wk.Next(); {
		n++
	}
	if p.listLen() != n || n == 0 {
		t.Fatalf("list has %d rows, the bag %d records", p.listLen(), n)
	}
	if !strings.Contains(p.count.Text, "records") || p.back.Visible() {
		t.Errorf("count %q, back visible %v", p.count.Text, p.back.Visible())
	}

	// The bag header is first: its fields fill the table.
	p.list.Select(0)
	if p.rec.Op != ros1.OpBagHeader || len(p.fields) != 4 {
		t.Fatalf("selected %s with %d fields", p.rec.Op, len(p.fields))
	}
	if p.openBtn.Visible() {
		t.Error("open button shown for a bag header")
	}
	uitest.AssertMarkup(t, "records_bagheader.xml", w.Canvas())
	uitest.AssertHexLines(t, "records_bagheader_hex.txt", p.hex)

	// A connection names its topic in the list and table.
	i := firstOp(t, p, ros1.OpConnection)
	p.list.Select(i)
	if !strings.Contains(uitest.Shown(w), "\"/") {
		t.Error("connection topic not shown")
	}

	// A chunk opens to its inner records, with offsets into its data.
	i = firstOp(t, p, ros1.OpChunk)
	p.list.Select(i)
	if !p.openBtn.Visible() {
		t.Fatal("no open button for a chunk")
	}
	chunkOff := p.rec.Offset
	test.Tap(p.openBtn)
	if len(p.levels) != 2 || !p.back.Visible() {
		t.Fatalf("levels %d after opening the chunk", len(p.levels))
	}
	inner := p.level().set.(*model.ChunkRecords)
	if inner.Len() == 0 || inner.Chunk.Offset != chunkOff {
		t.Fatalf("inner records %d of chunk %d", inner.Len(), inner.Chunk.Offset)
	}
	j := firstOp(t, p, ros1.OpMessageData)
	p.list.Select(j)
	if p.rec.Op != ros1.OpMessageData || p.rec.End() > inner.Size() {
		t.Fatalf("inner selection %s at %d", p.rec.Op, p.rec.Offset)
	}
	uitest.AssertMarkup(t, "records_chunk.xml", w.Canvas())
	uitest.AssertHexLines(t, "records_chunk_hex.txt", p.hex)

	// Back returns to the file's records with the chunk still selected.
	test.Tap(p.back)
	if len(p.levels) != 1 || p.rec.Offset != chunkOff {
		t.Fatalf("after back: levels %d, selected %d", len(p.levels), p.rec.Offset)
	}
}

// TestRecordsShots writes the panel in the default dark and light themes
// to $BAGSCOPE_SHOTS/records-*.png when that variable is set, to look at it
// by eye.
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
			p := newRecordsPanel(uitest.OpenSample(t), uitest.SyncRun)
			render := func(name string) {
				img := widgets.RenderContent(p.content, fyne.NewSize(1280, 720))
				if err := widgets.WritePNG(filepath.Join(dir, "records-"+name+"-"+v.name+".png"), img); err != nil {
					t.Fatal(err)
				}
			}
			widgets.RenderContent(p.content, fyne.NewSize(1280, 720)) // lay out once
			p.list.Select(1)
			row := func(i int64) int64 {
				_, start, _, _ := p.hex.Data()
				return (start/widgets.HexCols + i) * widgets.HexCols
			}
			p.hex.MouseIn(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p.hex.CellPosition(row(1) + 9)}})
			render("chunk")
			test.Tap(p.openBtn)
			p.list.Select(firstOp(t, p, ros1.OpMessageData) + 2)
			p.hex.MouseIn(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: p.hex.CellPosition(row(2) + 5)}})
			render("inner")
		})
	}
}

// TestRecordsIndexingStopsWithWindow closes the window's link while the
// record index is being built and checks that the build is cancelled.
func TestRecordsIndexingStopsWithWindow(t *testing.T) {
	test.NewTempApp(t)
	d := uitest.OpenSample(t)
	l := link.NewHub(d, func(f func()) { f() })
	var run func()
	p := newRecordsPanel(d, func(f func()) { run = f }) // held, as if still running
	stopped := make(chan struct{})
	context.AfterFunc(l.Context(), func() { p.Stop(); close(stopped) })
	p.startIndex()
	if run == nil {
		t.Fatal("indexing did not start")
	}
	l.Close()
	<-stopped
	run()
	if len(p.levels) != 0 {
		t.Errorf("the index was built after the window closed: %d levels", len(p.levels))
	}
	if m := test.RenderObjectToMarkup(p.body); !strings.Contains(m, "was cancelled") {
		t.Errorf("the panel does not say the indexing was cancelled:\n%s", m)
	}
}

// TestRecordsMessageLink shows a message's record as the Message view's
// Show in Records asks (Actions.ShowMessageRecord): the chunk is opened and
// the record selected, the message unchanged; selecting another message
// record selects that message everywhere.
func TestRecordsMessageLink(t *testing.T) {
	uitest.NewApp(t)
	d := uitest.OpenSample(t)
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	var x *model.MessageIndex
	l.WithIndex(func(i *model.MessageIndex) { x = i })
	if x == nil {
		t.Fatal("the message index was not built")
	}
	rp := newRecordsPanel(l.Doc(), uitest.SyncRun)
	rp.SetLink(l)
	w := test.NewTempWindow(t, rp.content)
	w.Resize(fyne.NewSize(1100, 600))
	ref := x.Topic("/status").At(3)
	l.SelectMessage(ref)
	l.Actions().ShowMessageRecord(ref.ChunkPos, ref.Offset)
	cr, ok := rp.level().set.(*model.ChunkRecords)
	if !ok || cr.Chunk.Offset != ref.ChunkPos {
		t.Fatalf("Records does not show the chunk at %d", ref.ChunkPos)
	}
	if !rp.hasRec || rp.rec.Offset != int64(ref.Offset) || rp.rec.Op != ros1.OpMessageData {
		t.Fatalf("Records selects %+v, want the record at %d", rp.rec.Pos, ref.Offset)
	}
	if got, _ := l.Message(); got != ref {
		t.Fatalf("showing the record changed the message to %+v", got)
	}
	// Selecting another message record in Records selects that message.
	for i := 0; i < cr.Len(); i++ {
		rec, _ := cr.Record(i)
		if rec.Op != ros1.OpMessageData || rec.Offset == int64(ref.Offset) {
			continue
		}
		rp.list.Select(i)
		got, _ := l.Message()
		var tm *model.TopicMessages
		for _, tt := range x.Topics {
			if tt.IndexOf(got) >= 0 {
				tm = tt
			}
		}
		if tm == nil || got.ChunkPos != ref.ChunkPos || got.Offset != uint32(rec.Offset) {
			t.Fatalf("selecting the record at %d selects %+v, which the index does not list", rec.Offset, got)
		}
		if c, _ := l.Cursor(); c != got.T {
			t.Errorf("cursor %d, message time %d", c, got.T)
		}
		break
	}
}
