package mcap

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

func TestSharedBagsMatchLibrary(t *testing.T) {
	for _, p := range sharedMCAPs(t) {
		t.Run(filepath.Base(p), func(t *testing.T) {
			data := readFile(t, p)
			r := openBytes(t, data)
			want := libRecs(t, data)
			got, skipped := ourRecs(t, r, bag.MessageFilter{})
			if len(skipped) > 0 {
				t.Errorf("skipped %v", skipped)
			}
			sortRecs(want)
			sortRecs(got)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %d messages, library %d", len(got), len(want))
			}
			s, err := r.Summary()
			if err != nil {
				t.Fatal(err)
			}
			if s.Messages != uint64(len(want)) {
				t.Errorf("summary says %d messages, library reads %d", s.Messages, len(want))
			}
			if len(want) > 0 && (uint64(s.Start.Nanos()) != want[0].Time || uint64(s.End.Nanos()) != want[len(want)-1].Time) {
				t.Errorf("summary times %v..%v, messages %d..%d", s.Start, s.End, want[0].Time, want[len(want)-1].Time)
			}
			var inBlocks uint64
			for _, b := range r.Blocks() {
				inBlocks += b.Messages()
				ents, err := r.BlockIndex(b)
				if err != nil {
					t.Fatalf("BlockIndex: %v", err)
				}
				if uint64(len(ents)) != b.Messages() {
					t.Errorf("block at %d: %d index entries, %d counted", b.Offset, len(ents), b.Messages())
				}
				for _, e := range ents {
					m, err := r.ReadMessage(e.Conn, e.Loc)
					if err != nil {
						t.Fatalf("ReadMessage %v: %v", e.Loc, err)
					}
					if m.Time != e.Time {
						t.Fatalf("ReadMessage %v: time %v, index says %v", e.Loc, m.Time, e.Time)
					}
				}
			}
			t.Logf("%s: indexed=%v %d messages (%d in %d chunks), %d connections", p, r.FileInfo().Indexed, len(got), inBlocks, len(r.Blocks()), len(r.Connections()))
		})
	}
}
