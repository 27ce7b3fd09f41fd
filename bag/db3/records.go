package db3

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// pages returns the page map, building it on first use.
func (s *Store) pages() *pageMap {
	s.mapOnce.Do(func() { s.pmap = buildPageMap(s.r, s.size, s.hdr, nil) })
	return s.pmap
}

// ReadRange reads file bytes [off, off+n).
func (s *Store) ReadRange(off int64, n int) ([]byte, error) {
	if off < 0 || n < 0 || off > s.size {
		return nil, fmt.Errorf("range %d+%d is outside the file's %d bytes", off, n, s.size)
	}
	n = int(min(int64(n), s.size-off))
	b := make([]byte, n)
	k, err := s.r.ReadAt(b, off)
	if k == n {
		err = nil
	}
	return b[:k], err
}

// headerRecord describes the database header.
func (s *Store) headerRecord() *bag.Record {
	h := s.hdr
	be := binary.BigEndian
	raw := h.raw[:]
	u32 := func(o int) string { return strconv.FormatUint(uint64(be.Uint32(raw[o:])), 10) }
	ps := strconv.Itoa(int(be.Uint16(raw[16:])))
	if ps == "1" {
		ps = "65536"
	}
	enc := map[uint32]string{1: "UTF-8", 2: "UTF-16le", 3: "UTF-16be"}[h.encoding]
	if enc == "" {
		enc = "unknown (" + strconv.Itoa(int(h.encoding)) + ")"
	}
	mode := func(v byte) string {
		switch v {
		case 1:
			return "1 (legacy)"
		case 2:
			return "2 (WAL)"
		}
		return strconv.Itoa(int(v))
	}
	f := func(name, val string, start, end int64) bag.RecordField {
		return bag.RecordField{Name: name, Value: val, Start: start, End: end}
	}
	ver := h.sqliteVer
	rec := &bag.Record{Offset: 0, Len: HeaderSize, Kind: "header",
		Summary: fmt.Sprintf("SQLite database, %s-byte pages, %d pages", ps, h.pageCount),
		Fields: []bag.RecordField{
			f("magic", strconv.Quote(string(raw[:16])), 0, 16),
			f("page size", ps, 16, 18),
			f("write version", mode(h.writeVer), 18, 19),
			f("read version", mode(h.readVer), 19, 20),
			f("reserved bytes per page", strconv.Itoa(h.reserved), 20, 21),
			f("max embedded payload fraction", strconv.Itoa(int(raw[21])), 21, 22),
			f("min embedded payload fraction", strconv.Itoa(int(raw[22])), 22, 23),
			f("leaf payload fraction", strconv.Itoa(int(raw[23])), 23, 24),
			f("file change counter", u32(24), 24, 28),
			f("page count", u32(28), 28, 32),
			f("first freelist trunk page", u32(32), 32, 36),
			f("freelist pages", u32(36), 36, 40),
			f("schema cookie", u32(40), 40, 44),
			f("schema format", u32(44), 44, 48),
			f("default page cache size", u32(48), 48, 52),
			f("largest root page (auto-vacuum)", u32(52), 52, 56),
			f("text encoding", enc, 56, 60),
			f("user version", u32(60), 60, 64),
			f("incremental vacuum", u32(64), 64, 68),
			f("application id", u32(68), 68, 72),
			f("reserved", "", 72, 92),
			f("version-valid-for", u32(92), 92, 96),
			f("SQLite version", fmt.Sprintf("%d.%d.%d", ver/1000000, ver/1000%1000, ver%1000), 96, 100),
		}}
	if !h.magicOK || h.pageSize == 0 {
		rec.Damaged = true
		rec.Err = &FormatError{Offset: 0, Msg: "the database header is damaged", Err: ErrMalformed}
	}
	return rec
}

// pageRecord describes page n.
func (s *Store) pageRecord(m *pageMap, n uint32, pg []byte) *bag.Record {
	return s.describePage(m.p, n, pg, m.pages[n-1].kind, m.treeName(n), true)
}

