package db3

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// pager reads a database's pages from an io.ReaderAt.
type pager struct {
	r        io.ReaderAt
	size     int64
	pageSize int
	usable   int
	// pages is the number of whole or partial pages in the file.
	pages uint32
	// ra, when set, reads pages through a few large windows (one
	// iteration's pager; not safe for concurrent use).
	ra *readAhead
}

// Read-ahead windows: a page read outside them reads raWindow bytes from
// it on. An iteration in timestamp order of a file written in that order
// reads the table, index and overflow pages of a region together.
const (
	raWindow  = 256 << 10
	raWindows = 4
)

// readAhead serves page reads from a few windows of the file, replacing
// the least recently used, so that reading page after page costs a
// system call per window, not per page.
type readAhead struct {
	r    io.ReaderAt
	size int64
	win  [raWindows]struct {
		off  int64
		data []byte
		used uint64
	}
	tick uint64
}

// readAt reads len(b) bytes at off as io.ReaderAt does. A window starts
// at a multiple of raWindow (the page sizes divide it), so that pages read
// backwards, as a walk of a tree from its last child does, share windows
// as pages read forwards do; a read that would straddle two such windows
// gets a window of its own from off.
func (ra *readAhead) readAt(b []byte, off int64) (int, error) {
	ra.tick++
	end := off + int64(len(b))
	lru := 0
	for i := range ra.win {
		w := &ra.win[i]
		if off >= w.off && end <= w.off+int64(len(w.data)) {
			w.used = ra.tick
			return copy(b, w.data[off-w.off:]), nil
		}
		if w.used < ra.win[lru].used {
			lru = i
		}
	}
	start := off &^ (raWindow - 1)
	if off < 0 || end > start+raWindow {
		start = off
	}
	n := min(int64(raWindow), ra.size-start)
	if end > start+n {
		return ra.r.ReadAt(b, off) // past the end, or larger than a window
	}
	w := &ra.win[lru]
	if cap(w.data) < int(n) {
		w.data = make([]byte, raWindow)
	}
	if k, _ := ra.r.ReadAt(w.data[:n], start); int64(k) < n {
		w.data, w.used = w.data[:0], 0
		return ra.r.ReadAt(b, off) // let the file say what is wrong
	}
	w.off, w.data, w.used = start, w.data[:n], ra.tick
	return copy(b, w.data[off-start:]), nil
}

// readAt reads len(b) bytes at off, through the read-ahead windows when
// the pager has them.
func (p *pager) readAt(b []byte, off int64) (int, error) {
	if p.ra != nil {
		return p.ra.readAt(b, off)
	}
	return p.r.ReadAt(b, off)
}

func newPager(r io.ReaderAt, size int64, pageSize, reserved int) *pager {
	if reserved >= pageSize-480 { // SQLite requires usable >= 480
		reserved = 0
	}
	p := &pager{r: r, size: size, pageSize: pageSize, usable: pageSize - reserved}
	n := (size + int64(pageSize) - 1) / int64(pageSize)
	if n > 1<<32-1 {
		n = 1<<32 - 1
	}
	p.pages = uint32(n)
	return p
}

// offset returns page n's file offset.
func (p *pager) offset(n uint32) int64 { return int64(n-1) * int64(p.pageSize) }

// page reads page n (1-based) into buf (reused when big enough). A page
// cut by the end of the file is returned with the bytes there are and an
// ErrTruncated error.
func (p *pager) page(n uint32, buf []byte) ([]byte, error) {
	if n == 0 || n > p.pages {
		return nil, &FormatError{Offset: p.offset(max(n, 1)), Page: n, Msg: fmt.Sprintf("page %d is past the file's %d pages", n, p.pages), Err: ErrTruncated}
	}
	if cap(buf) < p.pageSize {
		buf = make([]byte, p.pageSize)
	}
	buf = buf[:p.pageSize]
	off := p.offset(n)
	k, err := p.readAt(buf, off)
	if k < p.pageSize {
		if err == nil || errors.Is(err, io.EOF) {
			return buf[:k], &FormatError{Offset: off, Page: n, Msg: fmt.Sprintf("page cut after %d of %d bytes", k, p.pageSize), Err: ErrTruncated}
		}
		return buf[:k], err
	}
	return buf, nil
}

// headerOffset is where page n's b-tree header starts.
func headerOffset(n uint32) int {
	if n == 1 {
		return HeaderSize
	}
	return 0
}

// cell is one cell of a b-tree page.
type cell struct {
	// Off is the cell's offset in its page; Len the bytes it takes there.
	Off, Len int
	// Child is the left child page of an interior cell.
	Child uint32
	// RowID is a table cell's key.
	RowID int64
	// PayloadSize is the payload's full size; Local how much of it is on
	// the page, starting at page offset PayloadOff.
	PayloadSize uint64
	Local       int
	PayloadOff  int
	// Overflow is the first overflow page (0 for none).
	Overflow uint32
}

