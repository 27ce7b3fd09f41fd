package model

import (
	"context"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

// TestChunkDetail checks the chunk view's data against the bag: counts
// per connection add up to the chunk's messages and to what the chunk's
// records hold, and the header agrees with the records read back.
func TestChunkDetail(t *testing.T) {
	for _, p := range []string{"../testdata/lz4-multichunk.bag", "../testdata/bz2-multichunk.bag", "../testdata/none-multichunk.bag", "../assets/sample.bag"} {
		t.Run(p, func(t *testing.T) {
			d, err := Open(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			for i, ci := range d.Bag.ChunkInfos {
				c := ChunkDetailAt(d, ci.ChunkPos)
				if c == nil || c.Index != i || c.N != len(d.Bag.ChunkInfos) {
					t.Fatalf("chunk at %d: %+v", ci.ChunkPos, c)
				}
				if c.Damaged != "" || c.Header == nil {
					t.Fatalf("chunk %d damaged: %q %v", i, c.Damaged, c.HeaderErr)
				}
				recs, err := ReadChunkRecords(context.Background(), d.Bag, ci.ChunkPos)
				if err != nil {
					t.Fatal(err)
				}
				if recs.Size() != int64(c.Header.Size) {
					t.Errorf("chunk %d: header says %d bytes uncompressed, data has %d", i, c.Header.Size, recs.Size())
				}
				perConn := map[uint32]uint32{}
				for k := 0; k < recs.Len(); k++ {
					r, _ := recs.Record(k)
					if r.Op == ros1.OpMessageData {
						m, err := parseMsg(r)
						if err != nil {
							t.Fatal(err)
						}
						perConn[m]++
					}
				}
				var sum uint64
				for _, cc := range c.Conns {
					sum += uint64(cc.Count)
					if perConn[cc.Conn] != cc.Count {
						t.Errorf("chunk %d conn %d (%s): info says %d, records %d", i, cc.Conn, cc.Topic, cc.Count, perConn[cc.Conn])
					}
					if cc.Topic == "?" {
						t.Errorf("conn %d has no topic", cc.Conn)
					}
				}
				if sum != ci.Messages() {
					t.Errorf("chunk %d: counts add up to %d, info has %d", i, sum, ci.Messages())
				}
				if r := c.Ratio(); r <= 0 || (c.Header.Compression == "none" && r != 1) {
					t.Errorf("chunk %d: ratio %v for %s", i, r, c.Header.Compression)
				}
			}
			if ChunkDetailAt(d, 1) != nil || ChunkDetailOf(d, -1) != nil || ChunkDetailOf(d, len(d.Bag.ChunkInfos)) != nil {
				t.Error("a chunk where there is none")
			}
		})
	}
}

// TestChunkDetailDamaged shows why the salvaged chunk of a cut bag is
// damaged, in the fields too.
func TestChunkDetailDamaged(t *testing.T) {
	d, err := Open(context.Background(), sharedBags+"/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag", nil)
	if err != nil {
		reftest.SkipOrFail(t, err)
	}
	defer d.Close()
	c := ChunkDetailOf(d, 0)
	if c == nil || c.Damaged == "" {
		t.Fatalf("cut chunk not damaged: %+v", c)
	}
	var text []string
	for _, f := range c.HeaderFields() {
		text = append(text, f.Name+": "+f.Value)
	}
	if s := strings.Join(text, "\n"); !strings.Contains(s, "never closed") {
		t.Errorf("header fields do not say the chunk was never closed:\n%s", s)
	}
}

func parseMsg(r ros1.Record) (uint32, error) {
	m, err := ros1.ParseMessageData(r)
	if err != nil {
		return 0, err
	}
	return m.Conn, nil
}