// describePage describes page n of kind (a b-tree page type, or one of
// the kinds above) in the tree named tree; mapped says whether kind and
// tree come from the page map (else the page is described from its own
// bytes: see unmappedRecord).
func (s *Store) describePage(p *pager, n uint32, pg []byte, kind byte, tree string, mapped bool) *bag.Record {
	off := p.offset(n)
	base := 0 // where the record starts in the page
	if n == 1 {
		base = HeaderSize
	}
	rec := &bag.Record{Offset: off + int64(base), Len: int64(len(pg) - base)}
	pi := pageInfo{kind: kind}
	of := ""
	if tree != "" {
		of = " of " + tree
	}
	f := func(name, val string, start, end int) bag.RecordField {
		return bag.RecordField{Name: name, Value: val, Start: int64(start - base), End: int64(end - base)}
	}
	switch pi.kind {
	case pageTableLeaf, pageTableInterior, pageIndexLeaf, pageIndexInterior:
		hoff := headerOffset(n)
		h, ok := parseBtreeHeader(pg, hoff, p.usable)
		rec.Op, rec.Kind = pi.kind, pageKind(pi.kind)
		if !ok {
			rec.Damaged, rec.Err = true, &FormatError{Offset: off, Page: n, Msg: "b-tree page header unreadable", Err: ErrMalformed}
			return rec
		}
		rec.Fields = append(rec.Fields,
			f("page type", fmt.Sprintf("0x%02x (%s)", h.typ, rec.Kind), hoff, hoff+1),
			f("first freeblock", strconv.Itoa(h.firstFree), hoff+1, hoff+3),
			f("cells", strconv.Itoa(h.cells), hoff+3, hoff+5),
			f("cell content start", strconv.Itoa(h.contentStart), hoff+5, hoff+7),
			f("fragmented free bytes", strconv.Itoa(h.fragmented), hoff+7, hoff+8))
		if h.size == 12 {
			rec.Fields = append(rec.Fields, f("right child page", strconv.FormatUint(uint64(h.rightChild), 10), hoff+8, hoff+12))
		}
		ptrs := cellPointers(pg, hoff, h)
		rec.Fields = append(rec.Fields, f("cell pointers", strconv.Itoa(len(ptrs)), hoff+h.size, hoff+h.size+2*len(ptrs)))
		if h.cells > 0 {
			rec.Fields = append(rec.Fields, f("cell content", "", min(h.contentStart, len(pg)), min(p.usable, len(pg))))
		}
		var lo, hi int64
		got := 0
		for _, cp := range ptrs {
			if c, err := p.parseCell(pg, h.typ, cp); err == nil && (h.typ == pageTableLeaf || h.typ == pageTableInterior) {
				if got == 0 || c.RowID < lo {
					lo = c.RowID
				}
				hi = max(hi, c.RowID)
				got++
			}
		}
		switch h.typ {
		case pageTableLeaf:
			rec.Summary = fmt.Sprintf("table leaf%s: %d rows", of, h.cells)
			if got > 0 {
				rec.Summary += fmt.Sprintf(", row ids %d..%d", lo, hi)
			}
		case pageTableInterior:
			rec.Summary = fmt.Sprintf("table interior%s: %d children, keys up to %d", of, h.cells+1, hi)
		default:
			rec.Summary = fmt.Sprintf("%s%s: %d cells", rec.Kind, of, h.cells)
		}
		if tree == "" && mapped {
			rec.Summary += " (no tree reaches this page)"
		}
	case kindOverflow:
		rec.Kind = "overflow"
		if len(pg) >= 4 {
			next := binary.BigEndian.Uint32(pg)
			rec.Fields = append(rec.Fields, f("next overflow page", strconv.FormatUint(uint64(next), 10), 0, 4), f("content", "", 4, len(pg)))
			rec.Summary = fmt.Sprintf("overflow%s, next page %d", of, next)
		}
	case kindFreeTrunk:
		rec.Kind = "freelist trunk"
		if len(pg) >= 8 {
			k := binary.BigEndian.Uint32(pg[4:])
			rec.Fields = append(rec.Fields, f("next trunk page", strconv.FormatUint(uint64(binary.BigEndian.Uint32(pg)), 10), 0, 4),
				f("leaf pages", strconv.FormatUint(uint64(k), 10), 4, 8),
				f("leaf page numbers", "", 8, min(len(pg), 8+4*int(min(k, uint32(len(pg)/4))))))
			rec.Summary = fmt.Sprintf("freelist trunk, %d leaves", k)
		}
	case kindFreeLeaf:
		rec.Kind, rec.Summary = "freelist leaf", "free page"
	default:
		rec.Kind = "unknown"
		rec.Summary = "not a b-tree page, and no tree or freelist reaches it"
		if !mapped {
			rec.Kind = "other"
			rec.Summary = "not a b-tree page (an overflow, freelist or unused page: the page map of a remote file is not built)"
			break
		}
		if pi.kind == kindDamaged {
			rec.Summary = "page" + of + ": not a readable b-tree page"
			rec.Damaged = true
			rec.Err = &FormatError{Offset: off, Page: n, Msg: rec.Summary, Err: ErrMalformed}
		} else if s.rescue != nil {
			rec.Damaged = true
			rec.Err = &FormatError{Offset: off, Page: n, Msg: rec.Summary, Err: ErrMalformed}
		}
	}
	rec.Summary = fmt.Sprintf("page %d: %s", n, rec.Summary)
	if len(pg) < p.pageSize {
		rec.Damaged = true
		rec.Err = &FormatError{Offset: off + int64(len(pg)), Page: n, Msg: fmt.Sprintf("page cut after %d of %d bytes", len(pg), p.pageSize), Err: ErrTruncated}
	}
	return rec
}

