package chunk

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// openListed opens a shared recording whose storage lists its records.
func openListed(t *testing.T, rel string) *model.Document {
	t.Helper()
	d := uitest.OpenShared(t, rel)
	if model.Lister(d.Storage) == nil {
		t.Fatalf("%s: not a RecordLister storage", rel)
	}
	return d
}

// newListedChunkTest builds the Chunk panel of d on a link, as a window
// does, with the tab shown and the records asked for (the Records view's
// action) recorded.
func newListedChunkTest(t *testing.T, d *model.Document) (l *link.Hub, cp *chunkPanel, tab *string, shownRecord *int64) {
	t.Helper()
	uitest.NewApp(t)
	l = link.NewHub(d, uitest.SyncRun)
	t.Cleanup(l.Close)
	tab, shownRecord = new(string), new(int64)
	*shownRecord = -1
	l.SetTabs(func(name string) bool { *tab = name; return true })
	l.Actions().ShowRecord = func(off int64) { l.SelectTab("Records"); *shownRecord = off }
	cp = makeChunkPanel(l)
	tabs := container.NewAppTabs(
		container.NewTabItem("Chunk", cp.content), container.NewTabItem("Records", widget.NewLabel("records")))
	w := test.NewTempWindow(t, tabs)
	w.Resize(fyne.NewSize(1400, 800))
	return l, cp, tab, shownRecord
}

// TestListedChunkLinks follows messages in the Chunk panel of an MCAP
// file: it shows the block of the selected message with its record
// selected, filters by the topic selection, follows a message selected
// elsewhere, sends Show in Records to the Records view's action and shows
// a block asked for by the timeline's chunk lane.
func TestListedChunkLinks(t *testing.T) {
	d := openListed(t, topicsMCAP)
	l, cp, tab, shownRecord := newListedChunkTest(t, d)
	var ref, other msgref.Ref
	l.WithIndex(func(x *model.MessageIndex) {
		ref = x.Topic("/parameter_events").At(3)
		other = x.Topic("/add_two_ints/_service_event").At(2)
	})
	l.SelectMessage(ref)

	// The Chunk panel shows the block holding it, its record selected.
	blk := d.Storage.Blocks()[0]
	if cp.detail == nil || cp.detail.Block != blk || cp.records == nil {
		t.Fatalf("chunk panel shows %+v", cp.detail)
	}
	if got := test.RenderObjectToMarkup(cp.content); !strings.Contains(got, fmt.Sprintf("Chunk 1 of 1 at byte %d (0x%x)", blk.Offset, blk.Offset)) ||
		!strings.Contains(got, "Uncompressed size") || !strings.Contains(got, "/parameter_events") {
		t.Errorf("chunk panel:\n%.4000s", got)
	}
	if cp.recLen() != cp.records.Len() || cp.records.Len() == 0 {
		t.Errorf("%d rows of %d inner records", cp.recLen(), cp.records.Len())
	}
	if i := cp.records.Find(int64(ref.Offset)); i < 0 || cp.selRow != i {
		t.Errorf("the message's record %d is not selected", i)
	}
	// The topic selection filters the records to its messages.
	l.SetTopics([]string{"/add_two_ints/_service_event"})
	// (and its channel record)
	if cp.recLen() != int(blk.Counts[5])+1 || !cp.showAll.Visible() || cp.selRow != -1 {
		t.Errorf("%d rows for a topic with %d messages and a channel record", cp.recLen(), blk.Counts[5])
	}
	l.SetTopics(nil)
	if cp.recLen() != cp.records.Len() {
		t.Error("the filter stayed")
	}
	// A message selected elsewhere selects its record.
	l.SelectMessage(other)
	if i := cp.records.Find(int64(other.Offset)); i < 0 || cp.selRow != i {
		t.Errorf("selected row %d, the message's record is row %d", cp.selRow, i)
	}
	// Selecting a message's record selects the message everywhere.
	cp.recs.Select(cp.records.Find(int64(ref.Offset)))
	if m, _ := l.Message(); m != ref {
		t.Errorf("selected %+v, want %+v", m, ref)
	}
	// Show in Records asks the Records view for the chunk record.
	test.Tap(cp.toRecord)
	if *tab != "Records" || *shownRecord != blk.Offset {
		t.Errorf("Show in Records: tab %q, record at %d, want %d", *tab, *shownRecord, blk.Offset)
	}
	// The timeline's chunk lane shows a block in the Chunk panel.
	if l.Actions().ShowChunk == nil {
		t.Fatal("no ShowChunk: the chunk lane leads nowhere")
	}
	cp.detail = nil
	l.Actions().ShowChunk(blk.Offset)
	if *tab != "Chunk" || cp.detail == nil || cp.detail.Block != blk {
		t.Errorf("ShowChunk: tab %q, detail %+v", *tab, cp.detail)
	}
}

// TestListedChunkUnchunked shows an MCAP file without chunks: the Chunk
// panel says there are none.
func TestListedChunkUnchunked(t *testing.T) {
	d := openListed(t, "foxglove__mcap/tests/conformance/data/OneMessage/OneMessage.mcap")
	if len(d.Storage.Blocks()) != 0 {
		t.Skip("the file has chunks")
	}
	_, cp, _, _ := newListedChunkTest(t, d)
	if got := test.RenderObjectToMarkup(cp.content); !strings.Contains(got, "This file has no chunks") {
		t.Errorf("chunk panel:\n%s", got)
	}
}

// topicsMCAP has one uncompressed chunk of 13 messages on 2 topics.
const topicsMCAP = "ros2__rosbag2/rosbag2_cpp/test/rosbag2_cpp/bags/topics_and_services.mcap"
