package db3

import (
	"encoding/binary"
	"fmt"
	"io"
	"sort"
	"strings"
)

// Kinds of pages that have no b-tree header, as pageInfo.kind holds them
// beside the b-tree page types.
const (
	kindUnread     = 0 // not classified yet
	kindOverflow   = 0xf0
	kindFreeTrunk  = 0xf1
	kindFreeLeaf   = 0xf2
	kindUnknown    = 0xf3
	kindDamaged    = 0xf4 // reached from a tree, but not a readable b-tree page
	kindPastTheEnd = 0xf5 // page count says it exists; the file ends first
)

// pendingByte is the offset of SQLite's lock bytes: the page that holds
// it is never used.
const pendingByte = 0x40000000

// pageInfo is what the map knows of one page.
type pageInfo struct {
	kind byte
	// tree is the root page of the b-tree the page belongs to; 0 when no
	// tree reaches it.
	tree uint32
}

// schemaRow is one row of sqlite_master.
type schemaRow struct {
	typ, name, table string
	root             uint32
	sql              string
}

// damage is a page (or part of one) that could not be read.
type damage struct {
	page uint32
	// off and end are the damaged file byte range.
	off, end int64
	why      string
}

// pageMap classifies every page of a database file.
type pageMap struct {
	p   *pager
	hdr *header
	// guessed is set when the header's page size was unreadable and the
	// page size was found by looking at the pages.
	guessed bool
	pages   []pageInfo
	schema  []schemaRow
	// schemaErr says why sqlite_master could not be read in full.
	schemaErr error
	roots     map[uint32]string // root page -> table or index name
	damaged   []damage
	// claimed counts pages declared by the header beyond the file's end.
	claimed uint32
	// interiorKeys holds the largest key seen in each table's interior
	// pages, by root page.
	maxKey map[uint32]int64
	// cutOff counts, by root page, the pages a tree points to that lie
	// in the part of the file that was cut off.
	cutOff map[uint32]int
	// leafDepth holds, by root page, how deep the tree's leaves lie (the
	// root at 1; a b-tree's leaves all lie at one depth), 0 when no leaf
	// was read.
	leafDepth map[uint32]int
	// unsound holds, by page, why a b-tree page that could be read fails
	// its structural checks (see pageProblem): its rows are suspect.
	unsound map[uint32]string
	// bounds holds the key range of each table page, as its parent gives
	// it.
	bounds map[uint32]keyRange
	// lostKeys lists, by root page, the key ranges of table pages whose
	// rows could not be reached (a page that is not a b-tree page, cut
	// off, or an interior page with unreadable cells).
	lostKeys map[uint32][]lostKeys
	// indexOf names the index whose entries (timestamp, row id) are
	// collected into entries while walking; treeDamaged marks each tree
	// that met damage (so its entries are not all there).
	indexOf     uint32
	entries     []indexEntry
	treeDamaged map[uint32]bool
	// checkers, while the map is built, check the b-tree pages the walk
	// reads (see pagecheckers.go); nil: the walk checks them itself.
	checkers *pageCheckers
	// checkOnly is set for a survey (see Store.survey): it only looks for
	// damage, keeping no index entries and no page key ranges, so that
	// its memory does not grow with the file.
	checkOnly bool
	// passed, when not nil, holds the pages that passed their checks
	// already (a read beside the survey checked them; see pageBits): the
	// walk does not check them again, and adds those it finds passing.
	passed pageBits
}

// lostKeys is a run of row ids whose page could not be read.
type lostKeys struct {
	page uint32
	keys keyRange
	// depth is how deep the page lies in its tree (the root at 1).
	depth int
	// off and end are the bytes of the page (past the file's end for a
	// page cut off).
	off, end int64
	why      string
}

// indexEntry is one entry of a timestamp index: the row it points to.
type indexEntry struct{ ts, rowid int64 }

