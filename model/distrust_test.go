package model

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/mcap/mcaptest"
	"github.com/bagscope/bagscope/model/msgref"
)

// TestDistrustLearnsFromRead: a chunk that only a read of its messages
// finds damaged (an MCAP whose first chunk is overwritten near its end,
// its summary intact) marks none of its messages when opened. Once the
// document's Distrust learns what the read skipped, the Message view's
// reader marks every message read from that chunk (Damaged), and no other;
// learning it again is no news. The oracle is the intact copy: the
// damaged chunk's messages are those it holds at that chunk's offset, and
// each one read back is byte-equal to it.
func TestDistrustLearnsFromRead(t *testing.T) {
	src, err := bag.OpenFile(filepath.Join(sharedBags, "facontidavide__PlotJuggler/datasamples/tilt_laser.bag"))
	if err != nil {
		t.Skipf("the shared recordings are needed: %v", err)
	}
	intact, damaged, chunk, err := mcaptest.ChunkDamaged(src, t.TempDir())
	src.Close()
	if err != nil {
		t.Fatal(err)
	}
	type key struct {
		block int64
		off   uint32
	}
	inChunk := map[key][]byte{}
	s, err := bag.OpenFile(intact)
	if err != nil {
		t.Fatal(err)
	}
	it := s.Messages(bag.MessageFilter{})
	for it.Next() {
		if m := it.Message(); m.Loc.Block == chunk {
			inChunk[key{m.Loc.Block, m.Loc.Offset}] = append([]byte(nil), m.Data...)
		}
	}
	it.Close()
	s.Close()

	d, err := Open(context.Background(), damaged, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var refs []msgref.Ref
	it = d.Storage.Messages(bag.MessageFilter{})
	for it.Next() {
		m := it.Message()
		refs = append(refs, msgref.Ref{T: m.Time.Nanos(), Loc: msgref.Loc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}})
	}
	skipped := bag.IterSkipped(it)
	it.Close()
	if len(skipped) == 0 {
		t.Fatal("the read skipped nothing: the chunk is not damaged")
	}
	r := NewMessageReader(d.Storage, nil)
	r.Distrust = d.Distrust()
	marked := func() (fromChunk, others int) {
		t.Helper()
		for _, ref := range refs {
			m, err := r.Read(ref)
			if err != nil {
				t.Fatalf("reading %+v: %v", ref.Loc, err)
			}
			if m.Damaged == "" {
				continue
			}
			want, ok := inChunk[key{ref.ChunkPos, ref.Offset}]
			switch {
			case !ok:
				others++
			case string(want) != string(m.Data):
				t.Errorf("the message at %+v differs from the intact copy's", ref.Loc)
				fromChunk++
			default:
				fromChunk++
			}
		}
		return fromChunk, others
	}
	if c, o := marked(); c+o != 0 {
		t.Fatalf("%d messages marked before the read was learned; opening finds nothing", c+o)
	}
	if !d.Distrust().Learn(skipped) {
		t.Fatal("learning the read's skipped ranges marked no unit")
	}
	read := 0
	for _, ref := range refs {
		if ref.ChunkPos == chunk {
			read++
		}
	}
	c, o := marked()
	if c != read || o != 0 || read == 0 || read >= len(inChunk) {
		t.Errorf("%d messages of the damaged chunk marked and %d others; %d were read from it, of the %d it held", c, o, read, len(inChunk))
	}
	if d.Distrust().Learn(skipped) {
		t.Error("learning the same ranges again is news")
	}
}
