package model

import (
	"context"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// TestTimelineSplitDB3IndexPageIsANote: in a split set of .db3 files each
// file is one block on the chunk lane. A file whose only damage is its
// timestamp index's root page zeroed loses no message (every row is read:
// the set's metadata.yaml count), so its block is a note (amber), never
// damaged (red); the same file with its messages table's root page zeroed
// is a loss (its rows are found by their pages, but nothing proves that
// they are all of them), and is damaged. SQLite (python3's sqlite3) says which page
// is the index's root and which the table's.
func TestTimelineSplitDB3IndexPageIsANote(t *testing.T) {
	src := filepath.Join(sharedBags, "ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("the shared recordings are needed: %v", err)
	}
	py, err := exec.LookPath("/usr/bin/python3")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("CI needs python3's sqlite3, the oracle of which page is which")
		}
		t.Skip("python3 is needed (SQLite says which page is the index's); CI runs this")
	}
	const target = "wbag_1.db3"
	rootOf := func(name string) int64 {
		out, err := exec.Command(py, "-c", "import sqlite3,sys; c=sqlite3.connect('file:'+sys.argv[1]+'?mode=ro', uri=True); print(c.execute('select rootpage from sqlite_master where name=?', (sys.argv[2],)).fetchone()[0], c.execute('pragma page_size').fetchone()[0])",
			filepath.Join(src, target), name).Output()
		if err != nil {
			t.Fatalf("sqlite3: %v", err)
		}
		var root, size int64
		if _, err := fmt.Sscan(string(out), &root, &size); err != nil {
			t.Fatalf("sqlite3 said %q: %v", out, err)
		}
		return (root - 1) * size
	}
	for _, tc := range []struct {
		name, tree string
		lost       bool
	}{
		{"index root zeroed", "timestamp_idx", false},
		{"table root zeroed", "messages", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "wbag")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			ents, _ := os.ReadDir(src)
			for _, e := range ents {
				if strings.HasSuffix(e.Name(), "-shm") || strings.HasSuffix(e.Name(), "-wal") {
					continue
				}
				b, err := os.ReadFile(filepath.Join(src, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				if e.Name() == target {
					off := rootOf(tc.tree)
					copy(b[off:off+4096], make([]byte, 4096))
				}
				if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			d, err := Open(context.Background(), dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			dmg := bag.DamageOf(d.Storage)
			if dmg.Lost() != tc.lost || dmg.Claim == nil || (!tc.lost && dmg.Read != dmg.Claim.Messages) {
				t.Fatalf("lost %v (read %d, %+v); want lost %v", dmg.Lost(), dmg.Read, dmg.Claim, tc.lost)
			}
			var block *ChunkSpan
			tl := BuildTimeline(d)
			for i, c := range tl.Chunks {
				if c.Place == target {
					block = &tl.Chunks[i]
				}
			}
			if block == nil {
				t.Fatalf("no block for %s among %+v", target, tl.Chunks)
			}
			if (block.Damaged != "") != tc.lost || (block.Damaged == "" && block.Note == "") {
				t.Errorf("%s: damaged %q, note %q; want it damaged: %v, else a note", target, block.Damaged, block.Note, tc.lost)
			}
			for _, c := range tl.Chunks {
				if c.Pos != block.Pos && (c.Damaged != "" || c.Note != "") {
					t.Errorf("%s is marked too: damaged %q, note %q", c.Place, c.Damaged, c.Note)
				}
			}
		})
	}
}