// guessPageSize finds the page size that makes most page starts look like
// b-tree pages, preferring the smallest of those that do about as well as
// the best (a larger multiple also lands on page starts).
func guessPageSize(r io.ReaderAt, size int64) int {
	type score struct {
		ps          int
		hits, tries int
	}
	var scores []score
	buf := make([]byte, 65536)
	best := 0.0
	for ps := 512; ps <= 65536; ps *= 2 {
		n := size / int64(ps)
		if n < 1 {
			break
		}
		sc := score{ps: ps}
		step := max(n/512, 1)
		for k := int64(1); k < n; k += step { // page k+1 starts at k*ps
			m, _ := r.ReadAt(buf[:ps], k*int64(ps))
			sc.tries++
			if m == ps && plausiblePage(buf[:ps], 0, ps) {
				sc.hits++
			}
		}
		if sc.tries == 0 { // a one-page file: look at page 1's header
			m, _ := r.ReadAt(buf[:ps], 0)
			sc.tries = 1
			if m == ps && plausiblePage(buf[:ps], HeaderSize, ps) {
				sc.hits = 1
			}
		}
		scores = append(scores, sc)
		if f := float64(sc.hits) / float64(sc.tries); f > best {
			best = f
		}
	}
	if best == 0 {
		return 4096
	}
	for _, sc := range scores {
		if sc.hits > 0 && float64(sc.hits)/float64(sc.tries) >= 0.6*best {
			return sc.ps
		}
	}
	return 4096
}

// plausiblePage reports whether pg holds a b-tree page whose header and
// cell pointers are consistent.
func plausiblePage(pg []byte, hoff, usable int) bool {
	h, ok := parseBtreeHeader(pg, hoff, usable)
	if !ok {
		return false
	}
	if h.cells == 0 {
		return h.typ == pageTableLeaf || h.typ == pageIndexLeaf || h.rightChild != 0
	}
	for _, cp := range cellPointers(pg, hoff, h) {
		if cp < h.contentStart || cp >= usable {
			return false
		}
	}
	return true
}

// buildPageMap walks the database: sqlite_master, every tree from its root,
// the freelist, then every page no tree reached.
//
// leaf, when not nil, is called for every cell of a table leaf page with
// the root of the tree that reached the page (0 for a page no tree
// reached, after every tree was walked) and the error that stopped
// following its overflow chain, if any.
func buildPageMap(r io.ReaderAt, size int64, h *header, leaf func(tree uint32, pg []byte, n uint32, c cell, chainErr error)) *pageMap {
	m := newPageMap(r, size, h)
	m.build(leaf)
	return m
}

// newPageMap sets up the map's pager: the header's page size, or a guess
// when the header is unreadable.
func newPageMap(r io.ReaderAt, size int64, h *header) *pageMap {
	ps := h.pageSize
	m := &pageMap{hdr: h, roots: map[uint32]string{1: "sqlite_master"}, maxKey: map[uint32]int64{}, cutOff: map[uint32]int{}, leafDepth: map[uint32]int{},
		unsound: map[uint32]string{}, bounds: map[uint32]keyRange{}, lostKeys: map[uint32][]lostKeys{}, treeDamaged: map[uint32]bool{}}
	if !h.magicOK || ps == 0 {
		ps = guessPageSize(r, size)
		m.guessed = true
	}
	reserved := h.reserved
	if !h.magicOK {
		reserved = 0
	}
	m.p = newPager(r, size, ps, reserved)
	m.pages = make([]pageInfo, m.p.pages)
	if h.magicOK && h.pageCountValid() && h.pageCount > m.p.pages {
		m.claimed = h.pageCount - m.p.pages
	}
	return m
}

