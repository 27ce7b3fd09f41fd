package db3

import (
	"context"
	"slices"
	"sync/atomic"

	"github.com/bagscope/bagscope/bag"
)

// Partial page reads (issue 25). A remote file's message times need of
// each leaf page of the messages table only its header, its cell pointer
// array and each cell's first bytes (the payload size and row id
// varints, the record header, the topic_id and timestamp columns); the
// rest of a cell is the message's data. On a recording of large messages
// the leaves are mostly data: fetching those parts only, coalesced into
// multi-range requests, fetches a fraction of the leaves. A page is read
// in rounds, all pages of a batch together in each: the header and a
// guess of the pointer array first, then what is missing of the pointers,
// then each cell's first cellBytes, then what a cell's record header
// needs past them (a long header, a large varint). Each round is one
// prefetch of every page's parts (bag.PrefetchHeldApart), the parts then
// copied into a page-sized buffer whose other bytes stay zero: the walk
// reads it as it reads a whole page, and only the fetched bytes are ever
// looked at (the checks of pageProblem look at the header, the pointers,
// the cells' varints; a page with freeblocks is read whole).
//
// Where the parts would cost more than about half the page (many small
// rows: a part's multipart header is ~125 bytes (nginx), and parts closer than
// partGap are joined), the page is read whole. Each batch says how many
// of its leaves the parts would have served; the next batch starts with
// the headers when most would, and with whole pages otherwise (pages
// fetched whole are judged too, from their bytes, so a file whose rows
// grow is seen to). A level of few pages (the interior levels) is read
// whole.

// cellBytes is how much of a cell the first round of cells fetches: the
// varints (at most 18 bytes) and a rosbag2 row's record header (5-13
// bytes), topic_id and timestamp (up to 16). (A variable: the tests
// make it small, so that the record headers spill past it.)
var cellBytes = 48

const (
	// partGap joins parts closer than this: a multipart part's headers
	// cost about as much.
	partGap = 128
	// partCost is what a part of a multipart answer costs besides its
	// bytes (its boundary and headers).
	partCost = 125
	// smallLevel is the size of a level read whole (interior levels).
	smallLevel = 64
	// maxRounds bounds the rounds of a page read in parts: what is still
	// missing after them is read whole.
	maxRounds = 5
)

// pageRead is a page as a batch fetched it: pg holds the fetched bytes
// (zero elsewhere); err says a read failed or the page lies past the
// file, and the walk reads it itself (and meets the same error).
type pageRead struct {
	pg    []byte
	have  []span // the fetched spans, in order, joined
	whole bool
	err   bool
}

// has reports whether [a, b) was fetched.
func (r *pageRead) has(a, b int) bool {
	if r.whole {
		return true
	}
	if a >= b {
		return true
	}
	i, _ := slices.BinarySearchFunc(r.have, a, func(s span, a int) int {
		if s.end <= a {
			return -1
		}
		if s.off > a {
			return 1
		}
		return 0
	})
	return i < len(r.have) && r.have[i].off <= a && b <= r.have[i].end
}

// add marks [a, b) fetched.
func (r *pageRead) add(a, b int) {
	r.have = append(r.have, span{a, b})
	slices.SortFunc(r.have, cmpSpan)
	out := r.have[:1]
	for _, s := range r.have[1:] {
		if last := &out[len(out)-1]; s.off <= last.end {
			last.end = max(last.end, s.end)
		} else {
			out = append(out, s)
		}
	}
	r.have = out
}

// missing returns the spans of [0, size) not fetched.
func (r *pageRead) missing(size int) []span {
	var out []span
	at := 0
	for _, s := range r.have {
		if s.off > at {
			out = append(out, span{at, s.off})
		}
		at = max(at, s.end)
	}
	if at < size {
		out = append(out, span{at, size})
	}
	return out
}

// batchStats is what a batch of pages says of the next: how many leaves
// it judged, how many the parts would serve, the most cells a page held.
type batchStats struct {
	leaves, partial, maxCells int
}

// partialFirst reports whether a batch after one with stats st starts
// with the headers (reads pages in parts where they are worth it).
func (st batchStats) partialFirst() bool {
	return st.leaves > 0 && 2*st.partial > st.leaves
}

// leafNeeds returns what page r (number n) still needs fetched for the
// walk, or whole when it is to be read whole (not a leaf of the table,
// freeblocks, the parts not worth it, or anything odd, which the whole
// page then shows as it shows locally). judged is set once the pointers
// are known, with worth telling whether the parts were worth it.
func (p *pager) leafNeeds(r *pageRead, n uint32) (need []span, whole, judged, worth bool) {
	hoff := headerOffset(n)
	if !r.has(0, hoff+8) {
		return nil, true, false, false
	}
	pg := r.pg
	h, ok := parseBtreeHeader(pg, hoff, p.usable)
	if !ok || h.typ != pageTableLeaf || h.firstFree != 0 {
		return nil, true, false, false
	}
	base := hoff + h.size
	ptrEnd := base + 2*h.cells
	if !r.has(base, ptrEnd) {
		return []span{{base, ptrEnd}}, false, false, false
	}
	// What the cells' first bytes would cost, against the rest of the page.
	cost, prevEnd := 0, -1
	ptrs := make([]int, h.cells)
	for i := range ptrs {
		off := cellPointer(pg, hoff, h, i)
		if off < h.contentStart || off >= p.usable {
			return nil, true, true, false
		}
		ptrs[i] = off
	}
	sorted := slices.Clone(ptrs)
	slices.Sort(sorted)
	for _, off := range sorted {
		end := min(off+cellBytes, p.usable)
		if prevEnd >= 0 && off <= prevEnd+partGap {
			cost += max(0, end-max(off, prevEnd))
		} else {
			cost += end - off + partCost
		}
		prevEnd = max(prevEnd, end)
	}
	rest := p.pageSize - ptrEnd
	if 2*cost > rest {
		return nil, true, true, false
	}
	for _, off := range ptrs {
		first := min(off+cellBytes, p.usable)
		if !r.has(off, first) {
			need = append(need, span{off, first})
			continue
		}
		c, err := p.parseCell(pg, pageTableLeaf, off)
		if err != nil {
			continue // the walk meets the same error on these bytes
		}
		has := func(a, b int) bool { return r.has(c.PayloadOff+a, c.PayloadOff+b) }
		if end, done := recordNeeds(pg[c.PayloadOff:c.PayloadOff+c.Local], has); !done {
			need = append(need, span{c.PayloadOff, c.PayloadOff + end})
		}
	}
	return need, false, true, true
}

