package rosmsg

import (
	"encoding/binary"
	"fmt"
	"math"
)

// maxZeroSizeCount bounds the count of an array whose elements serialize to
// zero bytes (such as std_msgs/Empty[]), which the remaining bytes cannot bound.
const maxZeroSizeCount = 1 << 16

// Node budget: a tree may hold at most nodesPerByte*len(data)+extraNodes
// nodes, so that nested arrays of empty messages cannot blow up memory.
const (
	nodesPerByte = 8
	extraNodes   = 1 << 16
)

// Decode decodes one serialized message into a tree whose root is the
// message itself.
//
// If the data holds bytes after the end of the message, Decode returns the
// complete tree together with an *Error wrapping ErrTrailingBytes (Offset is
// where the unused bytes start); callers that accept such messages test for
// it with errors.Is. Any other error means the data does not match the plan;
// the tree is then nil.
//
// Counts and lengths are checked against the remaining bytes before anything
// is allocated. Arrays of zero-size elements (std_msgs/Empty[]) are limited
// to 65536 elements, and a tree to 8 nodes per data byte plus 65536, so that
// crafted data cannot make Decode allocate without bound.
//
// For a CDR plan, data is the whole message including its 4-byte
// encapsulation header, and node ranges are offsets into it; up to 3 padding
// bytes after the last field are not trailing bytes.
func (p *Plan) Decode(data []byte) (*Node, error) { return p.DecodeScratch(data, nil) }

// Scratch is memory that decoding one message after another reuses, so
// that a tree's nodes are not allocated anew for every message (a reader
// decoding a million messages on every core otherwise keeps the collector
// busy with them). A Scratch is used by one goroutine at a time.
type Scratch struct {
	root Node
	slab []Node
	used int
}

// scratchSlab is how many nodes a Scratch reuses; a message needing more
// takes the rest from the heap, as Decode does.
const scratchSlab = 1024

// DecodeScratch is Decode with the tree's nodes taken from s (nil: from
// the heap): the tree is valid until the next DecodeScratch with s.
func (p *Plan) DecodeScratch(data []byte, s *Scratch) (*Node, error) {
	if p.cdr {
		return p.decodeCDR(data, s)
	}
	d := decoder{data: data, budget: nodesPerByte*len(data) + extraNodes, s: s}
	root := d.root(p.Type)
	end, err := d.message(p.Root, root, 0)
	if err != nil {
		err.Type = p.Type
		return nil, err
	}
	root.End = end
	if end != len(data) {
		return root, &Error{Type: p.Type, Offset: end, Err: ErrTrailingBytes,
			Msg: fmt.Sprintf("%d unused bytes", len(data)-end)}
	}
	return root, nil
}

type decoder struct {
	data   []byte
	budget int      // nodes that may still be allocated
	s      *Scratch // nil: nodes from the heap
}

// root returns the tree's root, of a message of type typ.
func (d *decoder) root(typ string) *Node {
	if d.s == nil {
		return &Node{Index: -1, Type: typ, Kind: KindMessage}
	}
	d.s.used = 0
	d.s.root = Node{Index: -1, Type: typ, Kind: KindMessage}
	return &d.s.root
}

// nodes allocates n nodes from the budget.
func (d *decoder) nodes(off, n int) ([]Node, *Error) {
	if n > d.budget {
		return nil, d.fail(off, ErrTooLarge, "more than %d nodes", nodesPerByte*len(d.data)+extraNodes)
	}
	d.budget -= n
	if s := d.s; s != nil && n <= scratchSlab {
		if s.used+n > len(s.slab) {
			// The nodes given so far stay with the tree being built.
			s.slab, s.used = make([]Node, scratchSlab), 0
		}
		out := s.slab[s.used : s.used+n : s.used+n]
		clear(out)
		s.used += n
		return out, nil
	}
	return make([]Node, n), nil
}

func (d *decoder) fail(off int, sentinel error, format string, args ...any) *Error {
	return &Error{Offset: off, Err: sentinel, Msg: fmt.Sprintf(format, args...)}
}

// need checks that n bytes remain at off.
func (d *decoder) need(off, n int) *Error {
	if n < 0 || n > len(d.data)-off {
		return d.fail(off, ErrTruncated, "need %d bytes, %d left", n, len(d.data)-off)
	}
	return nil
}

func (d *decoder) count(off int) (int, *Error) {
	if err := d.need(off, 4); err != nil {
		return 0, err
	}
	n := binary.LittleEndian.Uint32(d.data[off:])
	if uint64(n) > math.MaxInt32 {
		return 0, d.fail(off, ErrTooLarge, "length %d", n)
	}
	return int(n), nil
}

// message decodes the fields of m at off into n.Children and sets n.Start;
// it returns the end offset.
func (d *decoder) message(m *MsgPlan, n *Node, off int) (int, *Error) {
	n.Start = off
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
	n.End = off
	return off, nil
}

