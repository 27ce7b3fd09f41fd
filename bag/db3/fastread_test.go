package db3

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/sweeptest"
)

// bothPaths reads a store's messages with a filter through the fast path
// and through SQL alone, and returns both, with whether the fast
// iteration handed over to SQL.
func bothPaths(t *testing.T, s bag.Storage, f bag.MessageFilter) (fast, slow []row, ferr, serr error, fellBack bool) {
	t.Helper()
	before := fastFallbacks.Load()
	fast, ferr = readAll(t, s, f)
	fellBack = fastFallbacks.Load() != before
	noFast.Store(true)
	defer noFast.Store(false)
	slow, serr = readAll(t, s, f)
	return
}

// filters returns the filters compared: all, a time range from the
// middle, each topic.
func filters(s bag.Storage, rows []row) []bag.MessageFilter {
	out := []bag.MessageFilter{{}}
	if len(rows) > 2 {
		out = append(out, bag.MessageFilter{Start: bag.TimeFromNanos(rows[len(rows)/3].ts), End: bag.TimeFromNanos(rows[2*len(rows)/3].ts)})
		out = append(out, bag.MessageFilter{Start: bag.TimeFromNanos(rows[len(rows)/2].ts + 1)})
	}
	for _, c := range s.Connections() {
		out = append(out, bag.MessageFilter{Topics: []string{c.Topic}})
	}
	return out
}

func sameExactly(t *testing.T, what string, got, want []row) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: fast path gives %d messages, SQL %d", what, len(got), len(want))
	}
	for i := range want {
		g, w := got[i], want[i]
		if g.id != w.id || g.topic != w.topic || g.ts != w.ts || !bytes.Equal(g.data, w.data) {
			t.Fatalf("%s: message %d: fast row %d topic %d ts %d, SQL row %d topic %d ts %d", what, i, g.id, g.topic, g.ts, w.id, w.topic, w.ts)
		}
	}
}

// TestFastPathSharedBags compares every message of every shared .db3,
// under several filters, between the page reader and SQL.
func TestFastPathSharedBags(t *testing.T) {
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
			s := openFile(t, p)
			all, err := readAll(t, s, bag.MessageFilter{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range filters(s, all) {
				fast, slow, ferr, serr, fell := bothPaths(t, s, f)
				if ferr != nil || serr != nil {
					t.Fatalf("fast: %v; SQL: %v", ferr, serr)
				}
				if fell {
					t.Errorf("filter %+v: the fast path handed over to SQL on a healthy file", f)
				}
				sameExactly(t, "shared", fast, slow)
			}
		})
	}
}

// fastDamageEvery: without -long, TestFastPathGenerated damages one in
// so many of its leaf pages (index leaves and every 7th table leaf; the
// sample shifts with BAGSCOPE_SAMPLE), and every interior page: each
// damaged copy is opened and read by both paths, SQLite's under -race
// and checkptr, and the whole sweep was bag/db3's longest test (361 s at
// load 30). go test -long (make test-long) damages every one.
const fastDamageEvery = 3

// TestFastPathGenerated compares the paths on generated bags: plain,
// many messages (deep trees, overflow pages), WAL (which must read SQL),
// and files whose index or table pages are damaged where SQLite still
// opens them (the fast path must hand over or agree, never differ).
func TestFastPathGenerated(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "g.db3")
	makeBag(t, p, 3000)
	s := openFile(t, p)
	all, _ := readAll(t, s, bag.MessageFilter{})
	for _, f := range filters(s, all) {
		fast, slow, ferr, serr, fell := bothPaths(t, s, f)
		if ferr != nil || serr != nil || fell {
			t.Fatalf("fast: %v; SQL: %v; fell back %v", ferr, serr, fell)
		}
		sameExactly(t, "generated", fast, slow)
	}

	wp := filepath.Join(t.TempDir(), "w.db3")
	makeBag(t, wp, 300, "--wal", "--uncommitted", "40")
	ws := openFile(t, wp)
	if fp := bag.Underlying(ws).(*Store).fast(); fp.ok {
		t.Fatal("a file with a hot WAL takes the fast path")
	}

	// Damage: each index page in turn, and some table leaf pages,
	// garbled; where the file still opens through SQLite, the fast path
	// must give what SQL gives, or hand over to it.
	healthy, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	st := bag.Underlying(s).(*Store)
	fp := st.fast()
	if !fp.ok {
		t.Fatal("no fast path: " + fp.reason)
	}
	ps := fp.p.pageSize
	var targets []int
	for n := 2; n <= len(healthy)/ps; n++ {
		typ := healthy[(n-1)*ps]
		if typ == pageIndexLeaf || typ == pageIndexInterior || (typ == pageTableLeaf && n%7 == 0) {
			targets = append(targets, n)
		}
	}
	sweeptest.Note(t, fastDamageEvery, "the damaged leaf pages (every interior page is damaged)")
	for i, n := range targets {
		if typ := healthy[(n-1)*ps]; typ != pageIndexInterior && !sweeptest.Keep(i, fastDamageEvery) {
			continue
		}
		for _, how := range []string{"type", "cells", "pointer"} {
			b := bytes.Clone(healthy)
			pg := b[(n-1)*ps : n*ps]
			switch how {
			case "type":
				pg[0] = 0x05 ^ pg[0]
			case "cells":
				binary.BigEndian.PutUint16(pg[3:], 0xffff)
			case "pointer":
				off := 8
				if pg[0] == pageIndexInterior || pg[0] == pageTableInterior {
					off = 12
				}
				binary.BigEndian.PutUint16(pg[off:], uint16(ps-3))
			}
			dp := filepath.Join(t.TempDir(), "d.db3")
			os.WriteFile(dp, b, 0o644)
			f, _ := os.Open(dp)
			ds, err := Open(f, int64(len(b)), dp)
			if err != nil {
				f.Close()
				continue
			}
			fast, slow, ferr, serr, fell := bothPaths(t, ds, bag.MessageFilter{})
			if ferr == nil && !fell && serr == nil {
				sameExactly(t, "damaged page "+itoa(n)+" "+how, fast, slow)
			}
			if ferr == nil && serr == nil {
				sameExactly(t, "damaged page "+itoa(n)+" "+how, fast, slow)
			}
			// A fast read that succeeds where SQL fails must still give
			// only true rows.
			if ferr == nil && serr != nil {
				want := byID(all)
				for _, g := range fast {
					w, ok := want[g.id]
					if !ok || w.ts != g.ts || w.topic != g.topic || !bytes.Equal(w.data, g.data) {
						t.Fatalf("damaged page %d %s: fast path gives a wrong row %d", n, how, g.id)
					}
				}
			}
			ds.Close()
			f.Close()
		}
	}
}
