package db3

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
	_ "github.com/bagscope/bagscope/bag/rosbag2"
)

// folderMetadata writes the metadata.yaml rosbag2 would write for the
// rows of a mkdb3.py file named file.
func folderMetadata(rows []row, file string) string {
	counts := map[int64]int{}
	var lo, hi int64
	for i, r := range rows {
		counts[r.topic]++
		if i == 0 || r.ts < lo {
			lo = r.ts
		}
		if i == 0 || r.ts > hi {
			hi = r.ts
		}
	}
	return db3test.FolderMetadata(file, []db3test.Topic{
		{Name: "/chatter", Type: "std_msgs/msg/String", Messages: counts[1]},
		{Name: "/image", Type: "sensor_msgs/msg/Image", Messages: counts[2]},
		{Name: "/silent", Type: "std_msgs/msg/Empty", Messages: counts[3]},
	}, lo, hi)
}

// opened is what a store gives of a damaged file: its rows, the loss it
// reports and its Check's errors, with the file name a folder puts before
// them removed.
type opened struct {
	rows   []row
	err    error // of the iteration
	lost   uint64
	ranges []string
	errors []string
}

// readDamaged opens path with bag.Open and reads it; checkFirst runs Check
// before the messages are read (a folder's store rescues itself on either).
func readDamaged(t *testing.T, path string, checkFirst bool) (*opened, error) {
	t.Helper()
	s, err := bag.Open(path)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	o := &opened{}
	check := func() {
		rep, err := s.Check(context.Background(), nil)
		if err != nil {
			t.Fatalf("check: %v", err)
		}
		for _, f := range rep.Findings {
			if f.Severity == bag.Error {
				o.errors = append(o.errors, fmt.Sprintf("%d %s", f.Offset, strings.TrimPrefix(f.Message, "bag_0.db3: ")))
			}
		}
		sort.Strings(o.errors)
	}
	if checkFirst {
		check()
	}
	o.rows, o.err = readAll(t, s, bag.MessageFilter{})
	if !checkFirst {
		check()
	}
	if sc := s.FileInfo().Scanned; sc != nil {
		o.lost = sc.LostMessages
		for _, r := range sc.Skipped {
			o.ranges = append(o.ranges, fmt.Sprintf("%d..%d %s", r.Start, r.End, strings.TrimPrefix(r.Why, "bag_0.db3: ")))
		}
	}
	return o, nil
}

