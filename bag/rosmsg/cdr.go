package rosmsg

import (
	"encoding/binary"
	"fmt"
	"math"
	"unicode/utf16"
	"unicode/utf8"
)

// CDR as rmw writes it (XCDR1, plain CDR):
//
//   - a 4-byte encapsulation header 00 KK OO OO: KK 0x00 big-endian, 0x01
//     little-endian; the two option bytes are ignored. Other kinds (parameter
//     lists, XCDR2) are refused with ErrUnsupportedEncoding;
//   - each primitive is aligned to its size (8-byte types to 8), counted from
//     the byte after the header; nested structs add no alignment of their own;
//   - string: uint32 length including the NUL, the bytes, the NUL (a length
//     of 0 is read as an empty string);
//   - sequences T[] and T[<=N]: uint32 count, then the elements; fixed
//     arrays T[N]: the elements only;
//   - a struct without fields holds one byte;
//   - wstring is not written by every middleware alike, and
//     @foxglove/rosmsg2-serialization refuses it. We read what Fast-DDS
//     (the default rmw) writes: a uint32 count of characters, no terminator,
//     then each character as a 4-byte unit holding a UTF-16 code unit;
//     surrogate pairs are joined. IDL wchar is read as such a 4-byte unit.

// compileCDR compiles the plan of a parsed ROS 2 definition for CDR data.
func compileCDR(d *Definition, schemaEncoding string) (*Plan, error) {
	c := cdrCompiler{d: d, plans: make(map[string]*MsgPlan), active: make(map[string]bool)}
	root, err := c.msg(d.Type)
	if err != nil {
		return nil, err
	}
	return &Plan{Type: d.Type, Definition: d, Root: root, SchemaEncoding: schemaEncoding,
		MessageEncoding: EncodingCDR, cdr: true}, nil
}

type cdrCompiler struct {
	d      *Definition
	plans  map[string]*MsgPlan
	active map[string]bool
}

func (c *cdrCompiler) msg(typ string) (*MsgPlan, error) {
	if p, ok := c.plans[typ]; ok {
		return p, nil
	}
	s, ok := c.d.Specs[typ]
	if !ok {
		return nil, defError(c.d.Type, "", ErrUnknownType, fmt.Sprintf("%s is not in the definition", typ))
	}
	if c.active[typ] {
		return nil, defError(c.d.Type, "", ErrRecursive, typ+" contains itself")
	}
	c.active[typ] = true
	defer delete(c.active, typ)
	p := &MsgPlan{Type: typ, Constants: s.Constants, Fields: make([]FieldPlan, len(s.Fields)), Size: 0}
	for i, f := range s.Fields {
		fp := FieldPlan{Name: f.Name, Type: f.Type, ElemType: f.BaseType, Array: f.Array, Len: f.Len,
			Bound: f.Bound, StrBound: f.StrBound, Size: -1, ElemSize: -1, Offset: -1}
		if f.StrBound > 0 {
			fp.ElemType = fmt.Sprintf("%s<=%d", f.BaseType, f.StrBound)
		}
		elemMin := 4 // a string's or wstring's length
		if k, ok := ros2Kinds[f.BaseType]; ok {
			fp.Kind = k
			if sz := k.Size(); sz > 0 {
				fp.ElemSize, elemMin = sz, sz
			}
		} else {
			sub, err := c.msg(f.BaseType)
			if err != nil {
				err.(*Error).prefixField(f.Name)
				return nil, err
			}
			fp.Kind, fp.Msg, elemMin = KindMessage, sub, sub.MinSize
		}
		switch {
		case !f.Array:
			fp.MinSize = elemMin
			if fp.Msg != nil && fp.Msg.Size == 0 {
				fp.Size = 0
			}
		case f.Len < 0:
			fp.MinSize = 4
		default:
			fp.MinSize = satMul(f.Len, elemMin)
			if f.Len == 0 || fp.Msg != nil && fp.Msg.Size == 0 {
				fp.Size = 0
			}
		}
		if fp.MinSize > maxFixedSize {
			return nil, defError(c.d.Type, f.Name, ErrSyntax, "fixed size too large")
		}
		p.MinSize += fp.MinSize
		if p.MinSize > maxFixedSize {
			return nil, defError(c.d.Type, f.Name, ErrSyntax, "fixed size too large")
		}
		if fp.Size != 0 {
			p.Size = -1
		}
		p.Fields[i] = fp
	}
	if len(s.Fields) == 0 {
		p.MinSize, p.Size = 1, -1 // structure_needs_at_least_one_member
	}
	c.plans[typ] = p
	return p, nil
}

// cdrAlign returns off advanced to a multiple of a (a power of 2) counted
// from the byte after the encapsulation header.
func cdrAlign(off, a int) int { return off + (-(off - 4) & (a - 1)) }

