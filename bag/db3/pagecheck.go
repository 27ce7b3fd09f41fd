package db3

import (
	"encoding/binary"
	"fmt"
	"slices"
)

// SQLite keeps no checksum of its pages, so damage inside a page shows
// only as a page whose structure does not add up. pageProblem checks what
// SQLite's integrity check checks of one b-tree page: the cell pointers
// lie in the cell content area, cells and freeblocks do not overlap, the
// freeblock list is in order and in the page, the bytes add up (cells,
// freeblocks and fragments fill the content area exactly), and a table
// page's keys rise and lie within the range its parent gives it. A row
// read from a page that fails is suspect; an overwrite that lands inside
// one row's data changes none of this and cannot be seen.

// keyRange is the range (lo, hi] of row ids a table page may hold, as its
// parent's cells bound it; an open side has no bound.
type keyRange struct {
	lo, hi       int64
	hasLo, hasHi bool
}

// contains reports whether key k lies in the range.
func (r keyRange) contains(k int64) bool {
	return (!r.hasLo || k > r.lo) && (!r.hasHi || k <= r.hi)
}

// child returns the range of the child left of an interior cell with key
// k (the previous cell's key being prev, when hasPrev).
func (r keyRange) child(prev int64, hasPrev bool, k int64) keyRange {
	out := keyRange{lo: r.lo, hasLo: r.hasLo, hi: k, hasHi: true}
	if hasPrev {
		out.lo, out.hasLo = prev, true
	}
	return out
}

// span is a run of a page's bytes [off, end).
type span struct{ off, end int }

// pageProblem returns what is wrong with the structure of b-tree page n
// (its bytes pg, its header h at hoff), or "" when nothing is; bounds
// applies to table pages.
func (p *pager) pageProblem(pg []byte, n uint32, hoff int, h btreeHeader, bounds keyRange) string {
	usable := min(p.usable, len(pg))
	if len(pg) < p.pageSize {
		return fmt.Sprintf("page %d is cut after %d of %d bytes", n, len(pg), p.pageSize)
	}
	ptrEnd := hoff + h.size + 2*h.cells
	if h.cells > 0 && h.contentStart < ptrEnd || h.contentStart > usable {
		return fmt.Sprintf("page %d: its cell content area starts at %d, inside its header and cell pointers (which end at %d)", n, h.contentStart, ptrEnd)
	}
	// Most pages hold fewer than 512 cells: their spans stay on the
	// stack (the survey checks every page of the file).
	var spans [512]span
	used := spans[:0]
	if h.cells+4 > len(spans) {
		used = make([]span, 0, h.cells+4)
	}
	table := h.typ == pageTableLeaf || h.typ == pageTableInterior
	var prev int64
	for i := range cellCount(pg, hoff, h) {
		off := cellPointer(pg, hoff, h, i)
		if off < h.contentStart || off >= usable {
			return fmt.Sprintf("page %d: cell %d's pointer %d lies outside the cell content area %d..%d", n, i, off, h.contentStart, usable)
		}
		c, err := p.parseCell(pg, h.typ, off)
		if err != nil {
			return fmt.Sprintf("page %d: cell %d at %d: %v", n, i, off, err)
		}
		if off+c.Len > usable {
			return fmt.Sprintf("page %d: cell %d at %d runs past the page's usable bytes", n, i, off)
		}
		used = append(used, span{off, off + c.Len})
		if table {
			if i > 0 && c.RowID <= prev {
				return fmt.Sprintf("page %d: row id %d of cell %d does not rise above %d (key order)", n, c.RowID, i, prev)
			}
			if !bounds.contains(c.RowID) {
				return fmt.Sprintf("page %d: row id %d of cell %d lies outside the range its parent gives the page (key order)", n, c.RowID, i)
			}
			prev = c.RowID
		}
		if (h.typ == pageTableInterior || h.typ == pageIndexInterior) && c.Child < 2 {
			return fmt.Sprintf("page %d: cell %d points to page %d", n, i, c.Child)
		}
	}
	free := 0
	for off, steps := h.firstFree, 0; off != 0; steps++ {
		if steps > usable/4 || off < h.contentStart || off+4 > usable {
			return fmt.Sprintf("page %d: freeblock at %d lies outside the cell content area", n, off)
		}
		next := int(binary.BigEndian.Uint16(pg[off:]))
		size := int(binary.BigEndian.Uint16(pg[off+2:]))
		if size < 4 || off+size > usable {
			return fmt.Sprintf("page %d: freeblock at %d of %d bytes does not fit the page", n, off, size)
		}
		if next != 0 && next < off+size {
			return fmt.Sprintf("page %d: freeblock at %d is followed by one at %d, not after it", n, off, next)
		}
		used = append(used, span{off, off + size})
		free += size
		off = next
	}
	// Cells are mostly stored from the page's end down: reversed, they
	// are in order already.
	slices.Reverse(used)
	if !slices.IsSortedFunc(used, cmpSpan) {
		slices.SortFunc(used, cmpSpan)
	}
	total := 0
	for i, s := range used {
		if i > 0 && s.off < used[i-1].end {
			return fmt.Sprintf("page %d: bytes %d..%d are claimed twice (overlapping cells or freeblocks)", n, s.off, used[i-1].end)
		}
		total += s.end - s.off
	}
	if want := usable - h.contentStart; total+h.fragmented != want {
		return fmt.Sprintf("page %d: cells, freeblocks and %d fragmented bytes take %d bytes of the %d-byte content area", n, h.fragmented, total+h.fragmented, want)
	}
	return ""
}

// cmpSpan orders spans by their start.
func cmpSpan(a, b span) int { return a.off - b.off }
