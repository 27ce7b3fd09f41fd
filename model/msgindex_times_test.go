package model

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
	"github.com/bagscope/bagscope/model/msgref"
)

// sameAsIteration fails when path's message index (built from its rows'
// times, bag.MessageTimer) differs from its messages as the iteration
// gives them: a topic, a message's place or order, or an error on one
// side only.
func sameAsIteration(t *testing.T, path string) {
	t.Helper()
	open := func() bag.Storage {
		s, err := bag.Open(path)
		if err != nil {
			t.Skip(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}
	s := open()
	if bag.MessageTimerOf(bag.Underlying(s)) == nil && bag.AsMulti(s) == nil {
		t.Fatal("a .db3 offers no MessageTimer")
	}
	x, err := BuildMessageIndex(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]msgref.Ref{}
	it := open().Messages(bag.MessageFilter{})
	for it.Next() {
		m := it.Message()
		want[m.Conn.Topic] = append(want[m.Conn.Topic], msgref.Ref{T: m.Time.Nanos(), Loc: msgref.Loc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}})
	}
	it.Close()
	if (it.Err() != nil) != (len(x.Errors) > 0) {
		t.Fatalf("index errors %v; iteration: %v", x.Errors, it.Err())
	}
	total := 0
	for topic, refs := range want {
		total += len(refs)
		got := x.Topic(topic)
		if got == nil {
			t.Fatalf("topic %s missing from the index", topic)
		}
		if got.Len() != len(refs) {
			t.Fatalf("%s: %d messages indexed, the iteration gives %d", topic, got.Len(), len(refs))
		}
		for i, r := range refs {
			if got.At(i) != r {
				t.Fatalf("%s message %d: index %+v, iteration %+v", topic, i, got.At(i), r)
			}
		}
	}
	if x.Count() != total {
		t.Fatalf("%d messages indexed, the iteration gives %d", x.Count(), total)
	}
}

// TestMessageIndexOfDb3MatchesIterator builds the message index of every shared
// .db3 file and of every folder holding some (split recordings, whole-file
// and message compression) from the rows' times, and compares it with the
// iteration (which bag/db3's tests compare with the reference): the same
// messages per topic, at the same places (the Message tab seeks by them),
// in the same order. Then the same on damaged copies of a shared
// recording, lone and in its folder.
func TestMessageIndexOfDb3MatchesIterator(t *testing.T) {
	paths := map[string]bool{}
	filepath.Walk(sharedBags, func(p string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() && (strings.HasSuffix(p, ".db3") || strings.HasSuffix(p, ".db3.zstd")) {
			if strings.HasSuffix(p, ".db3") {
				paths[p] = true
			}
			paths[filepath.Dir(p)] = true
		}
		return nil
	})
	if len(paths) == 0 {
		t.Skip("no .db3 files in " + sharedBags)
	}
	sorted := make([]string, 0, len(paths))
	for p := range paths {
		sorted = append(sorted, p)
	}
	sort.Strings(sorted)
	for _, p := range sorted {
		t.Run(strings.TrimPrefix(p, sharedBags+"/"), func(t *testing.T) {
			sameAsIteration(t, p)
		})
	}

	src := filepath.Join(sharedBags, "facontidavide__PlotJuggler/datasamples/rosbag2_test/rosbag2_test_0.db3")
	healthy, err := os.ReadFile(src)
	if err != nil {
		t.Skip(err)
	}
	meta, err := os.ReadFile(filepath.Join(filepath.Dir(src), "metadata.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range db3test.Damaged(healthy) {
		data, _ := tc.Damage(healthy)
		for _, folder := range []bool{false, true} {
			name := tc.Name
			if folder {
				name += " in its folder"
			}
			t.Run(name, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "rosbag2_test_0.db3")
				if folder {
					// Its metadata.yaml names the file under a folder
					// of the recording's name.
					dir = filepath.Join(dir, "rosbag2_test")
					os.Mkdir(dir, 0o755)
					path = filepath.Join(dir, "rosbag2_test_0.db3")
					if err := os.WriteFile(filepath.Join(dir, "metadata.yaml"), meta, 0o644); err != nil {
						t.Fatal(err)
					}
				}
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				if folder {
					path = dir
				}
				sameAsIteration(t, path)
			})
		}
	}
}
