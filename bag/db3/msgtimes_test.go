package db3

import (
	"bytes"
	"cmp"
	"context"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
	"github.com/bagscope/bagscope/bag/remote"
)

// timed is one message as the message index keeps it.
type timed struct {
	conn uint32
	ts   int64
	loc  bag.Loc
}

func sortTimed(m []timed) {
	slices.SortFunc(m, func(a, b timed) int {
		return cmp.Or(cmp.Compare(a.loc.Block, b.loc.Block), cmp.Compare(a.loc.Offset, b.loc.Offset), cmp.Compare(a.ts, b.ts), cmp.Compare(a.conn, b.conn))
	})
}

// listTimes lists s's messages through its MessageTimer, sorted.
func listTimes(t *testing.T, s bag.Storage) ([]timed, error) {
	t.Helper()
	mt := bag.MessageTimerOf(s)
	if mt == nil {
		t.Fatal("the storage offers no MessageTimer")
	}
	var out []timed
	err := mt.MessageTimes(context.Background(), func(conn uint32, ts bag.Time, loc bag.Loc) bool {
		out = append(out, timed{conn, ts.Nanos(), loc})
		return true
	})
	sortTimed(out)
	return out, err
}

// iterTimes lists s's messages through its iteration of every message,
// sorted.
func iterTimes(s bag.Storage) ([]timed, error) {
	it := s.Messages(bag.MessageFilter{})
	defer it.Close()
	var out []timed
	for it.Next() {
		m := it.Message()
		out = append(out, timed{m.Conn.ID, m.Time.Nanos(), m.Loc})
	}
	sortTimed(out)
	return out, it.Err()
}

// onlyGood returns got without the messages want lacks, each of which
// must fail to read, or read as suspect, from s.
func onlyGood(t *testing.T, s *Store, got, want []timed) []timed {
	t.Helper()
	w := map[timed]bool{}
	for _, x := range want {
		w[x] = true
	}
	var out []timed
	for _, x := range got {
		if w[x] {
			out = append(out, x)
			continue
		}
		if m, err := s.ReadMessage(x.conn, x.loc); err == nil && m.Suspect == "" {
			t.Fatalf("message %+v is listed, not given by the iteration, and reads as good", x)
		}
	}
	return out
}

func sameTimes(t *testing.T, what string, got, want []timed) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d messages listed, the iteration gives %d", what, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s: message %d listed as %+v, the iteration gives %+v", what, i, got[i], want[i])
		}
	}
}

// TestMessageTimesSharedBags: on every shared .db3 (intact, some with
// compressed messages), the listing is the iteration's messages, and the
// row walk never hands over to SQL.
func TestMessageTimesSharedBags(t *testing.T) {
	var paths []string
	filepath.Walk(sharedBags, func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasSuffix(p, ".db3") && fi.Mode().IsRegular() {
			paths = append(paths, p)
		}
		return nil
	})
	if len(paths) == 0 {
		t.Skip("no .db3 files in " + sharedBags)
	}
	for _, p := range paths {
		t.Run(strings.TrimPrefix(p, sharedBags+"/"), func(t *testing.T) {
			want, werr := iterTimes(openFile(t, p))
			s := openFile(t, p)
			fast := bag.Underlying(s).(*Store).fast().ok
			before := fastFallbacks.Load()
			got, gerr := listTimes(t, s)
			if (gerr != nil) != (werr != nil) {
				t.Fatalf("listing: %v; iteration: %v", gerr, werr)
			}
			sameTimes(t, p, got, want)
			if fast && fastFallbacks.Load() != before {
				t.Errorf("the row walk handed over to SQL on a healthy file")
			}
		})
	}
}

// remoteish is a file held in memory that says it is remote (bag.IsRemote),
// so a store reading it checks pages as it reads them rather than
// surveying the file first.
type remoteish struct{ io.ReaderAt }

func (remoteish) Prefetch([]remote.Range) error { return nil }

