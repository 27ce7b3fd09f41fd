package db3

import (
	"encoding/binary"
	"sort"
	"sync/atomic"

	"github.com/bagscope/bagscope/bag"
)

// A file that is its folder's only one opens without counting its rows
// (metadata.yaml has the counts), so SQLite has not yet read the messages
// table when Open returns, and damage the lone file's count would have
// met goes unseen. Two things make up for it:
//
//   - on open, treesSound walks the interior pages of the messages table
//     and of its timestamp index (167 pages for a million rows, about
//     0.2 ms) and, when one is not what it should be, the rows are
//     counted and the pages surveyed at once, as for a lone file, so a
//     damaged file is rescued from its pages on open;
//   - damage on a leaf page shows only when it is read: the first read
//     that fails or meets a page that fails its checks (a message
//     iteration, a message by location, Check) counts the rows and
//     surveys the pages and, when SQLite refuses them or the survey finds
//     damage, hands the store over to a rescue of the file exactly as a
//     lone file's open makes it (rescuedStore); an iteration goes on from
//     the rescued rows after the last message it gave.

// maxSoundPages bounds the interior pages treesSound reads.
const maxSoundPages = 1 << 14

// treesSound reports whether the interior pages of a b-tree (root page
// root; a table's, or an index's when index is set) are b-tree pages of
// its kind that pass their checks (pageProblem, without the key ranges
// their parents give), whose children lie in the file, each page reached
// once. Of the leaves, only the first byte of one is read, to know that
// they are leaves.
func (s *Store) treesSound(root uint32, index bool) bool {
	interiorType, leafType := byte(pageTableInterior), byte(pageTableLeaf)
	if index {
		interiorType, leafType = pageIndexInterior, pageIndexLeaf
	}
	p := newPager(s.r, s.size, s.hdr.pageSize, s.hdr.reserved)
	seen := make([]uint64, p.pages/64+1) // a bit per page reached
	mark := func(n uint32) bool {        // false when n is not a page or is reached twice
		if n < 2 || n > p.pages || seen[n/64]&(1<<(n%64)) != 0 {
			return false
		}
		seen[n/64] |= 1 << (n % 64)
		return true
	}
	if !mark(root) {
		return false
	}
	var buf []byte
	read := 0
	level := []uint32{root}
	for depth := 0; depth <= 40 && read <= maxSoundPages; depth++ {
		var next []uint32
		leaves := false // the children of this level are leaves
		for i, n := range level {
			read++
			pg, err := p.page(n, buf)
			if err != nil {
				return false
			}
			buf = pg
			hoff := headerOffset(n)
			h, ok := parseBtreeHeader(pg, hoff, p.usable)
			if ok && h.typ == leafType && depth == 0 {
				return p.pageProblem(pg, n, hoff, h, keyRange{}) == "" // a tree of one page
			}
			if !ok || h.typ != interiorType || hoff+h.size+2*h.cells > len(pg) {
				return false
			}
			if p.pageProblem(pg, n, hoff, h, keyRange{}) != "" {
				return false
			}
			base := hoff + h.size
			for j := 0; j <= h.cells; j++ {
				c := h.rightChild
				if j < h.cells {
					cp := int(binary.BigEndian.Uint16(pg[base+2*j:]))
					if cp+4 > p.usable {
						return false
					}
					c = binary.BigEndian.Uint32(pg[cp:])
				}
				if !mark(c) {
					return false
				}
				if i == 0 && j == 0 {
					var t [1]byte
					if _, err := s.r.ReadAt(t[:], p.offset(c)); err != nil {
						return false
					}
					leaves = t[0] == leafType
				}
				if !leaves {
					next = append(next, c)
				}
			}
		}
		if leaves {
			return true
		}
		level = next
	}
	return true // deeper or larger than walked: left to the reads
}

// rescuedStore returns the store that replaces s after a read met damage,
// or nil when s is read through SQLite for good. When s opened without
// counting its rows and SQLite now refuses to count them, s's file is
// read from its pages as Open reads a lone file SQLite refuses; else the
// pages are surveyed (see surveyed), once.
func (s *Store) rescuedStore() *Store {
	if r := s.swap.Load(); r != nil {
		return r
	}
	if s.sq == nil {
		return nil
	}
	if s.deferred {
		if cerr := s.counted(); cerr != nil {
			s.swapTo(s.refused(cerr))
			return s.swap.Load()
		}
	}
	return s.surveyed()
}

