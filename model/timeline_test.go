package model

import (
	"context"
	"math"
	"testing"
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
