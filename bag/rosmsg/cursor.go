package rosmsg

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// Cursor reads the fields of one serialized message where they lie, for a
// reader that walks the plan itself (an expression over several fields of a
// message, picking array elements as it goes) without decoding the rest. It
// knows the wire format (ROS 1, or CDR with its byte order); offsets are
// into the whole message data (a CDR message's header included), as Node
// ranges are. A walk starts at Start and goes field by field with
// FieldOffset and Skip, into arrays with Array, Stride and SkipElem.
//
// Every method checks its reads against the data and reports false rather
// than reading past its end; none allocates, and none loops more often than
// the bytes it walks over allow (an array of zero-size elements is bounded
// as Decode bounds it). A Cursor is a small value; copy it freely.
type Cursor struct {
	data []byte
	cdr  bool
	be   bool
}

// Cursor returns a cursor over one message of the plan and the offset of
// its first field. For a CDR plan the encapsulation header is checked (an
// *Error as Decode gives it).
func (p *Plan) Cursor(data []byte) (Cursor, int, error) {
	if !p.cdr {
		return Cursor{data: data}, 0, nil
	}
	be, err := cdrHeader(data)
	if err != nil {
		err.Type = p.Type
		return Cursor{}, 0, err
	}
	return Cursor{data: data, cdr: true, be: be}, 4, nil
}

// Data returns the message data.
func (c Cursor) Data() []byte { return c.data }

// Skip returns the offset after field f (the whole field: every element
// of an array) at off.
func (c Cursor) Skip(f *FieldPlan, off int) (int, bool) {
	if off < 0 || off > len(c.data) {
		return off, false
	}
	if c.cdr {
		return cdrSkipField(f, c.data, off, c.be)
	}
	return skipField(f, c.data, off)
}

// FieldOffset returns the offset of field k of a message of plan m whose
// first field is at off. A ROS 1 field after fixed-size ones is found
// without reading the data.
func (c Cursor) FieldOffset(m *MsgPlan, off, k int) (int, bool) {
	if k < 0 || k >= len(m.Fields) {
		return off, false
	}
	if !c.cdr && m.Fields[k].Offset >= 0 {
		off += m.Fields[k].Offset
		return off, off <= len(c.data)
	}
	var ok bool
	for i := 0; i < k; i++ {
		if off, ok = c.Skip(&m.Fields[i], off); !ok {
			return off, false
		}
	}
	return off, true
}

// Array reads the element count of array field f at off and returns it
// with the offset of the first element. The count is checked against the
// bytes left: each element takes at least its smallest size.
func (c Cursor) Array(f *FieldPlan, off int) (n, first int, ok bool) {
	n = f.Len
	if n < 0 {
		if c.cdr {
			off = cdrAlign(off, 4)
		}
		if off < 0 || off > len(c.data)-4 {
			return 0, off, false
		}
		u := c.u32(off)
		if uint64(u) > uint64(len(c.data)) && uint64(u) > maxZeroSizeCount {
			return 0, off, false
		}
		n = int(u)
		off += 4
	}
	min := 4
	switch {
	case f.ElemSize >= 0:
		min = f.ElemSize
	case f.Msg != nil:
		min = f.Msg.MinSize
	}
	left := len(c.data) - off
	if left < 0 || min > 0 && n > left/min || min == 0 && n > maxZeroSizeCount {
		return 0, off, false
	}
	if c.cdr && n > 0 && f.ElemSize > 0 && f.Kind != KindMessage {
		off = cdrAlign(off, f.ElemSize)
		if off > len(c.data) || n > (len(c.data)-off)/f.ElemSize {
			return 0, off, false
		}
	}
	return n, off, true
}

// Stride returns the distance between consecutive elements of array field
// f, or -1 when the elements vary in size (or, in CDR, when alignment may
// pad between them): walk those with SkipElem.
func (c Cursor) Stride(f *FieldPlan) int {
	if c.cdr {
		if f.ElemSize > 0 && f.Kind != KindMessage {
			return f.ElemSize
		}
		return -1
	}
	return f.ElemSize
}