// parseCell reads the cell at page offset off of a page of type typ.
func (p *pager) parseCell(pg []byte, typ byte, off int) (cell, error) {
	c := cell{Off: off}
	if off < 0 || off >= len(pg) || off >= p.usable {
		return c, fmt.Errorf("cell offset %d outside the page", off)
	}
	b := pg[off:min(len(pg), p.usable)]
	pos := 0
	if typ == pageTableInterior || typ == pageIndexInterior {
		if len(b) < 4 {
			return c, errors.New("cell cut")
		}
		c.Child = binary.BigEndian.Uint32(b)
		pos = 4
	}
	if typ == pageTableInterior {
		v, n := varint(b[pos:])
		if n == 0 {
			return c, errors.New("cell cut")
		}
		c.RowID = int64(v)
		c.Len = pos + n
		return c, nil
	}
	v, n := varint(b[pos:])
	if n == 0 {
		return c, errors.New("cell cut")
	}
	pos += n
	c.PayloadSize = v
	if v > MaxPayload {
		return c, fmt.Errorf("payload size %d is too large", v)
	}
	if typ == pageTableLeaf {
		v, n := varint(b[pos:])
		if n == 0 {
			return c, errors.New("cell cut")
		}
		pos += n
		c.RowID = int64(v)
	}
	c.Local = localPayload(c.PayloadSize, p.usable, typ == pageTableLeaf)
	c.PayloadOff = off + pos
	end := pos + c.Local
	if uint64(c.Local) < c.PayloadSize {
		end += 4
	}
	if end > len(b) {
		return c, fmt.Errorf("cell of %d bytes runs past the page", end)
	}
	if uint64(c.Local) < c.PayloadSize {
		c.Overflow = binary.BigEndian.Uint32(b[pos+c.Local:])
	}
	c.Len = end
	return c, nil
}

// payload assembles a cell's payload, following its overflow chain. The
// chain is bounded by the payload size and may not revisit a page. seen,
// when not nil, collects the overflow pages.
func (p *pager) payload(pg []byte, c cell, buf []byte, seen func(uint32)) ([]byte, error) {
	if c.PayloadSize > uint64(p.size) {
		return nil, fmt.Errorf("payload of %d bytes is larger than the file", c.PayloadSize)
	}
	want := int(c.PayloadSize)
	if cap(buf) < want {
		buf = make([]byte, 0, want)
	}
	buf = append(buf[:0], pg[c.PayloadOff:c.PayloadOff+c.Local]...)
	next := c.Overflow
	var visited map[uint32]bool
	var ob []byte
	per := p.usable - 4
	for len(buf) < want {
		if next == 0 {
			return buf, fmt.Errorf("overflow chain ends after %d of %d bytes", len(buf), want)
		}
		if visited == nil {
			visited = map[uint32]bool{}
		}
		if visited[next] {
			return buf, fmt.Errorf("overflow chain loops back to page %d", next)
		}
		visited[next] = true
		if seen != nil {
			seen(next)
		}
		var err error
		ob, err = p.page(next, ob)
		if err != nil {
			return buf, fmt.Errorf("overflow page %d: %w", next, err)
		}
		if len(ob) < 4 {
			return buf, fmt.Errorf("overflow page %d cut", next)
		}
		n := min(want-len(buf), per)
		if 4+n > len(ob) || 4+n > p.usable {
			return buf, fmt.Errorf("overflow page %d cut", next)
		}
		buf = append(buf, ob[4:4+n]...)
		next = binary.BigEndian.Uint32(ob)
	}
	return buf, nil
}

// overflowPages counts the overflow pages a payload of size n needs.
func (p *pager) overflowPages(c cell) int {
	rest := int64(c.PayloadSize) - int64(c.Local)
	if rest <= 0 {
		return 0
	}
	per := int64(p.usable - 4)
	return int((rest + per - 1) / per)
}

// cellCount returns how many of a b-tree page's cell pointers lie in pg
// (h.cells, or fewer when the array runs past the page's bytes); cell i's
// pointer is cellPointer(pg, hoff, h, i). The walks of every page use
// these, not cellPointers, to allocate nothing per page.
func cellCount(pg []byte, hoff int, h btreeHeader) int {
	base := hoff + h.size
	return max(0, min(h.cells, (len(pg)-base)/2))
}

// cellPointer reads cell i's pointer, i < cellCount(pg, hoff, h).
func cellPointer(pg []byte, hoff int, h btreeHeader, i int) int {
	return int(binary.BigEndian.Uint16(pg[hoff+h.size+2*i:]))
}

// cellPointers reads a b-tree page's cell pointer array.
func cellPointers(pg []byte, hoff int, h btreeHeader) []int {
	out := make([]int, 0, h.cells)
	base := hoff + h.size
	for i := 0; i < h.cells; i++ {
		if base+2*i+2 > len(pg) {
			break
		}
		out = append(out, int(binary.BigEndian.Uint16(pg[base+2*i:])))
	}
	return out
}

// chain follows a cell's overflow chain reading only each page's next
// pointer, and calls mark for each page; mark returns false when the page
// is not free to take (already part of something else). It reports a
// chain that ends early, leaves the file, loops or runs into another
// structure.
func (p *pager) chain(c cell, mark func(uint32) bool) error {
	k := p.overflowPages(c)
	rest := int64(c.PayloadSize) - int64(c.Local)
	per := int64(p.usable - 4)
	next := c.Overflow
	var b [4]byte
	for i := 0; i < k; i++ {
		if next == 0 {
			return fmt.Errorf("overflow chain ends after %d of %d pages", i, k)
		}
		if next > p.pages {
			return fmt.Errorf("overflow page %d is past the end of the file", next)
		}
		need := 4 + min(rest, per)
		if p.offset(next)+need > p.size {
			return fmt.Errorf("overflow page %d is cut by the end of the file", next)
		}
		if mark != nil && !mark(next) {
			return fmt.Errorf("overflow page %d is already used elsewhere", next)
		}
		if _, err := p.readAt(b[:], p.offset(next)); err != nil {
			return fmt.Errorf("overflow page %d: %w", next, err)
		}
		rest -= per
		next = binary.BigEndian.Uint32(b[:])
	}
	return nil
}