// cdrKindName names an encapsulation kind.
func cdrKindName(k byte) string {
	names := [...]string{"CDR_BE", "CDR_LE", "PL_CDR_BE", "PL_CDR_LE", "", "", "CDR2_BE", "CDR2_LE",
		"PL_CDR2_BE", "PL_CDR2_LE", "D_CDR2_BE", "D_CDR2_LE"}
	if int(k) < len(names) && names[k] != "" {
		return names[k]
	}
	return "unknown"
}

// cdrHeader checks the encapsulation header and reports whether the data is
// big-endian.
func cdrHeader(data []byte) (bool, *Error) {
	if len(data) < 4 {
		return false, &Error{Offset: 0, Err: ErrTruncated, Msg: fmt.Sprintf("%d bytes, no CDR encapsulation header", len(data))}
	}
	if data[0] != 0 || data[1] > 1 {
		return false, &Error{Offset: 0, Err: ErrUnsupportedEncoding,
			Msg: fmt.Sprintf("CDR encapsulation kind 0x%02x%02x (%s): only CDR_BE (0x0000) and CDR_LE (0x0001) are decoded",
				data[0], data[1], cdrKindName(data[1]))}
	}
	return data[1] == 0, nil
}

func cdrU32(data []byte, off int, be bool) uint32 {
	if be {
		return binary.BigEndian.Uint32(data[off:])
	}
	return binary.LittleEndian.Uint32(data[off:])
}

// readScalarCDR reads a fixed-size scalar like readScalar, in either byte order.
func readScalarCDR(k Kind, data []byte, off int, be bool) uint64 {
	sz := k.Size()
	if !be || sz == 1 {
		return readScalar(k, data, off)
	}
	var b [8]byte
	for i := 0; i < sz; i++ {
		b[i] = data[off+sz-1-i]
	}
	return readScalar(k, b[:], 0)
}

// compactCDR is compactSlice for either byte order.
func compactCDR(k Kind, b []byte, cnt int, be bool) any {
	sz := k.Size()
	if be && sz > 1 {
		c := make([]byte, len(b))
		for i := 0; i+sz <= len(b); i += sz {
			for j := 0; j < sz; j++ {
				c[i+j] = b[i+sz-1-j]
			}
		}
		b = c
	}
	return compactSlice(k, b, cnt)
}

// maxCDRPadding is how many bytes may follow the last field of a CDR message
// (padding to a multiple of 4) before they count as trailing bytes.
const maxCDRPadding = 3

// decodeCDR is Decode for a CDR plan. The root covers the data from offset 0
// (the encapsulation header) to the end of its last field; every other node's
// range starts at its first byte after alignment padding.
func (p *Plan) decodeCDR(data []byte, s *Scratch) (*Node, error) {
	be, err := cdrHeader(data)
	if err != nil {
		err.Type = p.Type
		return nil, err
	}
	d := cdrDecoder{decoder: decoder{data: data, budget: nodesPerByte*len(data) + extraNodes, s: s}, be: be}
	root := d.root(p.Type)
	end, err := d.message(p.Root, root, 4)
	if err != nil {
		err.Type = p.Type
		return nil, err
	}
	root.Start, root.End = 0, end
	if len(data)-end > maxCDRPadding {
		return root, &Error{Type: p.Type, Offset: end, Err: ErrTrailingBytes,
			Msg: fmt.Sprintf("%d unused bytes", len(data)-end)}
	}
	return root, nil
}

type cdrDecoder struct {
	decoder
	be bool
}

// align aligns off to a, checking that the padding is in the data.
func (d *cdrDecoder) align(off, a int) (int, *Error) {
	n := cdrAlign(off, a)
	if n > len(d.data) {
		return 0, d.fail(off, ErrTruncated, "alignment padding runs past the end (%d bytes left)", len(d.data)-off)
	}
	return n, nil
}

// count reads a uint32 length or count at off (aligned).
func (d *cdrDecoder) count(off int) (int, *Error) {
	if err := d.need(off, 4); err != nil {
		return 0, err
	}
	n := cdrU32(d.data, off, d.be)
	if uint64(n) > math.MaxInt32 {
		return 0, d.fail(off, ErrTooLarge, "length %d", n)
	}
	return int(n), nil
}

func (d *cdrDecoder) message(m *MsgPlan, n *Node, off int) (int, *Error) {
	n.Start = off
	if len(m.Fields) == 0 {
		if err := d.need(off, 1); err != nil {
			return 0, err
		}
		n.End = off + 1
		return n.End, nil
	}
	var err *Error
	if n.Children, err = d.nodes(off, len(m.Fields)); err != nil {
		return 0, err
	}
	for i := range m.Fields {
		f := &m.Fields[i]
		c := &n.Children[i]
		c.Name, c.Index, c.Type, c.Kind, c.Array = f.Name, -1, f.Type, f.Kind, f.Array
		if f.Array {
			off, err = d.array(f, c, off)
		} else {
			off, err = d.value(f, c, off)
		}
		if err != nil {
			err.prefixField(f.Name)
			return 0, err
		}
	}
	n.Start = n.Children[0].Start
	n.End = off
	return off, nil
}

