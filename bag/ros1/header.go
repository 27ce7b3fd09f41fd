package ros1

import (
	"bytes"
	"encoding/binary"
)

// Field is one name=value entry of a record header, with its position.
type Field struct {
	Name  string
	Value []byte
	// Offset is the position of the field's 4-byte length prefix, relative
	// to the start of the header bytes.
	Offset int
}

// Header is a record header: its fields in file order. Unknown fields are
// kept.
type Header []Field

// Get returns the value of the first field called name.
func (h Header) Get(name string) ([]byte, bool) {
	for i := range h {
		if h[i].Name == name {
			return h[i].Value, true
		}
	}
	return nil, false
}

// String returns the value of field name as a string, or "".
func (h Header) String(name string) string {
	v, _ := h.Get(name)
	return string(v)
}

func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// parseHeader splits header bytes into fields. base is the file (or chunk)
// offset of the header, used in errors. The field values alias b.
func parseHeader(b []byte, base int64, dst Header) (Header, error) {
	dst = dst[:0]
	if dst == nil {
		dst = make(Header, 0, countFields(b))
	}
	pos := 0
	for pos < len(b) {
		if len(b)-pos < 4 {
			return dst, errAt(base+int64(pos), 0, ErrMalformed, "header field length cut off: %d bytes left in header", len(b)-pos)
		}
		n := int64(le32(b[pos:]))
		if n > int64(len(b)-pos-4) {
			return dst, errAt(base+int64(pos), 0, ErrMalformed, "header field length %d exceeds the %d bytes left in the header", n, len(b)-pos-4)
		}
		f := b[pos+4 : pos+4+int(n)]
		eq := bytes.IndexByte(f, '=')
		if eq < 0 {
			return dst, errAt(base+int64(pos), 0, ErrMalformed, "header field without '=' (%d bytes)", n)
		}
		dst = append(dst, Field{Name: fieldName(f[:eq]), Value: f[eq+1:], Offset: pos})
		pos += 4 + int(n)
	}
	return dst, nil
}

// countFields returns the number of fields in header bytes b, as far as
// their lengths are consistent.
func countFields(b []byte) int {
	n := 0
	for pos := 0; len(b)-pos >= 4; n++ {
		l := int64(le32(b[pos:]))
		if l > int64(len(b)-pos-4) {
			break
		}
		pos += 4 + int(l)
	}
	return n
}

// fieldName returns name as a string, without allocating for the field
// names of the format (a bag's index has a few records per chunk, each with
// several of them).
func fieldName(name []byte) string {
	switch string(name) {
	case "op":
		return "op"
	case "conn":
		return "conn"
	case "time":
		return "time"
	case "ver":
		return "ver"
	case "count":
		return "count"
	case "size":
		return "size"
	case "compression":
		return "compression"
	case "chunk_pos":
		return "chunk_pos"
	case "start_time":
		return "start_time"
	case "end_time":
		return "end_time"
	case "topic":
		return "topic"
	case "index_pos":
		return "index_pos"
	case "conn_count":
		return "conn_count"
	case "chunk_count":
		return "chunk_count"
	case "type":
		return "type"
	case "md5sum":
		return "md5sum"
	case "message_definition":
		return "message_definition"
	case "callerid":
		return "callerid"
	case "latching":
		return "latching"
	}
	return string(name)
}

// scanHeaderPlain is the allocation-free form of parseHeader used on the
// hot paths: the one walk of a record header for the read
// (chunkCursor.collect) and the vouch built beside it, the doctor's chunk
// visits (visitChunk, walkVouchFast), the index check (checkEntry), the
// validator and the resync after damage (readableMessage). It finds the op,
// conn and time fields of a message data record; ok is false on any
// malformation (a field cut off or without '='), and the caller then falls
// back to parseHeader for a precise error. plain says the header is one the
// doctor's walker frames without parsing it into fields: each field with its
// '=', op once and not 0, a message data record's conn and time once each,
// each of its size; then op, conn and t are those parseMessageData reads.
func scanHeaderPlain(b []byte) (op Op, conn uint32, t Time, hasConn, hasTime, ok, plain bool) {
	var nop, nconn, ntime int
	odd := false // a field named op, conn or time of another size
	pos := 0
	for pos < len(b) {
		if len(b)-pos < 4 {
			return
		}
		n := int(le32(b[pos:]))
		if n < 0 || n > len(b)-pos-4 {
			return
		}
		f := b[pos+4 : pos+4+n]
		pos += 4 + n
		switch {
		case len(f) == 4 && f[0] == 'o' && f[1] == 'p' && f[2] == '=':
			op = Op(f[3])
			nop++
		case len(f) == 9 && string(f[:5]) == "conn=":
			conn, hasConn = le32(f[5:]), true
			nconn++
		case len(f) == 13 && string(f[:5]) == "time=":
			t, hasTime = parseTime(f[5:]), true
			ntime++
		default:
			eq := bytes.IndexByte(f, '=')
			if eq < 0 {
				return
			}
			switch string(f[:eq]) {
			case "op", "conn", "time":
				odd = true
			}
		}
	}
	ok = true
	plain = !odd && nop == 1 && op != 0 && (op != OpMessageData || nconn == 1 && ntime == 1)
	return
}
