package db3

import (
	"encoding/binary"
	"slices"

	"github.com/bagscope/bagscope/bag"
)

// A remote file's read of a time window (a plot of 10 s, the message
// view's neighbourhood) works out the pages it will read before it reads a
// row, as MCAP's names its chunks: the interior pages of the index over
// the window and of the table over the window's row ids name their leaf
// pages, which are fetched together, exactly (a few multi-range requests
// over HTTP), when they add up to at most windowPrefetch bytes. Between
// them lie pages the read does not need (the overflow pages of another
// topic's large rows, other tables). The read-ahead stops at the last
// leaf (no sequential read-ahead runs past the window), and a random read
// (an interior page, a row's first overflow page) fetches just its page
// rather than whole blocks, so that the read fetches about the pages that
// hold the window (issue 25). A page it still needs is fetched when read.
// A local file, or a read with no end, reads as before.

// windowPrefetch is the most leaf bytes a window's read fetches ahead.
const windowPrefetch = 8 << 20

// boundRemote prepares the iteration's reads, once, before its first
// step: it reads the index's interior pages over the window and the
// table's over its row ids, page by page, fetches their leaves together
// and bounds the read-ahead. An error on the way is the iteration's.
func (it *fastIter) boundRemote() error {
	main := it.p
	probe := *main
	probe.r, probe.ra = bag.ReadAheadUpTo(it.s.r, 0), nil
	it.p = &probe
	defer func() { it.p = main }()
	main.r, main.ra = bag.ReadAheadUpTo(it.s.r, -1), nil
	firstID, okFirst := it.firstInWindow()
	lastID, lastLeaf, okLast := it.lastInWindow()
	if !okFirst || !okLast || firstID > lastID {
		return nil // an empty window, or an index the iteration will judge
	}
	budget := windowPrefetch / probe.pageSize
	var leaves []uint32
	ok := it.leavesIn(it.fp.index, it.indexSpan, &leaves, &budget, 0) &&
		it.leavesIn(it.fp.table, tableSpan(&probe, firstID, lastID), &leaves, &budget, 0)
	if !ok || len(leaves) == 0 {
		// Too much to fetch ahead (or pages the iteration will judge):
		// the read-ahead stops at the leaves of the window's last entry
		// and of its row, where a file written in time order ends it.
		if _, _, err := it.row(lastID); err != nil {
			return err
		}
		main.r = bag.ReadAheadUpTo(it.s.r, max(probe.offset(lastLeaf), probe.offset(it.leafNo))+int64(probe.pageSize))
		return nil
	}
	slices.Sort(leaves)
	var offs, lens []int64
	for _, n := range slices.Compact(leaves) {
		off := probe.offset(n)
		if k := len(offs) - 1; k >= 0 && offs[k]+lens[k] == off {
			lens[k] += int64(probe.pageSize)
			continue
		}
		offs, lens = append(offs, off), append(lens, int64(probe.pageSize))
	}
	it.release = bag.PrefetchHeldApart(it.s.r, offs, lens, 0)
	last := len(offs) - 1
	main.r = bag.ReadAheadUpTo(it.s.r, offs[last]+lens[last])
	return nil
}

// leavesIn adds to leaves the leaf pages under page n of a b-tree whose
// keys may fall in the window, reading the interior pages on the way:
// span says which children of an interior page do (cells a to b, b ==
// cells for the right child). The first such child is read (it is the
// window's first leaf, or an interior page); when it is a leaf, so are
// its siblings, which are not. ok is false when the pages do not read as
// a b-tree or the leaves exceed budget pages.
func (it *fastIter) leavesIn(n uint32, span func(fr *frame) (int, int, bool), leaves *[]uint32, budget *int, depth int) (ok bool) {
	if depth > 40 {
		return false
	}
	pg, err := it.p.page(n, nil)
	if err != nil {
		return false
	}
	hoff := headerOffset(n)
	h, good := parseBtreeHeader(pg, hoff, it.p.usable)
	if !good || hoff+h.size+2*h.cells > len(pg) {
		return false
	}
	if h.typ == pageIndexLeaf || h.typ == pageTableLeaf {
		*leaves = append(*leaves, n)
		*budget--
		return *budget >= 0
	}
	fr := &frame{pg: pg, h: h, hoff: hoff}
	a, b, good := span(fr)
	if !good {
		return false
	}
	leafLevel := false
	for j := a; j <= b; j++ {
		c := child(fr, j)
		if c == 0 {
			return false
		}
		if j == a {
			if !it.leavesIn(c, span, leaves, budget, depth+1) {
				return false
			}
			k := len(*leaves)
			leafLevel = k > 0 && (*leaves)[k-1] == c
			continue
		}
		if leafLevel {
			// The children are leaves.
			*leaves = append(*leaves, c)
			if *budget--; *budget < 0 {
				return false
			}
			continue
		}
		if !it.leavesIn(c, span, leaves, budget, depth+1) {
			return false
		}
	}
	return true
}

// indexSpan is leavesIn's span of an interior index page: the children
// that may hold entries from the window's start to its end.
func (it *fastIter) indexSpan(fr *frame) (int, int, bool) {
	a, ok1 := it.searchIndex(fr, func(ts int64) bool { return ts >= it.start })
	b, ok2 := it.searchIndex(fr, func(ts int64) bool { return ts > it.end })
	return a, b, ok1 && ok2 && a <= b
}

