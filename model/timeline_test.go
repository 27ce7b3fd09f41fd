package model

import (
	"context"
	"math"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// TestTimeline checks that the density lanes add up to each topic's
// message count and that the chunks match the index.
func TestTimeline(t *testing.T) {
	for _, p := range []string{"../testdata/lz4-multichunk.bag", "../testdata/two-conns-one-topic.bag", "../assets/sample.bag"} {
		t.Run(p, func(t *testing.T) {
			d, err := Open(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			tl := BuildTimeline(d)
			if len(tl.Chunks) != len(d.Bag.ChunkInfos) {
				t.Fatalf("%d chunks, index has %d", len(tl.Chunks), len(d.Bag.ChunkInfos))
			}
			want := map[string]uint64{}
			for _, tp := range d.Topics {
				want[tp.Topic] = tp.Messages
			}
			for _, lane := range tl.Topics {
				var sum float64
				for _, v := range lane.Bins {
					sum += v
				}
				if math.Abs(sum-float64(want[lane.Topic])) > 1e-6 {
					t.Errorf("%s: lane adds up to %v, topic has %d", lane.Topic, sum, want[lane.Topic])
				}
			}
			if len(tl.Damaged()) != 0 {
				t.Errorf("a clean bag has damaged chunks: %v", tl.Damaged())
			}
		})
	}
}

// TestTimelineMarksDamage opens a cut bag: its salvaged chunk is marked.
func TestTimelineMarksDamage(t *testing.T) {
	d, err := Open(context.Background(), "../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag", nil)
	if err != nil {
		t.Skip(err)
	}
	defer d.Close()
	tl := BuildTimeline(d)
	if dm := tl.Damaged(); len(dm) != 1 || dm[0].Pos != 4117 {
		t.Fatalf("damaged chunks %v", dm)
	}
	tl2 := BuildTimeline(d)
	tl2.Chunks[0].Damaged = ""
	tl2.MarkDamaged(5000, 5000, "a finding")
	if tl2.Chunks[0].Damaged != "a finding" {
		t.Fatal("MarkDamaged at one offset inside the chunk did not mark it")
	}
}

// noteStorage is a recording that reports the damage it is given.
type noteStorage struct {
	bag.Storage
	d *bag.Damage
}

func (s noteStorage) Damage() *bag.Damage     { return s.d }
func (s noteStorage) Unwrap() bag.Storage     { return s.Storage }
func (s noteStorage) FileInfo() *bag.FileInfo { return s.Storage.FileInfo() }

// TestTimelineNotesAreNotLosses: a chunk holding damage that provably lost
// no message (a note: an index, a free page) is marked as a note, never as
// damaged (red); a chunk holding a loss is marked damaged.
func TestTimelineNotesAreNotLosses(t *testing.T) {
	d, err := Open(context.Background(), "../testdata/lz4-multichunk.bag", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	chunks := BuildTimeline(d).Chunks
	if len(chunks) < 3 {
		t.Fatalf("%d chunks", len(chunks))
	}
	in := func(c ChunkSpan) (int64, int64) { return c.Pos + 1, c.Pos + 2 }
	s0, e0 := in(chunks[0])
	s1, e1 := in(chunks[1])
	d.Storage = noteStorage{Storage: d.Storage, d: &bag.Damage{Files: 1, Ranges: []bag.LostRange{
		{File: "x", ByteRange: bag.ByteRange{Start: s0, End: e0, Messages: bag.Exactly(0), Why: "an index record is damaged"}},
		{File: "x", ByteRange: bag.ByteRange{Start: s1, End: e1, Messages: bag.AtLeast(1), Why: "a chunk is damaged"}},
	}}}
	tl := BuildTimeline(d)
	cases := []struct {
		i             int
		damaged, note string
	}{
		{0, "", "an index record is damaged"},
		{1, "a chunk is damaged", ""},
		{2, "", ""},
	}
	for _, tc := range cases {
		c := tl.Chunks[tc.i]
		if c.Damaged != tc.damaged || c.Note != tc.note {
			t.Errorf("chunk %d: damaged %q, note %q; want %q, %q", tc.i, c.Damaged, c.Note, tc.damaged, tc.note)
		}
	}
}