// Records lists the database header and then each page, in file order,
// from the record holding offset from on.
func (s *Store) Records(ctx context.Context, from int64, fn func(*bag.Record) bool) error {
	// The header first: a caller that wants only it (the Message tab
	// placing a message) does not wait for the page map, which reads
	// every page (the whole file, over a network).
	if from < HeaderSize {
		if !fn(s.headerRecord()) {
			return nil
		}
	}
	m := s.pages()
	first := uint32(1)
	if from > 0 {
		first = uint32(min(from/int64(m.p.pageSize), int64(m.p.pages))) + 1
	}
	var buf []byte
	for n := first; n <= m.p.pages; n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		pg, _ := m.p.page(n, buf)
		buf = pg
		if !fn(s.pageRecord(m, n, pg)) {
			return nil
		}
	}
	return nil
}

// A remote file's pages are described without the page map, which reads
// every page (the whole file, over a network): the window's Records tab
// lists the pages by their offsets (bag.RecordSpanner) and reads those it
// shows, each described from its own bytes: its b-tree page type, but not
// the tree it belongs to nor, for a page that is not a b-tree page,
// whether it is an overflow or a freelist page. The full listing
// (Records: the records command) is the local file's, map and all.

// unmappedPager returns the pager a remote file's pages are read with
// without the page map, or nil for a local file (or a header whose page
// size is unreadable, which the map guesses).
func (s *Store) unmappedPager() *pager {
	if !bag.IsRemote(s.r) || s.hdr == nil || s.hdr.pageSize == 0 {
		return nil
	}
	return newPager(s.r, s.size, s.hdr.pageSize, s.hdr.reserved)
}