// searchIndex returns the first cell of an index page whose timestamp
// satisfies past (false for all before it, true for all after).
func (it *fastIter) searchIndex(fr *frame, past func(int64) bool) (int, bool) {
	lo, hi := 0, fr.h.cells
	for lo < hi {
		m := (lo + hi) / 2
		ts, _, err := it.indexKey(fr, m)
		if err != nil {
			return 0, false
		}
		if past(ts) {
			hi = m
		} else {
			lo = m + 1
		}
	}
	return lo, true
}

// tableSpan is leavesIn's span of an interior table page: the children
// that may hold rows first to last.
func tableSpan(p *pager, first, last int64) func(fr *frame) (int, int, bool) {
	return func(fr *frame) (int, int, bool) {
		search := func(id int64) (int, bool) {
			lo, hi := 0, fr.h.cells
			for lo < hi {
				m := (lo + hi) / 2
				c, err := p.parseCell(fr.pg, pageTableInterior, int(binary.BigEndian.Uint16(fr.pg[fr.hoff+fr.h.size+2*m:])))
				if err != nil {
					return 0, false
				}
				if c.RowID >= id {
					hi = m
				} else {
					lo = m + 1
				}
			}
			return lo, true
		}
		if fr.h.typ != pageTableInterior {
			return 0, 0, false
		}
		a, ok1 := search(first)
		b, ok2 := search(last)
		return a, b, ok1 && ok2 && a <= b
	}
}

// firstInWindow descends the index to the first entry whose timestamp is
// at least the window's start: its row id (found false when there is
// none, or the descent failed).
func (it *fastIter) firstInWindow() (id int64, found bool) {
	n := it.fp.index
	var buf []byte
	for depth := 0; depth < 40; depth++ {
		pg, err := it.p.page(n, buf)
		if err != nil {
			return id, false
		}
		buf = pg
		hoff := headerOffset(n)
		h, ok := parseBtreeHeader(pg, hoff, it.p.usable)
		if !ok || (h.typ != pageIndexLeaf && h.typ != pageIndexInterior) || hoff+h.size+2*h.cells > len(pg) {
			return id, false
		}
		fr := &frame{pg: pg, h: h, hoff: hoff}
		lo, ok := it.searchIndex(fr, func(ts int64) bool { return ts >= it.start })
		if !ok {
			return id, false
		}
		if lo < h.cells {
			// The first entry so far (a deeper one is earlier).
			_, k, err := it.indexKey(fr, lo)
			if err != nil {
				return id, false
			}
			id, found = k, true
		}
		if h.typ == pageIndexLeaf {
			return id, found
		}
		if n = child(fr, lo); n == 0 {
			return id, false
		}
	}
	return id, false
}

// lastInWindow descends the index to the last entry whose timestamp is at
// most the window's end: its row id (found false when there is none) and
// the index leaf page reached (0 when the descent failed; the iteration
// then says what is wrong).
func (it *fastIter) lastInWindow() (id int64, leaf uint32, found bool) {
	n := it.fp.index
	var buf []byte
	for depth := 0; depth < 40; depth++ {
		pg, err := it.p.page(n, buf)
		if err != nil {
			return id, 0, false
		}
		buf = pg
		hoff := headerOffset(n)
		h, ok := parseBtreeHeader(pg, hoff, it.p.usable)
		if !ok || (h.typ != pageIndexLeaf && h.typ != pageIndexInterior) || hoff+h.size+2*h.cells > len(pg) {
			return id, 0, false
		}
		fr := &frame{pg: pg, h: h, hoff: hoff}
		// The first cell past the end; the one before it is the last
		// entry so far (a deeper one is later).
		lo, hi := 0, h.cells
		for lo < hi {
			m := (lo + hi) / 2
			ts, _, err := it.indexKey(fr, m)
			if err != nil {
				return id, 0, false
			}
			if ts > it.end {
				hi = m
			} else {
				lo = m + 1
			}
		}
		if lo > 0 {
			_, k, err := it.indexKey(fr, lo-1)
			if err != nil {
				return id, 0, false
			}
			id, found = k, true
		}
		if h.typ == pageIndexLeaf {
			return id, n, found
		}
		if n = child(fr, lo); n == 0 {
			return id, 0, false
		}
	}
	return id, 0, false
}

// localKey reads a messages row's topic_id and timestamp from the part of
// its record on the table leaf (pay: the local bytes), without its
// overflow pages: ok false when they are not all there or not integers.
func localKey(pay []byte) (topic, ts int64, ok bool) {
	hsize, n := varint(pay)
	if n == 0 || hsize < uint64(n) || hsize > uint64(len(pay)) {
		return 0, 0, false
	}
	var cols [3]Column
	pos, body := n, hsize
	for k := range cols {
		if uint64(pos) >= hsize {
			return 0, 0, false
		}
		t, m := varint(pay[pos:hsize])
		if m == 0 {
			return 0, 0, false
		}
		pos += m
		sz, ok := serialSize(t)
		if !ok || body+sz > uint64(len(pay)) {
			return 0, 0, false
		}
		cols[k] = Column{Serial: t, Start: int(body), End: int(body + sz)}
		body += sz
	}
	topic, ok1 := intValue(pay, cols[1])
	ts, ok2 := intValue(pay, cols[2])
	return topic, ts, cols[0].Serial == 0 && ok1 && ok2
}
