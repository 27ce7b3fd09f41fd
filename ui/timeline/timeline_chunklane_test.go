package timeline

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// TestChunkLaneOnlyWhenFilled: a .db3 recording has no chunks, so no
// chunk lane is drawn and its first topic lane starts at the top; a
// bookmark brings the lane back, titled "bookmarks", to hold its flag. A
// bag with chunks keeps its "chunks" lane.
func TestChunkLaneOnlyWhenFilled(t *testing.T) {
	// shows: a lane title starting with s is drawn.
	shows := func(tv *View, s string) bool {
		tv.Refresh()
		for _, o := range uitest.ShownObjects(tv) {
			if tx, ok := o.(*canvas.Text); ok && tx.Visible() && strings.HasPrefix(tx.Text, s) {
				return true
			}
		}
		return false
	}
	tv, _ := newTestTimeline(t, "../../../shared/bags/facontidavide__PlotJuggler/datasamples/rosbag2_test")
	if len(tv.tl.Chunks) != 0 {
		t.Fatalf("the .db3 folder has %d chunks", len(tv.tl.Chunks))
	}
	if tv.lanesTop() != 0 || tv.lane(2) != 0 || shows(tv, "chunks") {
		t.Errorf("no chunks: lanes start at %v, y=2 is lane %d, \"chunks\" shown %v", tv.lanesTop(), tv.lane(2), shows(tv, "chunks"))
	}
	if got := tv.laneY(1); got != tv.laneH()+tlGap {
		t.Errorf("the second lane starts at %v, want %v", got, tv.laneH()+tlGap)
	}
	tv.setMarks(link.Bookmark, []link.Mark{{Kind: link.Bookmark, T: tv.tl.Start + 1e9, Text: "here"}})
	if tv.lanesTop() == 0 || tv.lane(2) != -1 || !shows(tv, "bookmarks") {
		t.Errorf("a bookmark: lanes start at %v, y=2 is lane %d, \"bookmarks\" shown %v", tv.lanesTop(), tv.lane(2), shows(tv, "bookmarks"))
	}
	if got := tv.MarkText(tv.tl.Start+1e9, ""); got == "" {
		t.Error("no tooltip over the bookmark's flag")
	}

	bag, _ := newTestTimeline(t, "../../testdata/lz4-multichunk.bag")
	bag.Resize(fyne.NewSize(1000, 300))
	if bag.chunkLaneH() < tlLaneH || bag.lane(2) != -1 || !shows(bag, "chunks") {
		t.Errorf("a bag with chunks: lanes start at %v, y=2 is lane %d, \"chunks\" shown %v", bag.lanesTop(), bag.lane(2), shows(bag, "chunks"))
	}
}
