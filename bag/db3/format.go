package db3

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Magic is what a SQLite database file starts with.
const Magic = "SQLite format 3\x00"

// HeaderSize is the size of the database header at the start of page 1.
const HeaderSize = 100

// Sentinel errors. Errors about the file's bytes are *FormatError values
// that unwrap to one of these.
var (
	// ErrNotSQLite means the file does not start with the SQLite magic and
	// no page size makes its pages readable.
	ErrNotSQLite = errors.New("not a SQLite database")
	// ErrNotRosbag2 means the database has no messages or topics table.
	ErrNotRosbag2 = errors.New("not a rosbag2 database")
	// ErrMalformed means a page, cell or record does not follow the file
	// format.
	ErrMalformed = errors.New("malformed")
	// ErrTruncated means the file ends before a page or overflow chain.
	ErrTruncated = errors.New("truncated")
	// ErrTooLarge means a length in the file exceeds what this reader is
	// willing to allocate.
	ErrTooLarge = errors.New("too large")
)

// FormatError reports a problem with the file's bytes: the file offset,
// the page (1-based; 0 for none) and what is wrong.
type FormatError struct {
	Offset int64
	Page   uint32
	Msg    string
	// Err is a sentinel (ErrMalformed, ...) or a cause.
	Err error
}

func (e *FormatError) Error() string {
	if e.Page != 0 {
		return fmt.Sprintf("offset %d (page %d): %s", e.Offset, e.Page, e.Msg)
	}
	return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg)
}

// Unwrap returns the sentinel or cause.
func (e *FormatError) Unwrap() error { return e.Err }

// MaxPayload caps a row's payload (its columns, overflow included): larger
// payload sizes are taken as damage. SQLite's own limit is 1 GB.
const MaxPayload = 1 << 30

// header is the 100-byte database header.
type header struct {
	raw        [HeaderSize]byte
	magicOK    bool
	pageSize   int // 512..65536, or 0 when unreadable
	reserved   int
	pageCount  uint32
	freeTrunk  uint32
	freeCount  uint32
	encoding   uint32
	changeCtr  uint32
	validFor   uint32
	sqliteVer  uint32
	writeVer   byte
	readVer    byte
	schemaCook uint32
	schemaFmt  uint32
}

// parseHeader reads the header's fields; pageSize is 0 when the page size
// field is not a power of two in 512..65536.
func parseHeader(b []byte) *header {
	h := &header{}
	copy(h.raw[:], b)
	be := binary.BigEndian
	h.magicOK = string(h.raw[:16]) == Magic
	ps := int(be.Uint16(h.raw[16:]))
	if ps == 1 {
		ps = 65536
	}
	if ps >= 512 && ps <= 65536 && ps&(ps-1) == 0 {
		h.pageSize = ps
	}
	h.writeVer, h.readVer = h.raw[18], h.raw[19]
	h.reserved = int(h.raw[20])
	h.changeCtr = be.Uint32(h.raw[24:])
	h.pageCount = be.Uint32(h.raw[28:])
	h.freeTrunk = be.Uint32(h.raw[32:])
	h.freeCount = be.Uint32(h.raw[36:])
	h.schemaCook = be.Uint32(h.raw[40:])
	h.schemaFmt = be.Uint32(h.raw[44:])
	h.encoding = be.Uint32(h.raw[56:])
	h.validFor = be.Uint32(h.raw[92:])
	h.sqliteVer = be.Uint32(h.raw[96:])
	return h
}

// walMode reports whether the header says the file is in WAL mode.
func (h *header) walMode() bool { return h.writeVer == 2 || h.readVer == 2 }

// pageCountValid reports whether the header's page count can be trusted:
// SQLite trusts it only when the change counter matches version-valid-for.
func (h *header) pageCountValid() bool {
	return h.pageCount != 0 && h.changeCtr == h.validFor
}

// Page types, the first byte of a b-tree page's header.
const (
	pageIndexInterior = 0x02
	pageTableInterior = 0x05
	pageIndexLeaf     = 0x0a
	pageTableLeaf     = 0x0d
)

// validPageType reports whether t is a b-tree page type.
func validPageType(t byte) bool {
	return t == pageIndexInterior || t == pageTableInterior || t == pageIndexLeaf || t == pageTableLeaf
}

// pageKind names a page type as Records lists it.
func pageKind(t byte) string {
	switch t {
	case pageIndexInterior:
		return "index interior"
	case pageTableInterior:
		return "table interior"
	case pageIndexLeaf:
		return "index leaf"
	case pageTableLeaf:
		return "table leaf"
	}
	return "unknown"
}

// varint decodes a SQLite varint from b: the value and its length, or
// length 0 when b ends first.
func varint(b []byte) (uint64, int) {
	var v uint64
	for i := 0; i < 8; i++ {
		if i >= len(b) {
			return 0, 0
		}
		v = v<<7 | uint64(b[i]&0x7f)
		if b[i]&0x80 == 0 {
			return v, i + 1
		}
	}
	if len(b) < 9 {
		return 0, 0
	}
	return v<<8 | uint64(b[8]), 9
}