// RecordSpans (bag.RecordSpanner) gives a remote file's records without
// reading them: the database header, then each page.
func (s *Store) RecordSpans() (n int, span func(i int) (off, n int64), ok bool) {
	p := s.unmappedPager()
	if p == nil {
		return 0, nil, false
	}
	return 1 + int(p.pages), func(i int) (int64, int64) {
		if i == 0 {
			return 0, HeaderSize
		}
		off := p.offset(uint32(i))
		end := min(off+int64(p.pageSize), s.size)
		if i == 1 {
			off = HeaderSize
		}
		return off, end - off
	}, true
}

// SpannedRecord (bag.RecordSpanner) reads record i of RecordSpans alone.
func (s *Store) SpannedRecord(i int) *bag.Record {
	p := s.unmappedPager()
	if p == nil || i < 0 || i > int(p.pages) {
		return nil
	}
	if i == 0 {
		return s.headerRecord()
	}
	n := uint32(i)
	pg, err := p.page(n, nil)
	if err != nil && len(pg) == 0 {
		return &bag.Record{Offset: p.offset(n), Kind: "damaged", Damaged: true, Err: err, Summary: fmt.Sprintf("page %d: %v", n, err)}
	}
	kind := byte(kindUnknown)
	if plausiblePage(pg, headerOffset(n), min(p.usable, len(pg))) {
		kind = pg[headerOffset(n)]
	}
	return s.describePage(p, n, pg, kind, "", false)
}

var _ bag.RecordSpanner = (*Store)(nil)

// BlockRecords lists the cells of the page at file offset block (any
// offset inside the page) as records, with offsets into the page, and
// returns the page's bytes.
func (s *Store) BlockRecords(block int64) ([]*bag.Record, []byte, error) {
	if block < 0 || block >= s.size {
		return nil, nil, fmt.Errorf("offset %d is outside the file", block)
	}
	var p *pager
	var names []string
	if up := s.unmappedPager(); up != nil {
		p = up // column names need the page's tree: the map's
	} else {
		m := s.pages()
		p, names = m.p, m.columnNames(m.treeName(uint32(block/int64(m.p.pageSize))+1))
	}
	n := uint32(block/int64(p.pageSize)) + 1
	pg, err := p.page(n, nil)
	if err != nil && len(pg) == 0 {
		return nil, nil, err
	}
	hoff := headerOffset(n)
	h, ok := parseBtreeHeader(pg, hoff, p.usable)
	if !ok {
		return nil, pg, err
	}
	var out []*bag.Record
	for i, cp := range cellPointers(pg, hoff, h) {
		c, cerr := p.parseCell(pg, h.typ, cp)
		rec := &bag.Record{Offset: int64(cp), Len: int64(c.Len), Op: h.typ, Kind: "cell"}
		if cerr != nil {
			rec.Damaged, rec.Err = true, &FormatError{Offset: p.offset(n) + int64(cp), Page: n, Msg: fmt.Sprintf("cell %d: %v", i, cerr), Err: ErrMalformed}
			rec.Len = 0
			out = append(out, rec)
			continue
		}
		s.cellFields(rec, pg, h.typ, c, names)
		out = append(out, rec)
	}
	return out, pg, err
}

