package db3

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/bagscope/bagscope/bag/db3/db3test"
)

// TestMessageTimesPartialPages: a remote file's message times read each
// leaf of the messages table in parts (its header, cell pointers and each
// cell's first bytes) where those cost less than half the page, whole
// otherwise. On generated files (rows of 4-200 bytes and /image rows of
// 5-20 kB spilling onto overflow pages, three topics one of them silent;
// small rows only; 512-byte pages; a row of an unknown topic), read as a
// remote file, the listing must be the local iteration's, row for row;
// the reference (Python's sqlite3) must count as many rows; the large
// rows' leaves must be read in parts, the small rows' and the small
// pages' whole (a part's overhead would cost more). With
// cellBytes cut to 8 bytes every record header spills past the first
// part, and is read in a further round. Damaged files: see
// TestMessageTimesGenerated (its remote cases take the same walk) and
// TestMessageTimesPartialDamage.
func TestMessageTimesPartialPages(t *testing.T) {
	type gen struct {
		name    string
		n       int
		opts    []string
		partial bool // leaves are read in parts
	}
	gens := []gen{
		{"large rows", 4000, nil, true},
		{"small rows", 30000, []string{"--small"}, false},
		{"512-byte pages", 3000, []string{"--page-size", "512"}, false}, // a part's overhead is a third of a page
		{"unknown topic", 4000, []string{"--unknown-topic"}, true},
	}
	for _, g := range gens {
		// The file, its iteration (SQL under -race and checkptr) and the
		// reference's rows, once for both part sizes.
		t.Run(g.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "g.db3")
			makeBag(t, p, g.n, g.opts...)
			want, err := iterTimes(openFile(t, p))
			if err != nil || len(want) == 0 {
				t.Fatalf("iteration: %d messages, %v", len(want), err)
			}
			if o := oracle(t, p); len(o) < len(want) {
				t.Fatalf("the reference reads %d rows, the iteration %d", len(o), len(want))
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for _, first := range []int{48, 8} {
				t.Run(map[int]string{48: "cells", 8: "spilling headers"}[first], func(t *testing.T) {
					saved := cellBytes
					cellBytes = first
					defer func() { cellBytes = saved }()
					parts, wholes := partialPages.Load(), wholePages.Load()
					s, err := Open(remoteish{bytes.NewReader(data)}, int64(len(data)), p)
					if err != nil {
						t.Fatal(err)
					}
					defer s.Close()
					before := fastFallbacks.Load()
					got, err := listTimes(t, s)
					if err != nil {
						t.Fatal(err)
					}
					sameTimes(t, g.name, got, want)
					if fastFallbacks.Load() != before {
						t.Error("the row walk handed over to SQL on a healthy file")
					}
					parts, wholes = partialPages.Load()-parts, wholePages.Load()-wholes
					t.Logf("%d pages read in parts, %d whole", parts, wholes)
					if g.partial && parts <= wholes {
						t.Errorf("%d pages read in parts, %d whole: the large rows' leaves are mostly data", parts, wholes)
					}
					if !g.partial && parts > wholes/10 {
						t.Errorf("%d pages read in parts, %d whole: the small rows' leaves cost less whole", parts, wholes)
					}
				})
			}
		})
	}
}

// TestMessageTimesPartialDamage: every damaged variant of db3test of a
// file of large rows (its leaves read in parts), read as a remote file,
// lists what the local iteration gives (a row it does not give must fail
// to read, or read as suspect), and errs when it errs; and the first
// damage the store reports is the one the same walk reports over whole
// pages (cellBytes at a page: every cell read whole), file and byte
// offset.
func TestMessageTimesPartialDamage(t *testing.T) {
	p := filepath.Join(t.TempDir(), "h.db3")
	makeBag(t, p, 4000)
	healthy, _ := os.ReadFile(p)
	for _, tc := range db3test.Damaged(healthy) {
		data, _ := tc.Damage(healthy)
		t.Run(tc.Name, func(t *testing.T) {
			open := func(r io.ReaderAt) *Store {
				s, err := Open(r, int64(len(data)), p)
				if err != nil {
					return nil
				}
				t.Cleanup(func() { s.Close() })
				return s
			}
			ws := open(bytes.NewReader(data))
			if ws == nil {
				t.Skip("does not open")
			}
			want, werr := iterTimes(ws)
			s := open(remoteish{bytes.NewReader(data)})
			got, gerr := listTimes(t, s)
			if (gerr != nil) != (werr != nil) {
				t.Fatalf("listing: %v; iteration: %v", gerr, werr)
			}
			sameTimes(t, tc.Name, onlyGood(t, open(bytes.NewReader(data)), got, want), want)

			// The same walk over whole pages (a page's parts never
			// worth it when a cell's first part is the page).
			saved := cellBytes
			cellBytes = 1 << 16
			ref := open(remoteish{bytes.NewReader(data)})
			_, rerr := listTimes(t, ref)
			cellBytes = saved
			if (gerr != nil) != (rerr != nil) {
				t.Fatalf("in parts: %v; whole: %v", gerr, rerr)
			}
			if gerr != nil && gerr.Error() != rerr.Error() {
				t.Fatalf("in parts: %v; whole: %v", gerr, rerr)
			}
			gs, gserr := s.Summary()
			rs, rserr := ref.Summary()
			if (gserr != nil) != (rserr != nil) || !reflect.DeepEqual(gs, rs) {
				t.Fatalf("the summary in parts:\n%+v (%v)\nwhole:\n%+v (%v)", gs, gserr, rs, rserr)
			}
		})
	}
}