// healIter is the message iteration of a store read through SQLite
// whose pages have not all been checked: a read of every message (whole)
// surveys the pages; any read that fails (a page that fails its checks,
// SQLite refusing a row) asks rescuedStore whether the store needs a
// rescue, and goes on with the rescued rows after the last message given.
//
// A whole read through the fast read surveys the pages beside the read,
// on a goroutine of its own (the survey is a second pass over the file:
// before the first message it cost as much as the read, issue 29). The
// fast read then checks each page it reads, as a partial read does, and
// gives a message only from pages that pass; a page that fails, or
// anything that would hand the read over to SQL, waits for the survey's
// verdict; and the read's end waits for it too, so that damage the
// survey finds elsewhere hands over to the rescue after the last message
// given, as a partial read does. What is given does not depend on which
// of the two goes faster.
type healIter struct {
	s       *Store
	f       bag.MessageFilter
	inner   bag.MessageIter
	whole   bool
	checked bool
	last    [2]int64 // (timestamp, row id) of the last message given
	given   bool
	healed  bool
	// beside, when not nil, gives the survey's verdict (the rescue, or
	// nil) once the survey running beside the read is done.
	beside     chan *Store
	besideDone bool
	besideRes  *Store
}

// besideVerdict waits for the survey running beside the read and returns
// its rescue (nil: no damage).
func (it *healIter) besideVerdict() *Store {
	if !it.besideDone {
		it.besideRes, it.besideDone = <-it.beside, true
	}
	return it.besideRes
}

func (it *healIter) Next() bool {
	if !it.checked {
		it.checked = true
		if fi, ok := it.inner.(*fastIter); it.whole && ok && fi.check && !surveyFirst.Load() {
			fi.awaitSurvey = true
			it.beside = make(chan *Store, 1)
			go func(s *Store, c chan<- *Store) { c <- s.surveyed() }(it.s, it.beside)
		} else if it.whole {
			if r := it.s.surveyed(); r != nil {
				it.inner.Close()
				it.healed = true
				it.inner = r.rescueAfter(it.f, it.last, false)
			}
		}
	}
	for {
		if it.inner.Next() {
			m := it.inner.Message()
			it.last, it.given = [2]int64{m.Time.Nanos(), RowID(m.Loc)}, true
			return true
		}
		if it.healed {
			return false
		}
		if it.inner.Err() == nil {
			if it.beside == nil {
				return false
			}
			// The read's end: the survey beside it may have found damage
			// the read did not meet.
			r := it.besideVerdict()
			if r == nil {
				return false
			}
			it.inner.Close()
			it.healed = true
			it.inner = r.rescueAfter(it.f, it.last, it.given)
			continue
		}
		r := it.s.rescuedStore()
		if r == nil {
			return false
		}
		it.inner.Close()
		it.healed = true
		it.inner = r.rescueAfter(it.f, it.last, it.given)
	}
}

func (it *healIter) Message() *bag.Message { return it.inner.Message() }
func (it *healIter) Err() error            { return it.inner.Err() }

// Close ends the read; a survey running beside it is waited for (it
// costs no more than the survey a whole read ran before its first message
// did, and no goroutine outlives the read).
func (it *healIter) Close() {
	it.inner.Close()
	if it.beside != nil {
		it.besideVerdict()
	}
}

// Unwrap returns the iteration it wraps.
func (it *healIter) Unwrap() bag.MessageIter { return it.inner }

// surveyFirst makes a whole read survey the pages before its first
// message, as before the survey ran beside the read (for tests and
// comparisons).
var surveyFirst atomic.Bool

// rescueAfter iterates over the rescued messages a filter selects, after
// (timestamp, row id) last when given is true.
func (s *Store) rescueAfter(f bag.MessageFilter, last [2]int64, given bool) bag.MessageIter {
	ids, all := s.selected(f)
	it := s.rescueMessages(ids, all, f).(*rescueIter)
	if given {
		msgs := s.rescue.msgs
		after := sort.Search(len(msgs), func(i int) bool {
			return msgs[i].ts > last[0] || msgs[i].ts == last[0] && msgs[i].rowid > last[1]
		})
		it.pos = max(it.pos, after)
	}
	return it
}