// TestMessageTimesGenerated compares the listing with the iteration on
// generated files: small and many rows, rows with overflow pages (small
// pages), a row of an unknown topic, a file with a hot WAL (read through
// SQL), the SQL path forced, and every damaged variant of db3test, lone
// and in a folder whose metadata.yaml lets it open without counting its
// rows, read as a local file and as a remote one (whose pages are checked
// as read, not surveyed first: a message whose data the walk does not
// read may be listed, and must then fail to read).
func TestMessageTimesGenerated(t *testing.T) {
	type gen struct {
		name string
		n    int
		opts []string
		fast bool // the row walk must not hand over to SQL
	}
	gens := []gen{
		{"plain", 3000, nil, true},
		{"one row", 1, nil, true},
		{"overflow rows", 2000, []string{"--page-size", "512"}, true},
		{"unknown topic", 500, []string{"--unknown-topic"}, true},
		{"small", 20000, []string{"--small"}, true},
		{"hot WAL", 300, []string{"--wal", "--uncommitted", "40"}, false},
	}
	for _, g := range gens {
		t.Run(g.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "g.db3")
			makeBag(t, p, g.n, g.opts...)
			want, werr := iterTimes(openFile(t, p))
			if werr != nil {
				t.Fatal(werr)
			}
			if len(want) == 0 {
				t.Fatal("no messages")
			}
			if o := oracle(t, p); len(o) < len(want) {
				t.Fatalf("the reference reads %d rows, the iteration %d", len(o), len(want))
			}
			s := openFile(t, p)
			before := fastFallbacks.Load()
			got, err := listTimes(t, s)
			if err != nil {
				t.Fatal(err)
			}
			sameTimes(t, g.name, got, want)
			if g.fast && fastFallbacks.Load() != before {
				t.Error("the row walk handed over to SQL on a healthy file")
			}
			if !g.fast && bag.Underlying(s).(*Store).fast().ok {
				t.Error("a file with a hot WAL takes the row walk")
			}
			noFast.Store(true)
			got, err = listTimes(t, openFile(t, p))
			noFast.Store(false)
			if err != nil {
				t.Fatal(err)
			}
			sameTimes(t, g.name+" through SQL", got, want)
		})
	}

	p := filepath.Join(t.TempDir(), "h.db3")
	makeBag(t, p, 3000)
	healthy, _ := os.ReadFile(p)
	meta := folderMetadata(oracle(t, p), "bag_0.db3")
	for _, tc := range db3test.Damaged(healthy) {
		data, _ := tc.Damage(healthy)
		for _, folder := range []bool{false, true} {
			for _, remote := range []bool{false, true} {
				name := tc.Name
				if folder {
					name += " in a folder"
				}
				if remote {
					name += " remote"
				}
				t.Run(name, func(t *testing.T) {
					dir := t.TempDir()
					path := filepath.Join(dir, "bag_0.db3")
					if err := os.WriteFile(path, data, 0o644); err != nil {
						t.Fatal(err)
					}
					if folder {
						if err := os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(meta), 0o644); err != nil {
							t.Fatal(err)
						}
					}
					open := func() *Store {
						var r io.ReaderAt = bytes.NewReader(data)
						if remote {
							r = remoteish{r}
						}
						s, err := Open(r, int64(len(data)), path)
						if err != nil {
							return nil
						}
						t.Cleanup(func() { s.Close() })
						return s
					}
					ws := open()
					if ws == nil {
						t.Skip("does not open")
					}
					want, werr := iterTimes(ws)
					got, gerr := listTimes(t, open())
					if (gerr != nil) != (werr != nil) {
						t.Fatalf("listing: %v; iteration: %v", gerr, werr)
					}
					if remote {
						// Pages are checked as the walk reads them, not
						// surveyed first: a row whose overflow page is
						// damaged is listed, and its read says so.
						got = onlyGood(t, open(), got, want)
					}
					sameTimes(t, name, got, want)
				})
			}
		}
	}
}