// btreeHeader is a b-tree page's header.
type btreeHeader struct {
	typ          byte
	firstFree    int
	cells        int
	contentStart int
	fragmented   int
	rightChild   uint32
	size         int // 8 for a leaf, 12 for an interior page
}

// parseBtreeHeader reads the b-tree page header at b[off:], checking it
// against the page's usable size. ok is false when it is not a plausible
// b-tree page header.
func parseBtreeHeader(b []byte, off, usable int) (btreeHeader, bool) {
	var h btreeHeader
	if off+8 > len(b) || !validPageType(b[off]) {
		return h, false
	}
	be := binary.BigEndian
	h.typ = b[off]
	h.firstFree = int(be.Uint16(b[off+1:]))
	h.cells = int(be.Uint16(b[off+3:]))
	h.contentStart = int(be.Uint16(b[off+5:]))
	if h.contentStart == 0 {
		h.contentStart = 65536
	}
	h.fragmented = int(b[off+7])
	h.size = 8
	if h.typ == pageIndexInterior || h.typ == pageTableInterior {
		if off+12 > len(b) {
			return h, false
		}
		h.rightChild = be.Uint32(b[off+8:])
		h.size = 12
	}
	end := off + h.size + 2*h.cells
	if end > usable || h.contentStart > usable || (h.cells > 0 && h.contentStart < end) || h.fragmented > 60 {
		return h, false
	}
	if h.firstFree != 0 && (h.firstFree < end || h.firstFree+4 > usable) {
		return h, false
	}
	return h, true
}

// serialSize returns the body size of a record column of serial type t.
func serialSize(t uint64) (uint64, bool) {
	switch {
	case t <= 4:
		return [...]uint64{0, 1, 2, 3, 4}[t], true
	case t == 5:
		return 6, true
	case t == 6, t == 7:
		return 8, true
	case t == 8, t == 9:
		return 0, true
	case t == 10, t == 11:
		return 0, false
	}
	return (t - 12) / 2, true
}

// Column is one column of a record as stored.
type Column struct {
	// Serial is the column's serial type.
	Serial uint64
	// Start and End are the column's byte range in the payload.
	Start, End int
}

// Kind names the column's storage class: "null", "int", "float", "blob",
// "text".
func (c Column) Kind() string {
	switch {
	case c.Serial == 0:
		return "null"
	case c.Serial <= 6 || c.Serial == 8 || c.Serial == 9:
		return "int"
	case c.Serial == 7:
		return "float"
	case c.Serial >= 12 && c.Serial%2 == 0:
		return "blob"
	case c.Serial >= 13:
		return "text"
	}
	return "reserved"
}

// parseRecord splits a record into columns. It checks that the header and
// the columns add up to exactly the payload's size.
func parseRecord(p []byte) ([]Column, int, error) {
	cols, err := parseRecordPrefix(p, uint64(len(p)))
	if err != nil {
		return nil, 0, err
	}
	h, _ := varint(p)
	return cols, int(h), nil
}

// intValue decodes an integer column.
func intValue(p []byte, c Column) (int64, bool) {
	b := p[c.Start:c.End]
	switch c.Serial {
	case 8:
		return 0, true
	case 9:
		return 1, true
	case 1, 2, 3, 4, 5, 6:
		v := int64(int8(b[0]))
		for _, x := range b[1:] {
			v = v<<8 | int64(x)
		}
		return v, true
	}
	return 0, false
}

// localPayload returns how many bytes of a payload of size p are stored on
// the b-tree page itself (the rest goes to overflow pages); table is true
// for a table b-tree leaf, false for an index page.
func localPayload(p uint64, usable int, table bool) int {
	u := uint64(usable)
	x := u - 35
	if !table {
		x = (u-12)*64/255 - 23
	}
	if p <= x {
		return int(p)
	}
	m := (u-12)*32/255 - 23
	k := m + (p-m)%(u-4)
	if k <= x {
		return int(k)
	}
	return int(m)
}

// parseRecordPrefix splits a record of total bytes into columns from its
// first bytes (a cell's local payload), which must hold the whole record
// header. Column ranges are offsets in the whole payload; the columns
// must add up to exactly total.
func parseRecordPrefix(p []byte, total uint64) ([]Column, error) {
	hsize, n := varint(p)
	if n == 0 || hsize < uint64(n) || hsize > uint64(len(p)) || hsize > total {
		return nil, errors.New("bad record header size")
	}
	cols := make([]Column, 0, 8)
	pos := n
	body := hsize
	for uint64(pos) < hsize {
		t, m := varint(p[pos:hsize])
		if m == 0 {
			return nil, errors.New("record header cut")
		}
		pos += m
		sz, ok := serialSize(t)
		if !ok {
			return nil, fmt.Errorf("reserved serial type %d", t)
		}
		if sz > total-body {
			return nil, errors.New("record body runs past the payload")
		}
		cols = append(cols, Column{Serial: t, Start: int(body), End: int(body + sz)})
		body += sz
		if len(cols) > 2000 {
			return nil, errors.New("too many columns")
		}
	}
	if body != total {
		return nil, fmt.Errorf("record columns add up to %d bytes, payload is %d", body, total)
	}
	return cols, nil
}
