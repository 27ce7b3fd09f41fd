package message

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/mcap/mcaptest"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// TestMessagePanelMarksChunkFoundByRead: a chunk that only the window's
// read of every message finds damaged (an MCAP whose first chunk is
// overwritten near its end, its summary intact) is not known when a
// message of it is first shown. Once that read reports its loss to the
// window (link.ReportReadLoss), the message shown is read again and marked
// "From a damaged chunk", and its tick is marked: every suspect the window
// knows of marks the Message view, from any read. A message of an intact
// chunk stays unmarked. The oracle for which chunk is damaged is the
// damaged copy's offset, as mcaptest wrote it.
func TestMessagePanelMarksChunkFoundByRead(t *testing.T) {
	uitest.NewApp(t)
	src, err := bag.OpenFile(uitest.SharedBags(t, "facontidavide__PlotJuggler/datasamples/tilt_laser.bag"))
	if err != nil {
		t.Fatal(err)
	}
	_, damaged, chunk, err := mcaptest.ChunkDamaged(src, t.TempDir())
	src.Close()
	if err != nil {
		t.Fatal(err)
	}
	d := uitest.OpenDoc(t, damaged)
	var inChunk, other *msgref.Ref
	it := d.Storage.Messages(bag.MessageFilter{})
	for it.Next() {
		m := it.Message()
		ref := msgref.Ref{T: m.Time.Nanos(), Loc: msgref.Loc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}}
		switch {
		case m.Loc.Block == chunk && inChunk == nil:
			inChunk = &ref
		case m.Loc.Block != chunk && other == nil:
			other = &ref
		}
	}
	it.Close()
	if inChunk == nil || other == nil {
		t.Fatalf("no message read from the damaged chunk (%v) or from another (%v)", inChunk, other)
	}
	l := link.NewHub(d, link.Background)
	t.Cleanup(l.Close)
	var ticks []link.Mark
	l.OnMarks(func(ms []link.Mark) {
		for _, m := range ms {
			if m.Kind == link.Suspect {
				ticks = append(ticks, m)
			}
		}
	})
	p := newMessageView(l)
	w := test.NewTempWindow(t, p.content)
	w.Resize(fyne.NewSize(1100, 620))
	l.SelectMessage(*inChunk)
	if p.msg == nil || p.msg.Damaged != "" || len(ticks) != 0 {
		t.Fatalf("before the read, opening knows of no damage, yet the message is marked: %+v, ticks %v", p.msg, ticks)
	}
	_, loss, err := stats.CountBytes(context.Background(), d.Storage, nil)
	if err != nil || len(loss.Skipped) == 0 {
		t.Fatalf("the read found no damage: %v, %+v", err, loss)
	}
	l.ReportReadLoss(loss)
	if p.msg == nil || p.msg.Damaged == "" {
		t.Fatalf("after the read, the message shown from the damaged chunk is not marked: %+v", p.msg)
	}
	if got := uitest.ShownLines(w); p.problem.Hidden || !strings.Contains(got, "From a damaged chunk") || !strings.Contains(p.problem.Text, "chunk at "+strconv.FormatInt(chunk, 10)) {
		t.Errorf("the message is shown without its mark:\n%s", got)
	}
	topic := l.TopicName(*inChunk)
	found := false
	for _, m := range ticks {
		found = found || m.Topic == topic && m.T == inChunk.T
	}
	if !found {
		t.Errorf("its tick (%s at %d) is not marked: %v", topic, inChunk.T, ticks)
	}
	l.SelectMessage(*other)
	if p.msg == nil || p.msg.Damaged != "" || p.msg.Suspect != "" {
		t.Errorf("a message of an intact chunk is marked: %+v", p.msg)
	}
}