// build walks the database (see buildPageMap).
func (m *pageMap) build(leaf func(tree uint32, pg []byte, n uint32, c cell, chainErr error)) {
	// The walk reads every page, mostly near the last: through windows,
	// a system call per window, not per page. The pager is the map's
	// alone while it is built; afterwards it reads page by page, safe for
	// concurrent use.
	if m.p.ra == nil {
		m.p.ra = &readAhead{r: m.p.r, size: m.p.size}
		defer func() { m.p.ra = nil }()
	}
	if c := newPageCheckers(m.p); c != nil {
		m.checkers = c
		c.passed = m.passed
		defer func() {
			// A page's verdict is what the walk would have found (see
			// walk): recorded once every page is checked.
			for _, v := range c.wait() {
				m.unsound[v.n] = v.why
				m.treeDamaged[v.root] = true
			}
			m.checkers = nil
		}()
	}
	// sqlite_master.
	var pbuf []byte
	m.walk(1, func(pg []byte, n uint32, c cell, _ error) {
		payload, err := m.p.payload(pg, c, pbuf, nil)
		pbuf = payload
		if err != nil {
			if m.schemaErr == nil {
				m.schemaErr = err
			}
			return
		}
		if row, ok := parseSchemaRow(payload); ok {
			m.schema = append(m.schema, row)
		}
	})
	for _, row := range m.schema {
		if row.root > 1 && row.root <= m.p.pages && m.roots[row.root] == "" {
			m.roots[row.root] = row.name
		}
	}
	roots := make([]uint32, 0, len(m.roots))
	for root := range m.roots {
		if root != 1 {
			roots = append(roots, root)
		}
	}
	sort.Slice(roots, func(i, j int) bool { return roots[i] < roots[j] })
	for _, row := range m.schema {
		if row.typ == "index" && strings.EqualFold(row.table, "messages") && m.indexOf == 0 && row.root > 1 {
			m.indexOf = row.root
		}
	}
	if lock := uint32(pendingByte/int64(m.p.pageSize)) + 1; m.info(lock) != nil && m.p.pageSize > 0 {
		// SQLite never uses the page holding the lock bytes.
		m.info(lock).kind = kindFreeLeaf
	}
	for _, root := range roots {
		var fn leafFunc
		if leaf != nil {
			fn = func(pg []byte, n uint32, c cell, cerr error) { leaf(root, pg, n, c, cerr) }
		}
		m.walk(root, fn)
	}
	m.walkFreelist()
	m.classifyRest(leaf)
	sort.Slice(m.damaged, func(i, j int) bool { return m.damaged[i].off < m.damaged[j].off })
}

// info returns the page's entry, or nil past the file.
func (m *pageMap) info(n uint32) *pageInfo {
	if n == 0 || n > uint32(len(m.pages)) {
		return nil
	}
	return &m.pages[n-1]
}

// addDamage records a damaged page.
func (m *pageMap) addDamage(n uint32, why string) {
	off := m.p.offset(n)
	m.damaged = append(m.damaged, damage{page: n, off: off, end: min(off+int64(m.p.pageSize), max(m.p.size, off)), why: why})
}

// leafFunc is called for each cell of a table tree's leaves, with the
// error that stopped following its overflow chain, if any.
type leafFunc func(pg []byte, n uint32, c cell, chainErr error)