// SkipElem returns the offset after one element of array field f (or
// after the value of a field that is not an array) at off.
func (c Cursor) SkipElem(f *FieldPlan, off int) (int, bool) {
	if off < 0 || off > len(c.data) {
		return off, false
	}
	if c.cdr {
		return cdrSkipValue(f, c.data, off, c.be)
	}
	return skipValue(f, c.data, off)
}

// Scalar reads a fixed-size value of kind k at off (aligned first, in
// CDR): integers sign- or zero-extended to 64 bits, float bits, a bool as
// 0 or 1, a time or duration as secs | nsecs<<32. Convert the bits with
// ScalarFloat and ScalarInt.
func (c Cursor) Scalar(k Kind, off int) (uint64, bool) {
	size := k.Size()
	if size < 0 {
		return 0, false
	}
	if c.cdr {
		off = cdrAlign(off, size)
	}
	if off < 0 || off > len(c.data)-size {
		return 0, false
	}
	if c.cdr {
		return readScalarCDR(k, c.data, off, c.be), true
	}
	return readScalar(k, c.data, off), true
}

// ScalarNext is Scalar that also returns the offset after the value.
func (c Cursor) ScalarNext(k Kind, off int) (uint64, int, bool) {
	size := k.Size()
	if size < 0 {
		return 0, off, false
	}
	if c.cdr {
		off = cdrAlign(off, size)
	}
	if off < 0 || off > len(c.data)-size {
		return 0, off, false
	}
	if c.cdr {
		return readScalarCDR(k, c.data, off, c.be), off + size, true
	}
	return readScalar(k, c.data, off), off + size, true
}

// Str reads a string or wstring at off: a string's bytes as stored
// (without CDR's NUL; an alias of the message data, valid as long as it
// is), or a wstring decoded into UTF-8 appended to buf[:0]. It returns the
// bytes and the offset after the value.
func (c Cursor) Str(k Kind, off int, buf []byte) ([]byte, int, bool) {
	if c.cdr {
		off = cdrAlign(off, 4)
	}
	if off < 0 || off > len(c.data)-4 {
		return nil, off, false
	}
	l := int(c.u32(off))
	left := len(c.data) - off - 4
	if k == KindWString {
		if l < 0 || l > left/4 {
			return nil, off, false
		}
		raw := c.data[off+4 : off+4+4*l]
		return appendWString(buf[:0], raw, c.be), off + 4 + 4*l, true
	}
	if l < 0 || l > left {
		return nil, off, false
	}
	b := c.data[off+4 : off+4+l]
	if c.cdr && l > 0 {
		b = b[:l-1]
	}
	return b, off + 4 + l, true
}

func (c Cursor) u32(off int) uint32 {
	if c.be {
		return binary.BigEndian.Uint32(c.data[off:])
	}
	return binary.LittleEndian.Uint32(c.data[off:])
}

// appendWString is decodeWString appending to dst.
func appendWString(dst, b []byte, be bool) []byte {
	for i := 0; i+4 <= len(b); i += 4 {
		r := rune(cdrU32(b, i, be))
		if r < 0 || r > utf8.MaxRune {
			r = utf8.RuneError
		}
		if utf16.IsSurrogate(r) {
			r2 := utf8.RuneError
			if i+8 <= len(b) {
				r2 = rune(cdrU32(b, i+4, be))
			}
			if p := utf16.DecodeRune(r, r2); p != utf8.RuneError {
				r = p
				i += 4
			} else {
				r = utf8.RuneError
			}
		}
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// ScalarFloat converts the bits Scalar reads to a float64: numbers as they
// are, a bool as 0 or 1, a time or duration in seconds.
func ScalarFloat(k Kind, bits uint64) float64 {
	v, _ := scalarFloat(k, bits)
	return v
}

// ScalarInt converts the bits Scalar reads of an integer or bool kind to
// an int64; ok is false for other kinds and for a uint64 above the
// largest int64.
func ScalarInt(k Kind, bits uint64) (int64, bool) {
	switch k {
	case KindBool, KindUint8, KindUint16, KindUint32, KindInt8, KindInt16, KindInt32, KindInt64:
		return int64(bits), true
	case KindUint64:
		return int64(bits), bits <= 1<<63-1
	}
	return 0, false
}