func (d *cdrDecoder) value(f *FieldPlan, n *Node, off int) (int, *Error) {
	switch f.Kind {
	case KindMessage:
		return d.message(f.Msg, n, off)
	case KindString, KindWString:
		return d.str(f, n, off)
	}
	sz := f.ElemSize
	off, err := d.align(off, sz)
	if err != nil {
		return 0, err
	}
	if err := d.need(off, sz); err != nil {
		return 0, err
	}
	n.Start = off
	n.bits = readScalarCDR(f.Kind, d.data, off, d.be)
	n.End = off + sz
	return n.End, nil
}

func (d *cdrDecoder) str(f *FieldPlan, n *Node, off int) (int, *Error) {
	off, err := d.align(off, 4)
	if err != nil {
		return 0, err
	}
	l, err := d.count(off)
	if err != nil {
		return 0, err
	}
	n.Start = off
	unit := 1
	if f.Kind == KindWString {
		unit = 4
	}
	left := len(d.data) - off - 4
	if l > left/unit {
		return 0, d.fail(off, ErrTooLarge, "string length %d, %d bytes left", l, left)
	}
	b := d.data[off+4 : off+4+l*unit]
	n.End = off + 4 + l*unit
	if f.Kind == KindWString {
		if f.StrBound > 0 && l > f.StrBound {
			return 0, d.fail(off, ErrBound, "%d characters in a wstring<=%d", l, f.StrBound)
		}
		n.str = decodeWString(b, d.be)
		return n.End, nil
	}
	if l > 0 {
		b = b[:l-1] // the NUL
	}
	if f.StrBound > 0 && len(b) > f.StrBound {
		return 0, d.fail(off, ErrBound, "%d bytes in a string<=%d", len(b), f.StrBound)
	}
	n.str = decodeUTF8(b)
	return n.End, nil
}

// decodeWString decodes 4-byte units holding UTF-16 code units (or whole
// code points) into UTF-8; unpaired surrogates and invalid values become U+FFFD.
func decodeWString(b []byte, be bool) string {
	out := make([]byte, 0, len(b)/4)
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
		out = utf8.AppendRune(out, r)
	}
	return string(out)
}

func (d *cdrDecoder) array(f *FieldPlan, n *Node, off int) (int, *Error) {
	cnt := f.Len
	n.Start = off
	if cnt < 0 {
		var err *Error
		if off, err = d.align(off, 4); err != nil {
			return 0, err
		}
		if cnt, err = d.count(off); err != nil {
			return 0, err
		}
		if f.Bound > 0 && cnt > f.Bound {
			return 0, d.fail(off, ErrBound, "%d elements in a sequence of at most %d", cnt, f.Bound)
		}
		n.Start, n.hdr = off, 4
		off += 4
	}
	left := len(d.data) - off
	min := f.ElemSize
	if min < 0 {
		min = 4
		if f.Msg != nil {
			min = f.Msg.MinSize
		}
	}
	if min > 0 && cnt > left/min {
		sentinel := ErrTooLarge
		if f.Len >= 0 {
			sentinel = ErrTruncated
		}
		return 0, d.fail(n.Start, sentinel, "%d elements of at least %d bytes, %d bytes left", cnt, min, left)
	}
	if min == 0 && cnt > maxZeroSizeCount {
		return 0, d.fail(n.Start, ErrTooLarge, "%d elements of 0 bytes", cnt)
	}
	if f.ElemSize > 0 {
		body := off
		if cnt > 0 {
			var err *Error
			if body, err = d.align(off, f.ElemSize); err != nil {
				return 0, err
			}
			if cnt > (len(d.data)-body)/f.ElemSize {
				return 0, d.fail(n.Start, ErrTruncated, "%d elements of %d bytes, %d bytes left", cnt, f.ElemSize, len(d.data)-body)
			}
			if f.Len >= 0 {
				n.Start = body
			} else {
				n.hdr = body - n.Start
			}
		}
		end := body + cnt*f.ElemSize
		n.slice = compactCDR(f.Kind, d.data[body:end], cnt, d.be)
		n.End = end
		return end, nil
	}
	var err *Error
	if n.Children, err = d.nodes(n.Start, cnt); err != nil {
		return 0, err
	}
	et := f.ElemType
	for i := range n.Children {
		c := &n.Children[i]
		c.Index, c.Type, c.Kind = i, et, f.Kind
		if off, err = d.value(f, c, off); err != nil {
			err.prefixIndex(i)
			return 0, err
		}
	}
	if f.Len >= 0 && cnt > 0 {
		n.Start = n.Children[0].Start
	}
	n.End = off
	return off, nil
}
