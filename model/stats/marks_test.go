package stats_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/stats"
)

// TestReadMarksDamagedChunks: the read of every message marks on the
// timeline (ReadLoss.SuspectAt) each message it read from a chunk that
// shows damage, as the Message view marks it, not only the suspect ones:
// the three messages recovered from test_truncated.bag's cut chunk, which
// are whole (not suspect), at their times. An intact bag marks none.
func TestReadMarksDamagedChunks(t *testing.T) {
	cases := []struct {
		path            string
		marked, suspect int
	}{
		// -1: at least one, as the oracle counts them.
		{damagedMCAP(t), -1, 0},
		{sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag", 3, 0},
		{sharedBags + "/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag", 0, 0},
		{sharedBags + "/cra-ros-pkg__robot_localization/test/test2.bag", 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.path, func(t *testing.T) {
			s, err := model.OpenStorage(tc.path)
			if err != nil {
				t.Skipf("the shared recordings are needed: %v", err)
			}
			defer s.Close()
			_, loss, err := stats.CountBytes(context.Background(), s, nil)
			if err != nil {
				t.Fatal(err)
			}
			// The oracle: every message's time, with the chunk it came
			// from, and the chunks that what the read found says damaged.
			type read struct {
				topic   string
				t       int64
				loc     bag.Loc
				suspect bool
			}
			var all []read
			it := s.Messages(bag.MessageFilter{})
			for it.Next() {
				m := it.Message()
				all = append(all, read{m.Conn.Topic, m.Time.Nanos(), m.Loc, m.Suspect != ""})
			}
			units := bag.DamagedUnits(s, bag.DamageAfter(s, it))
			it.Close()
			want := map[string][]int64{}
			for _, m := range all {
				if m.suspect || units(m.loc) != "" {
					want[m.topic] = append(want[m.topic], m.t)
				}
			}
			n := 0
			for topic, ts := range loss.SuspectAt {
				slices.Sort(ts)
				slices.Sort(want[topic])
				n += len(ts)
				if len(ts) != len(want[topic]) {
					t.Errorf("%s: %d ticks marked, want %d", topic, len(ts), len(want[topic]))
					continue
				}
				for i := range ts {
					if ts[i] != want[topic][i] {
						t.Errorf("%s: tick %d at %d, want %d", topic, i, ts[i], want[topic][i])
					}
				}
			}
			if tc.marked < 0 && n > 0 {
				tc.marked = n
			}
			if n != tc.marked || int(loss.Suspects) != tc.suspect {
				t.Errorf("%d ticks marked, %d suspect; want %d and %d", n, loss.Suspects, tc.marked, tc.suspect)
			}
		})
	}
}

// damagedMCAP writes a real ROS 1 bag as an indexed MCAP of 1 MiB zstd
// chunks and overwrites bytes near the end of its first chunk's data: its
// first blocks still decompress, so messages are read from a chunk that
// only the read finds damaged (its summary is intact).
func damagedMCAP(t *testing.T) string {
	t.Helper()
	src, err := bag.OpenFile(sharedBags + "/facontidavide__PlotJuggler/datasamples/tilt_laser.bag")
	if err != nil {
		t.Skipf("the shared recordings are needed: %v", err)
	}
	defer src.Close()
	p := filepath.Join(t.TempDir(), "chunked.mcap")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := mcap.Write(f, src, mcap.WriteOptions{Compression: "zstd", ChunkSize: 1 << 20}); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s, err := model.OpenStorage(p)
	if err != nil {
		t.Fatal(err)
	}
	blk := s.Blocks()[0]
	s.Close()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	at := blk.Offset + blk.Len*9/10
	for i := at; i < at+256; i++ {
		data[i] = 0xff
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}