// walk marks the pages of the tree rooted at root, following child
// pointers and overflow chains, and calls fn for each leaf cell when fn is
// not nil. It never visits a page twice. Each page is checked (see
// pageProblem); a table tree's key ranges that cannot be reached are
// listed in lostKeys, and the entries of the index indexOf collected.
func (m *pageMap) walk(root uint32, fn leafFunc) {
	type item struct {
		n     uint32
		keys  keyRange
		depth int
	}
	stack := []item{{n: root, depth: 1}}
	var buf []byte
	var depth int
	lose := func(n uint32, keys keyRange, why string) {
		m.treeDamaged[root] = true
		off := m.p.offset(max(n, 1))
		m.lostKeys[root] = append(m.lostKeys[root], lostKeys{page: n, keys: keys, depth: depth, off: off, end: off + int64(m.p.pageSize), why: why})
	}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := it.n
		depth = it.depth
		pi := m.info(n)
		if pi == nil {
			if n > m.p.pages && n <= m.p.pages+m.claimed {
				m.cutOff[root]++ // reported with the cut-off pages
				lose(n, it.keys, fmt.Sprintf("page %d of tree %s is cut off with the end of the file", n, m.roots[root]))
			} else {
				m.damaged = append(m.damaged, damage{page: n, off: m.p.offset(max(n, 1)), end: m.p.offset(max(n, 1)), why: fmt.Sprintf("tree %s points to page %d, which does not exist", m.roots[root], n)})
				lose(n, it.keys, fmt.Sprintf("tree %s points to page %d, which does not exist", m.roots[root], n))
				m.lostKeys[root][len(m.lostKeys[root])-1].end = m.lostKeys[root][len(m.lostKeys[root])-1].off
			}
			continue
		}
		if pi.kind != kindUnread {
			m.addDamage(n, fmt.Sprintf("page %d is reached twice (from tree %s)", n, m.roots[root]))
			lose(n, it.keys, fmt.Sprintf("page %d is reached twice (from tree %s)", n, m.roots[root]))
			continue
		}
		pi.tree = root
		pg, err := m.p.page(n, buf)
		buf = pg
		hoff := headerOffset(n)
		h, ok := btreeHeader{}, false
		if err == nil {
			h, ok = parseBtreeHeader(pg, hoff, m.p.usable)
		}
		if !ok {
			pi.kind = kindDamaged
			why := fmt.Sprintf("page %d of tree %s is not a readable b-tree page", n, m.roots[root])
			if err != nil {
				why = fmt.Sprintf("page %d of tree %s: %v", n, m.roots[root], err)
			} else if hoff < len(pg) {
				why += fmt.Sprintf(" (type byte 0x%02x)", pg[hoff])
			}
			m.addDamage(n, why)
			lose(n, it.keys, why)
			continue
		}
		pi.kind = h.typ
		if (h.typ == pageTableLeaf || h.typ == pageIndexLeaf) && m.leafDepth[root] == 0 {
			m.leafDepth[root] = depth
		}
		table := h.typ == pageTableInterior || h.typ == pageTableLeaf
		if table && !m.checkOnly {
			m.bounds[n] = it.keys
		}
		switch {
		case m.passed.has(n):
		case m.checkers != nil:
			m.checkers.check(pg, n, hoff, h, it.keys, root)
		default:
			if why := m.p.pageProblem(pg, n, hoff, h, it.keys); why != "" {
				m.unsound[n] = why
				m.treeDamaged[root] = true
			} else {
				m.passed.add(n)
			}
		}
		interior := h.typ == pageTableInterior || h.typ == pageIndexInterior
		bad := 0
		var prev int64
		hasPrev := false
		for i := range cellCount(pg, hoff, h) {
			c, err := m.p.parseCell(pg, h.typ, cellPointer(pg, hoff, h, i))
			if err != nil {
				bad++
				continue
			}
			if interior {
				keys := it.keys
				if h.typ == pageTableInterior {
					keys = it.keys.child(prev, hasPrev, c.RowID)
					prev, hasPrev = c.RowID, true
				}
				stack = append(stack, item{c.Child, keys, depth + 1})
				if h.typ == pageTableInterior {
					m.maxKey[root] = max(m.maxKey[root], c.RowID)
					continue
				}
			}
			if h.typ == pageTableLeaf {
				m.maxKey[root] = max(m.maxKey[root], c.RowID)
			}
			if root == m.indexOf && m.indexOf != 0 && !m.checkOnly && (h.typ == pageIndexLeaf || h.typ == pageIndexInterior) {
				m.addEntry(pg, c)
			}
			var cerr error
			if c.Overflow != 0 {
				cerr = m.p.chain(c, func(o uint32) bool {
					oi := m.info(o)
					if oi == nil || oi.kind != kindUnread {
						return false
					}
					oi.kind, oi.tree = kindOverflow, root
					return true
				})
				if cerr != nil {
					off := m.p.offset(n) + int64(c.Off)
					m.damaged = append(m.damaged, damage{page: n, off: off, end: off + int64(c.Len), why: fmt.Sprintf("row %d on page %d: %v", c.RowID, n, cerr)})
				}
			}
			if fn != nil && h.typ == pageTableLeaf {
				fn(pg, n, c, cerr)
			}
		}
		if interior {
			keys := it.keys
			if h.typ == pageTableInterior && hasPrev {
				keys = keyRange{lo: prev, hasLo: true, hi: it.keys.hi, hasHi: it.keys.hasHi}
			}
			stack = append(stack, item{h.rightChild, keys, depth + 1})
		}
		if bad > 0 {
			m.addDamage(n, fmt.Sprintf("%d of %d cells of page %d are unreadable", bad, h.cells, n))
			m.treeDamaged[root] = true
			if interior {
				// The children of the unreadable cells are not reached:
				// their keys lie somewhere in the page's own range.
				lose(n, it.keys, fmt.Sprintf("%d of %d cells of interior page %d of tree %s are unreadable: the pages below them are not reached", bad, h.cells, n, m.roots[root]))
			}
		}
	}
}

// addEntry collects an index cell's entry: a record of (timestamp, row
// id), read from the part of it on the page.
func (m *pageMap) addEntry(pg []byte, c cell) {
	if c.PayloadOff+c.Local > len(pg) {
		return
	}
	local := pg[c.PayloadOff : c.PayloadOff+c.Local]
	cols, err := parseRecordPrefix(local, c.PayloadSize)
	if err != nil || len(cols) != 2 || cols[1].End > len(local) || cols[0].End > len(local) {
		return
	}
	ts, ok1 := intValue(local, cols[0])
	id, ok2 := intValue(local, cols[1])
	if ok1 && ok2 {
		m.entries = append(m.entries, indexEntry{ts: ts, rowid: id})
	}
}