// TestDamagedInFolder puts each damaged variant of a healthy file (see
// damagedCases) in a rosbag2 folder whose metadata.yaml describes the
// healthy file, so the folder opens without counting the rows. Opened as
// the folder, its metadata.yaml or the .db3 in it, the recording must
// give the rows the lone damaged file gives, and report the same loss
// (skipped ranges with their offsets, messages lost, Check's errors).
func TestDamagedInFolder(t *testing.T) {
	p := filepath.Join(t.TempDir(), "h.db3")
	makeBag(t, p, 3000)
	healthy, _ := os.ReadFile(p)
	meta := folderMetadata(oracle(t, p), "bag_0.db3")
	ways := []struct {
		name       string
		path       func(dir string) string
		checkFirst bool
	}{
		{"folder", func(dir string) string { return dir }, false},
		{"metadata.yaml", func(dir string) string { return filepath.Join(dir, "metadata.yaml") }, true},
		{".db3 in the folder", func(dir string) string { return filepath.Join(dir, "bag_0.db3") }, false},
	}
	for _, tc := range db3test.Damaged(healthy) {
		t.Run(tc.Name, func(t *testing.T) {
			data, _ := tc.Damage(healthy)
			lone := filepath.Join(t.TempDir(), "bag_0.db3")
			if err := os.WriteFile(lone, data, 0o644); err != nil {
				t.Fatal(err)
			}
			want, werr := readDamaged(t, lone, false)
			for _, w := range ways {
				dir := t.TempDir()
				if err := os.WriteFile(filepath.Join(dir, "bag_0.db3"), data, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(meta), 0o644); err != nil {
					t.Fatal(err)
				}
				got, gerr := readDamaged(t, w.path(dir), w.checkFirst)
				if (werr != nil) != (gerr != nil) {
					t.Fatalf("%s: open error %v; the lone file's %v", w.name, gerr, werr)
				}
				if werr != nil {
					continue
				}
				if (got.err != nil) != (want.err != nil) {
					t.Errorf("%s: iteration error %v; the lone file's %v", w.name, got.err, want.err)
				}
				if len(got.rows) != len(want.rows) {
					t.Errorf("%s: %d rows; the lone file gives %d", w.name, len(got.rows), len(want.rows))
				} else {
					for i := range got.rows {
						g, l := got.rows[i], want.rows[i]
						if g.id != l.id || g.topic != l.topic || g.ts != l.ts || !bytes.Equal(g.data, l.data) {
							t.Errorf("%s: row %d is %d@%d; the lone file's is %d@%d", w.name, i, g.id, g.ts, l.id, l.ts)
							break
						}
					}
				}
				if got.lost != want.lost || strings.Join(got.ranges, "\n") != strings.Join(want.ranges, "\n") {
					t.Errorf("%s: loss %d messages, ranges\n%s\nthe lone file's %d,\n%s", w.name, got.lost, strings.Join(got.ranges, "\n"), want.lost, strings.Join(want.ranges, "\n"))
				}
				if strings.Join(got.errors, "\n") != strings.Join(want.errors, "\n") {
					t.Errorf("%s: Check errors\n%s\nthe lone file's\n%s", w.name, strings.Join(got.errors, "\n"), strings.Join(want.errors, "\n"))
				}
				if len(want.rows) < 3000 && (len(got.ranges) == 0 || len(got.errors) == 0) {
					t.Errorf("%s: %d of 3000 rows and the loss is not reported", w.name, len(got.rows))
				}
			}
			if werr == nil {
				t.Logf("%d rows, %d lost, %d ranges, %d errors", len(want.rows), want.lost, len(want.ranges), len(want.errors))
			}
		})
	}
}

// TestInteriorDamageFoundOnOpen: garbage on an interior page of the
// messages table or its index is found when the folder opens (the survey
// of the pages), so the file is rescued on open and the loss shows before
// any message is read. A healthy folder is not counted.
func TestInteriorDamageFoundOnOpen(t *testing.T) {
	p := filepath.Join(t.TempDir(), "h.db3")
	makeBag(t, p, 3000)
	healthy, _ := os.ReadFile(p)
	meta := folderMetadata(oracle(t, p), "bag_0.db3")
	const ps = 4096
	pages := map[byte][]int{}
	for n := 2; n*ps <= len(healthy); n++ {
		pages[healthy[(n-1)*ps]] = append(pages[healthy[(n-1)*ps]], n)
	}
	cases := []struct {
		name           string
		pages          []int
		found, rescued bool
	}{
		{"healthy", nil, false, false},
		{"table interior page", pages[pageTableInterior][len(pages[pageTableInterior])-1:], true, true},
		// The survey of the pages finds it too (SQLite would read through
		// it): the file is read page by page, losing no row.
		{"index interior page", pages[pageIndexInterior][:1], true, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name != "healthy" && len(tc.pages) == 0 {
				t.Fatal("the healthy file has no such page")
			}
			data := bytes.Clone(healthy)
			for _, n := range tc.pages {
				for i := (n - 1) * ps; i < n*ps; i++ {
					data[i] = byte(i*7 + 3)
				}
			}
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "bag_0.db3"), data, 0o644)
			os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(meta), 0o644)
			s, err := bag.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			sc := s.FileInfo().Scanned
			if (sc != nil) != tc.rescued {
				t.Fatalf("rescued on open: %v, want %v (%+v)", sc != nil, tc.rescued, sc)
			}
			st := Underlying(s)
			if st == nil {
				t.Fatal("no db3 store")
			}
			if st.deferred == tc.found {
				t.Errorf("the count deferred: %v", st.deferred)
			}
		})
	}
}

// Underlying returns the db3 store behind a recording, or nil.
func Underlying(s bag.Storage) *Store {
	st, _ := bag.Underlying(s).(*Store)
	return st
}
