package db3

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// TestRecordsHeaderAlone: a listing of the records that stops at the
// database header (the Message tab placing a .db3 message) reads no page
// beyond what opening read; the page map, which reads every page (the
// whole file over a network: 1.2 GB of a 292 MB remote folder in 20 s),
// waits for a caller that goes on.
func TestRecordsHeaderAlone(t *testing.T) {
	p := filepath.Join(t.TempDir(), "h.db3")
	makeBag(t, p, 3000)
	healthy, _ := os.ReadFile(p)
	path := folderOf(t, healthy, folderMetadata(oracle(t, p), "bag_0.db3"))
	c := &byteCounter{r: bytes.NewReader(healthy)}
	s, err := Open(c, int64(len(healthy)), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	opened := c.n.Load()
	var first *bag.Record
	if err := s.Records(context.Background(), 0, func(r *bag.Record) bool { first = r; return false }); err != nil {
		t.Fatal(err)
	}
	if first == nil || first.Offset != 0 || first.Len != HeaderSize {
		t.Fatalf("the first record is %+v, not the database header", first)
	}
	if read := c.n.Load() - opened; read > 0 {
		t.Errorf("listing the header read %d bytes more of a %d-byte file", read, len(healthy))
	}
	// Going on lists the pages, in file order.
	var offs []int64
	s.Records(context.Background(), 0, func(r *bag.Record) bool { offs = append(offs, r.Offset); return len(offs) < 3 })
	if len(offs) != 3 || offs[1] != HeaderSize || offs[2] != 4096 {
		t.Errorf("the records start at %v, want 0, %d, 4096", offs, HeaderSize)
	}
}