// value decodes one non-array value (or one array element) of field f.
func (d *decoder) value(f *FieldPlan, n *Node, off int) (int, *Error) {
	n.Start = off
	switch f.Kind {
	case KindMessage:
		return d.message(f.Msg, n, off)
	case KindString:
		l, err := d.count(off)
		if err != nil {
			return 0, err
		}
		if err := d.need(off+4, l); err != nil {
			err.Err = ErrTooLarge
			err.Offset = off
			err.Msg = fmt.Sprintf("string length %d, %d bytes left", l, len(d.data)-off-4)
			return 0, err
		}
		n.str = decodeUTF8(d.data[off+4 : off+4+l])
		n.End = off + 4 + l
		return n.End, nil
	}
	sz := f.Kind.Size()
	if err := d.need(off, sz); err != nil {
		return 0, err
	}
	n.bits = readScalar(f.Kind, d.data, off)
	n.End = off + sz
	return n.End, nil
}

func (d *decoder) array(f *FieldPlan, n *Node, off int) (int, *Error) {
	n.Start = off
	cnt := f.Len
	if cnt < 0 {
		var err *Error
		if cnt, err = d.count(off); err != nil {
			return 0, err
		}
		n.hdr = 4
	}
	body := off + n.hdr
	left := len(d.data) - body
	// Check the count against the bytes left before allocating anything.
	min := f.ElemSize
	if min < 0 {
		min = 4 // a string's length
		if f.Msg != nil {
			min = f.Msg.MinSize
		}
	}
	if min > 0 && cnt > left/min {
		sentinel := ErrTooLarge
		if f.Len >= 0 {
			sentinel = ErrTruncated
		}
		return 0, d.fail(off, sentinel, "%d elements of at least %d bytes, %d bytes left", cnt, min, left)
	}
	if min == 0 && cnt > maxZeroSizeCount {
		return 0, d.fail(off, ErrTooLarge, "%d elements of 0 bytes", cnt)
	}
	if f.ElemSize >= 0 && f.Kind != KindMessage {
		n.slice = compactSlice(f.Kind, d.data[body:body+cnt*f.ElemSize], cnt)
		n.End = body + cnt*f.ElemSize
		return n.End, nil
	}
	var err *Error
	if n.Children, err = d.nodes(off, cnt); err != nil {
		return 0, err
	}
	et := f.ElemType
	for i := range n.Children {
		c := &n.Children[i]
		c.Index, c.Type, c.Kind = i, et, f.Kind
		if body, err = d.value(f, c, body); err != nil {
			err.prefixIndex(i)
			return 0, err
		}
	}
	n.End = body
	return body, nil
}

// compactSlice converts cnt little-endian elements of kind k in b (exactly
// cnt*k.Size() bytes) into a typed slice.
func compactSlice(k Kind, b []byte, cnt int) any {
	le := binary.LittleEndian
	switch k {
	case KindUint8:
		return append([]byte(nil), b...)
	case KindBool:
		s := make([]bool, cnt)
		for i := range s {
			s[i] = b[i] != 0
		}
		return s
	case KindInt8:
		s := make([]int8, cnt)
		for i := range s {
			s[i] = int8(b[i])
		}
		return s
	case KindInt16:
		s := make([]int16, cnt)
		for i := range s {
			s[i] = int16(le.Uint16(b[2*i:]))
		}
		return s
	case KindUint16:
		s := make([]uint16, cnt)
		for i := range s {
			s[i] = le.Uint16(b[2*i:])
		}
		return s
	case KindInt32:
		s := make([]int32, cnt)
		for i := range s {
			s[i] = int32(le.Uint32(b[4*i:]))
		}
		return s
	case KindUint32:
		s := make([]uint32, cnt)
		for i := range s {
			s[i] = le.Uint32(b[4*i:])
		}
		return s
	case KindInt64:
		s := make([]int64, cnt)
		for i := range s {
			s[i] = int64(le.Uint64(b[8*i:]))
		}
		return s
	case KindUint64:
		s := make([]uint64, cnt)
		for i := range s {
			s[i] = le.Uint64(b[8*i:])
		}
		return s
	case KindFloat32:
		s := make([]float32, cnt)
		for i := range s {
			s[i] = math.Float32frombits(le.Uint32(b[4*i:]))
		}
		return s
	case KindFloat64:
		s := make([]float64, cnt)
		for i := range s {
			s[i] = math.Float64frombits(le.Uint64(b[8*i:]))
		}
		return s
	case KindTime:
		s := make([]Time, cnt)
		for i := range s {
			s[i] = Time{le.Uint32(b[8*i:]), le.Uint32(b[8*i+4:])}
		}
		return s
	case KindDuration:
		s := make([]Duration, cnt)
		for i := range s {
			s[i] = Duration{int32(le.Uint32(b[8*i:])), int32(le.Uint32(b[8*i+4:]))}
		}
		return s
	}
	return nil
}
