package chunk

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// newChunkTestPanel is a chunk panel on the sample ROS 1 bag, in a window.
func newChunkTestPanel(t *testing.T) (*model.Document, *link.Hub, *chunkPanel, fyne.Window) {
	t.Helper()
	uitest.NewApp(t)
	d := uitest.OpenSample(t)
	l := link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	p := makeChunkPanel(l)
	w := test.NewTempWindow(t, p.content)
	w.Resize(fyne.NewSize(1000, 420))
	return d, l, p, w
}

// TestChunkPanel shows a chunk of the sample ROS 1 bag through the seam:
// its facts (those of its chunk info and its chunk record, as the ROS 1
// view showed them), where its record keeps its header and data, its chunk
// info, its counts and records; then selects a message record inside it
// and follows a message selected elsewhere.
func TestChunkPanel(t *testing.T) {
	d, l, p, w := newChunkTestPanel(t)
	if !strings.Contains(uitest.Shown(w), "No chunk chosen") {
		t.Fatal("no empty state before a chunk is chosen")
	}
	test.Tap(uitest.FindShownButton(t, w, "Show the first chunk"))
	ci := d.Bag.ChunkInfos[0]
	if p.detail == nil || p.detail.Block.Offset != ci.ChunkPos || p.records == nil {
		t.Fatalf("first chunk not shown: %+v", p.detail)
	}
	if p.conns.Length() != len(ci.Conns) || !p.prev.Disabled() || p.next.Disabled() {
		t.Errorf("%d connection rows for %d; prev disabled %v, next disabled %v", p.conns.Length(), len(ci.Conns), p.prev.Disabled(), p.next.Disabled())
	}
	ch, err := d.Bag.ChunkHeader(ci)
	if err != nil {
		t.Fatal(err)
	}
	shown := uitest.Shown(w)
	for _, s := range []string{
		fmt.Sprintf("Chunk 1 of %d at byte %s", len(d.Bag.ChunkInfos), model.OffsetText(ci.ChunkPos)),
		"lz4", fmt.Sprintf("(%s bytes)", fmtCount(ch.Size)),
		fmt.Sprintf("data at bytes %d..%d", ch.DataOffset, ch.End()-1),
		fmt.Sprintf("byte %d: ver %d", ci.Offset, ci.Ver),
	} {
		if !strings.Contains(shown, s) {
			t.Errorf("the chunk panel does not show %q", s)
		}
	}
	uitest.AssertMarkup(t, "chunk_first.xml", w.Canvas())

	// Selecting a message record selects that message.
	i := 0
	for ; i < p.records.Len(); i++ {
		if _, ok := p.records.Message(i); ok {
			break
		}
	}
	p.recs.Select(i)
	m, ok := l.Message()
	rec := p.records.Record(i)
	if !ok || m.ChunkPos != ci.ChunkPos || int64(m.Offset) != rec.Offset || rec.Kind != "message data" {
		t.Fatalf("selected %+v, %s record at %d", m, rec.Kind, rec.Offset)
	}
	if c, _ := l.Cursor(); c != m.T {
		t.Errorf("cursor at %d, the record's message at %d", c, m.T)
	}
	// A message selected elsewhere shows its chunk and selects its record.
	x, _ := model.BuildMessageIndex(l.Context(), d.Storage, nil)
	last := x.Topics[0].At(x.Topics[0].Len() - 1)
	l.SelectMessage(last)
	if p.detail.Block.Offset != last.ChunkPos {
		t.Fatalf("shows chunk %d, message is in %d", p.detail.Block.Offset, last.ChunkPos)
	}
	if r := p.records.Record(p.selRow); r.Offset != int64(last.Offset) {
		t.Errorf("selected record at %d, message at %d", r.Offset, last.Offset)
	}
}

// fmtCount writes n with thousands separators, as the panel does.
func fmtCount(n uint32) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestChunkPanelTopicFilter selects a topic: the chunk's record list keeps
// that topic's message records and its connection record only, a message
// of it stays selectable, and "Show all" clears the selection.
func TestChunkPanelTopicFilter(t *testing.T) {
	d, l, p, _ := newChunkTestPanel(t)
	ci := d.Bag.ChunkInfos[0]
	p.show(ci.ChunkPos, -1)
	all := p.recs.Length()
	if all != p.records.Len() || p.showAll.Visible() {
		t.Fatalf("%d rows of %d records before filtering; Show all visible %v", all, p.records.Len(), p.showAll.Visible())
	}
	want := 0
	for _, cc := range ci.Conns {
		if d.Bag.Connection(cc.Conn).Topic == "/imu" {
			want += int(cc.Count)
		}
	}
	l.SetTopics([]string{"/imu"})
	if n := p.recs.Length(); n != want+1 {
		t.Fatalf("%d rows for /imu, which has %d messages and a connection record in the chunk (of %d records)", n, want, all)
	}
	if !p.showAll.Visible() || !strings.Contains(p.recState.Text, "/imu (the topic selection)") {
		t.Errorf("state %q, Show all visible %v", p.recState.Text, p.showAll.Visible())
	}
	for i := range p.recs.Length() {
		cells := p.recCells(i)
		if cells[1] == "message data" && !strings.HasPrefix(cells[2], "/imu ") || cells[1] == "connection" && !strings.Contains(cells[2], "/imu") {
			t.Fatalf("row %d is %v", i, cells)
		}
	}
	// The last /imu row selects its message.
	last := p.recs.Length() - 1
	p.recs.Select(last)
	rec := p.records.Record(p.rows[last])
	if m, ok := l.Message(); !ok || int64(m.Offset) != rec.Offset {
		t.Fatalf("selected %+v, row's record at %d", m, rec.Offset)
	}
	test.Tap(p.showAll)
	if len(l.Topics()) != 0 || p.recs.Length() != all || p.showAll.Visible() {
		t.Errorf("after Show all: topics %v, %d rows of %d", l.Topics(), p.recs.Length(), all)
	}
}