// cellFields fills a cell record's fields and summary.
func (s *Store) cellFields(rec *bag.Record, pg []byte, typ byte, c cell, names []string) {
	f := func(name, val string, start, end int) {
		rec.Fields = append(rec.Fields, bag.RecordField{Name: name, Value: val, Start: int64(start - c.Off), End: int64(end - c.Off)})
	}
	pos := c.Off
	if typ == pageTableInterior || typ == pageIndexInterior {
		f("left child page", strconv.FormatUint(uint64(c.Child), 10), pos, pos+4)
		pos += 4
	}
	if typ == pageTableInterior {
		f("row id", strconv.FormatInt(c.RowID, 10), pos, c.Off+c.Len)
		rec.Summary = fmt.Sprintf("child page %d, row ids up to %d", c.Child, c.RowID)
		return
	}
	_, k := varint(pg[pos:])
	f("payload size", strconv.FormatUint(c.PayloadSize, 10), pos, pos+k)
	pos += k
	if typ == pageTableLeaf {
		_, k := varint(pg[pos:])
		f("row id", strconv.FormatInt(c.RowID, 10), pos, pos+k)
		rec.Kind = "row"
	}
	local := pg[c.PayloadOff : c.PayloadOff+c.Local]
	cols, err := parseRecordPrefix(local, c.PayloadSize)
	if err != nil {
		rec.Damaged, rec.Err = true, &FormatError{Offset: int64(c.Off), Msg: err.Error(), Err: ErrMalformed}
		return
	}
	hsize, _ := varint(local)
	f("record header", fmt.Sprintf("%d bytes, %d columns", hsize, len(cols)), c.PayloadOff, c.PayloadOff+int(hsize))
	var sum []string
	for i, col := range cols {
		name := fmt.Sprintf("column %d", i)
		if i < len(names) {
			name = names[i]
		}
		val := columnValue(local, col, c.RowID, i == 0 && typ == pageTableLeaf)
		start, end := c.PayloadOff+min(col.Start, len(local)), c.PayloadOff+min(col.End, len(local))
		f(name+" ("+col.Kind()+")", val, start, end)
		if len(sum) < 4 {
			sum = append(sum, name+"="+shorten(val, 40))
		}
	}
	if c.Overflow != 0 {
		f("first overflow page", strconv.FormatUint(uint64(c.Overflow), 10), c.PayloadOff+c.Local, c.PayloadOff+c.Local+4)
	}
	if typ == pageTableLeaf {
		rec.Summary = fmt.Sprintf("row %d: %s", c.RowID, strings.Join(sum, " "))
	} else {
		rec.Summary = strings.Join(sum, " ")
	}
}

// columnValue formats a column for display, from the bytes on the page.
func columnValue(local []byte, col Column, rowid int64, isKey bool) string {
	switch col.Kind() {
	case "null":
		if isKey {
			return strconv.FormatInt(rowid, 10) + " (row id)"
		}
		return "NULL"
	case "int":
		if col.End <= len(local) {
			v, _ := intValue(local, col)
			return strconv.FormatInt(v, 10)
		}
	case "float":
		if col.End <= len(local) {
			return strconv.FormatFloat(math.Float64frombits(binary.BigEndian.Uint64(local[col.Start:])), 'g', -1, 64)
		}
	case "text":
		n := col.End - col.Start
		t := string(local[min(col.Start, len(local)):min(col.End, len(local))])
		if col.End > len(local) {
			return fmt.Sprintf("%q… (%d bytes)", shorten(t, 60), n)
		}
		return strconv.Quote(shorten(t, 200))
	case "blob":
		return fmt.Sprintf("%d bytes", col.End-col.Start)
	}
	return ""
}

func shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// columnNames returns the column names of a table from its CREATE TABLE
// statement in sqlite_master.
func (m *pageMap) columnNames(table string) []string {
	if table == "" {
		return nil
	}
	for _, row := range m.schema {
		if row.name != table || row.typ != "table" {
			continue
		}
		open, end := strings.Index(row.sql, "("), strings.LastIndex(row.sql, ")")
		if open < 0 || end <= open {
			return nil
		}
		var names []string
		depth, start := 0, open+1
		body := row.sql[:end]
		for i := open + 1; i <= len(body); i++ {
			if i < len(body) {
				switch body[i] {
				case '(':
					depth++
					continue
				case ')':
					depth--
					continue
				case ',':
					if depth != 0 {
						continue
					}
				default:
					continue
				}
			}
			def := strings.Fields(body[start:i])
			start = i + 1
			if len(def) == 0 {
				continue
			}
			switch strings.ToUpper(def[0]) {
			case "PRIMARY", "UNIQUE", "CHECK", "FOREIGN", "CONSTRAINT":
				continue
			}
			names = append(names, strings.Trim(def[0], "\"`[]"))
		}
		return names
	}
	return nil
}