// walkFreelist marks the freelist's trunk and leaf pages.
func (m *pageMap) walkFreelist() {
	if !m.hdr.magicOK {
		return
	}
	next := m.hdr.freeTrunk
	var buf []byte
	for steps := 0; next != 0 && steps < len(m.pages); steps++ {
		pi := m.info(next)
		if pi == nil || pi.kind != kindUnread {
			return
		}
		pg, err := m.p.page(next, buf)
		buf = pg
		if err != nil || len(pg) < 8 {
			return
		}
		pi.kind = kindFreeTrunk
		count := binary.BigEndian.Uint32(pg[4:])
		for i := uint32(0); i < count && 8+4*int(i)+4 <= len(pg); i++ {
			if li := m.info(binary.BigEndian.Uint32(pg[8+4*i:])); li != nil && li.kind == kindUnread {
				li.kind = kindFreeLeaf
			}
		}
		next = binary.BigEndian.Uint32(pg)
	}
}

// classifyRest looks at every page no tree reached: a b-tree page is
// marked by its type (its tree unknown), anything else is unknown.
func (m *pageMap) classifyRest(leaf func(tree uint32, pg []byte, n uint32, c cell, chainErr error)) {
	var buf []byte
	for i := range m.pages {
		pi := &m.pages[i]
		if pi.kind != kindUnread {
			continue
		}
		n := uint32(i + 1)
		pg, err := m.p.page(n, buf)
		buf = pg
		if err == nil && plausiblePage(pg, headerOffset(n), m.p.usable) {
			pi.kind = pg[headerOffset(n)]
			if pi.kind == pageTableLeaf || pi.kind == pageIndexLeaf || pi.kind == pageIndexInterior {
				m.markOverflow(pg, n, pi.kind, leaf)
			}
			continue
		}
		pi.kind = kindUnknown
	}
}

// markOverflow marks the overflow chains of an unreached page's cells.
// For a table leaf it calls leaf, when not nil, for each cell.
func (m *pageMap) markOverflow(pg []byte, n uint32, typ byte, leaf func(tree uint32, pg []byte, n uint32, c cell, chainErr error)) {
	h, _ := parseBtreeHeader(pg, headerOffset(n), m.p.usable)
	for _, off := range cellPointers(pg, headerOffset(n), h) {
		c, err := m.p.parseCell(pg, typ, off)
		if err != nil {
			continue
		}
		var cerr error
		if c.Overflow != 0 {
			cerr = m.p.chain(c, func(o uint32) bool {
				oi := m.info(o)
				if oi == nil || (oi.kind != kindUnread && oi.kind != kindUnknown) {
					return false
				}
				oi.kind = kindOverflow
				return true
			})
		}
		if leaf != nil && typ == pageTableLeaf {
			leaf(0, pg, n, c, cerr)
		}
	}
}

// parseSchemaRow reads a sqlite_master row: type, name, tbl_name,
// rootpage, sql.
func parseSchemaRow(p []byte) (schemaRow, bool) {
	cols, _, err := parseRecord(p)
	if err != nil || len(cols) != 5 {
		return schemaRow{}, false
	}
	var row schemaRow
	row.typ = textValue(p, cols[0])
	row.name = textValue(p, cols[1])
	row.table = textValue(p, cols[2])
	if v, ok := intValue(p, cols[3]); ok && v > 0 && v < 1<<32 {
		row.root = uint32(v)
	}
	row.sql = textValue(p, cols[4])
	return row, row.typ != ""
}

// textValue returns a text or blob column as a string ("" otherwise).
func textValue(p []byte, c Column) string {
	if k := c.Kind(); k == "text" || k == "blob" {
		return string(p[c.Start:c.End])
	}
	return ""
}

// root returns the root page of a table, or 0.
func (m *pageMap) root(table string) uint32 {
	for _, row := range m.schema {
		if row.typ == "table" && strings.EqualFold(row.name, table) {
			return row.root
		}
	}
	return 0
}

// treeName names the tree a page belongs to ("" when none reaches it).
func (m *pageMap) treeName(n uint32) string {
	if pi := m.info(n); pi != nil && pi.tree != 0 {
		return m.roots[pi.tree]
	}
	return ""
}
