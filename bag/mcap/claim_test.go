package mcap

import (
	"bytes"
	"context"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
)

// chunkedCopy writes a real ROS 1 bag as an MCAP of 64 KiB zstd chunks with
// a summary and statistics, as the damage sweep does.
func chunkedCopy(t *testing.T) []byte {
	t.Helper()
	b, err := ros1.OpenOrScan(sharedBags + "/facontidavide__PlotJuggler/datasamples/tilt_laser.bag")
	if err != nil {
		t.Skipf("the shared recordings are needed: %v", err)
	}
	defer b.Close()
	var out bytes.Buffer
	if _, err := Write(&out, ros1.NewStore(b), WriteOptions{Compression: "zstd", ChunkSize: 64 << 10}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// TestStatisticsBoundTheLoss: a well-formed statistics record is the
// file's claim, so a zeroed run that takes a chunk with its message index
// records (and breaks the summary, so the file is scanned) is bounded: the
// loss every report gives contains the truth (the intact original's
// messages not read back) and, the statistics being the only evidence
// left, is exact.
func TestStatisticsBoundTheLoss(t *testing.T) {
	intact := chunkedCopy(t)
	orig, _ := ourRecs(t, openBytes(t, intact), bag.MessageFilter{})
	x := openBytes(t, intact)
	if x.info.Claim == nil || x.info.Claim.Messages != uint64(len(orig)) {
		t.Fatalf("the intact file claims %+v, it holds %d messages", x.info.Claim, len(orig))
	}
	blocks := x.Blocks()
	last := blocks[len(blocks)-1]
	mid := blocks[len(blocks)/2]
	cases := []struct {
		name     string
		from, to int64
	}{
		// The last chunk's second half, its message index records, the
		// data end and the summary's first schema.
		{"last chunk into the summary", last.Offset + last.Len/2, int64(x.dataEnd) + 600},
		// A whole chunk and its message index records.
		{"a middle chunk with its index", mid.Offset, blocks[len(blocks)/2+1].Offset},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := bytes.Clone(intact)
			clear(data[tc.from:tc.to])
			r := openBytes(t, data)
			got, _ := ourRecs(t, r, bag.MessageFilter{})
			left := map[rec]int{}
			for _, m := range orig {
				left[m]++
			}
			for _, m := range got {
				if left[m] > 0 {
					left[m]--
				}
			}
			var truth uint64
			for _, n := range left {
				truth += uint64(n)
			}
			if truth == 0 {
				t.Fatal("the damage lost nothing")
			}
			d, _, err := bag.Survey(context.Background(), r, nil)
			if err != nil {
				t.Fatal(err)
			}
			if c := d.Messages; !c.Bounded || truth < c.Min || truth > c.Max {
				t.Errorf("%d messages lost; the report says %v", truth, c)
			} else if !c.Exact() {
				t.Errorf("%d messages lost; the report says %v, where the statistics make it exact", truth, c)
			}
		})
	}
}

// TestStatisticsClaimWellFormed: a statistics record whose channel counts
// do not add up to its message count, or whose times run backwards, is no
// claim; one that adds up is, by topic.
func TestStatisticsClaimWellFormed(t *testing.T) {
	x := openBytes(t, chunkedCopy(t))
	good := *x.stats
	tests := []struct {
		name string
		edit func(s *statistics)
		ok   bool
	}{
		{"as written", func(*statistics) {}, true},
		{"a channel count changed", func(s *statistics) {
			s.ChannelCounts = map[uint16]uint64{0: s.ChannelCounts[0] + 1}
			for id, n := range good.ChannelCounts {
				if id != 0 {
					s.ChannelCounts[id] = n
				}
			}
		}, false},
		{"message count changed", func(s *statistics) { s.MessageCount++ }, false},
		{"times backwards", func(s *statistics) { s.Start, s.End = s.End+1, s.Start }, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := good
			s.ChannelCounts = map[uint16]uint64{}
			for id, n := range good.ChannelCounts {
				s.ChannelCounts[id] = n
			}
			tt.edit(&s)
			x.stats = &s
			c := x.statsClaim()
			if (c != nil) != tt.ok {
				t.Fatalf("claim %+v, want one %v", c, tt.ok)
			}
			if c == nil {
				return
			}
			var sum uint64
			for _, n := range c.Topics {
				sum += n
			}
			if c.Messages != good.MessageCount || sum != c.Messages || len(c.Topics) == 0 {
				t.Errorf("claim %+v: %d by topic, want %d", c, sum, good.MessageCount)
			}
		})
	}
}