// recordNeeds returns how many bytes of a record's local part the walk's
// recordPrefix and intValue read (its header and the first three
// columns, at most the local part) as far as the bytes it has tell, and
// whether it has them all: it looks only at bytes it has (the header
// size's varint first, then the header).
func recordNeeds(local []byte, has func(a, b int) bool) (end int, done bool) {
	// Each step asks for a little more than it knows it needs (a rosbag2
	// row's header and columns), so that a spilling header takes one
	// more round, rarely two.
	const more = 40
	end = min(9, len(local))
	if !has(0, end) {
		return min(end+more, len(local)), false
	}
	hsize, n := varint(local)
	if n == 0 || hsize > uint64(len(local)) {
		return end, true // recordPrefix reads no further
	}
	if !has(0, int(hsize)) {
		return int(min(hsize+more, uint64(len(local)))), false
	}
	e, pos := hsize, uint64(n)
	for k := 0; k < 3 && pos < hsize; k++ {
		t, m := varint(local[pos:hsize])
		if m == 0 {
			break
		}
		pos += uint64(m)
		sz, ok := serialSize(t)
		if !ok || sz > uint64(len(local)) {
			e = uint64(len(local))
			break
		}
		e += sz
	}
	end = int(min(e, uint64(len(local))))
	return end, has(0, end)
}

// fetchPages fetches a batch of table pages (see above): whole when
// partial is false, else in parts where they are worth it, the first
// round asking for est cell pointers. It returns the pages and what they
// say of the next batch.
func (s *Store) fetchPages(ctx context.Context, p *pager, refs []tableRef, partial bool, est int) ([]pageRead, batchStats) {
	reads := make([]pageRead, len(refs))
	want := make([][]span, len(refs))
	for i, r := range refs {
		rd := &reads[i]
		if r.n == 0 || r.n > p.pages || p.offset(r.n)+int64(p.pageSize) > p.size {
			rd.err = true
			continue
		}
		rd.pg = make([]byte, p.pageSize)
		if partial {
			want[i] = []span{{0, min(headerOffset(r.n)+12+2*est, p.pageSize)}}
		} else {
			want[i] = []span{{0, p.pageSize}}
		}
	}
	var st batchStats
	judged := make([]bool, len(refs))
	for round := 0; ; round++ {
		var offs, lens []int64
		for i, w := range want {
			base := p.offset(refs[i].n)
			for _, sp := range w {
				offs = append(offs, base+int64(sp.off))
				lens = append(lens, int64(sp.end-sp.off))
			}
		}
		if len(offs) == 0 || ctx.Err() != nil {
			break
		}
		release := bag.PrefetchHeldApart(p.r, offs, lens, partGap)
		for i, w := range want {
			rd := &reads[i]
			base := p.offset(refs[i].n)
			for _, sp := range w {
				if k, _ := p.r.ReadAt(rd.pg[sp.off:sp.end], base+int64(sp.off)); k < sp.end-sp.off {
					rd.err = true
					break
				}
				rd.add(sp.off, sp.end)
			}
			if !rd.err && len(rd.have) == 1 && rd.have[0] == (span{0, p.pageSize}) {
				rd.whole = true
			}
		}
		release()
		for i := range want {
			rd := &reads[i]
			want[i] = nil
			if rd.err {
				continue
			}
			need, whole, j, worth := p.leafNeeds(rd, refs[i].n)
			if j && !judged[i] {
				judged[i] = true
				st.leaves++
				if worth {
					st.partial++
				}
				st.maxCells = max(st.maxCells, headerCells(rd.pg, refs[i].n))
			}
			if rd.whole {
				continue
			}
			if whole || round+1 >= maxRounds {
				want[i] = rd.missing(p.pageSize)
				continue
			}
			want[i] = need
		}
	}
	for i := range reads {
		if !reads[i].err && !reads[i].whole {
			partialPages.Add(1)
		} else if !reads[i].err {
			wholePages.Add(1)
		}
	}
	return reads, st
}

// partialPages and wholePages count the table pages remote walks read in
// parts and whole (the tests look).
var partialPages, wholePages atomic.Int64

// headerCells reads the cell count of page n's b-tree header.
func headerCells(pg []byte, n uint32) int {
	hoff := headerOffset(n)
	if hoff+5 > len(pg) {
		return 0
	}
	return int(pg[hoff+3])<<8 | int(pg[hoff+4])
}
