package rosmsg

import (
	"fmt"
	"strconv"
	"strings"
)

// Path ops of CDR plans (besides opSkip).
const (
	opCAlign      = iota + 16 // align off to n
	opCSkipField              // skip one field of variable size, alignment-aware
	opCIndex                  // sequence: align, read count, check n < count, skip n elements
	opCFixedIndex             // fixed array of strings or messages: skip n elements
	opCIndexWhole             // strict opCIndex: the whole sequence must be in the data
)

// maxStaticSkips bounds the fields a CDR path skips by static offsets;
// beyond it nested messages are skipped at run time.
const maxStaticSkips = 1024

// cdrPathBuilder tracks what is known of the read position while compiling
// a CDR path: it is r modulo m (m 1, 2, 4 or 8) relative to the byte after
// the header, with skip bytes not yet emitted as an op.
type cdrPathBuilder struct {
	path        *Path
	skip, m, r  int
	staticSkips int
}

func (b *cdrPathBuilder) flush() {
	if b.skip > 0 {
		b.path.ops = append(b.path.ops, pathOp{code: opSkip, n: b.skip})
		b.skip = 0
	}
}

func (b *cdrPathBuilder) alignTo(a int) {
	if a <= 1 {
		return
	}
	if a <= b.m {
		pad := (a - b.r%a) % a
		b.skip += pad
		b.r = (b.r + pad) % b.m
		return
	}
	b.flush()
	b.path.ops = append(b.path.ops, pathOp{code: opCAlign, n: a})
	b.m, b.r = a, 0
}

func (b *cdrPathBuilder) advance(n int) {
	b.skip += n
	b.r = (b.r + n) % b.m
}

// dynamic adds an op whose effect on the position is known at run time only.
func (b *cdrPathBuilder) dynamic(op pathOp) {
	b.flush()
	b.path.ops = append(b.path.ops, op)
	b.m, b.r = 1, 0
}

// addSkip adds the ops that skip field f: primitives and nested messages of
// primitives by offset, the rest at run time.
func (b *cdrPathBuilder) addSkip(f *FieldPlan) {
	b.staticSkips++
	switch {
	case f.Size == 0:
	case !f.Array && f.Kind == KindMessage:
		if len(f.Msg.Fields) == 0 {
			b.advance(1)
			return
		}
		if b.staticSkips > maxStaticSkips {
			b.dynamic(pathOp{code: opCSkipField, field: f})
			return
		}
		for i := range f.Msg.Fields {
			b.addSkip(&f.Msg.Fields[i])
		}
	case f.ElemSize > 0 && (!f.Array || f.Len >= 0):
		n := 1
		if f.Array {
			n = f.Len
		}
		b.alignTo(f.ElemSize)
		b.advance(n * f.ElemSize)
	default:
		b.dynamic(pathOp{code: opCSkipField, field: f})
	}
}

// compileCDRPath is CompilePath for a CDR plan.
func compileCDRPath(p *Plan, s string, strict bool) (*Path, error) {
	fail := func(format string, args ...any) error {
		return &Error{Type: p.Type, Path: s, Offset: -1, Err: ErrPath, Msg: fmt.Sprintf(format, args...)}
	}
	if s == "" {
		return nil, fail("empty path")
	}
	path := &Path{text: s, cdr: true, strict: strict}
	b := cdrPathBuilder{path: path, m: 8}
	m := p.Root
	segs := strings.Split(s, ".")
	for si, seg := range segs {
		if m == nil {
			return nil, fail("%q follows a field that is not a message", seg)
		}
		name, idx := seg, -1
		if i := strings.IndexByte(seg, '['); i >= 0 {
			if !strings.HasSuffix(seg, "]") {
				return nil, fail("bad index in %q", seg)
			}
			n, err := strconv.Atoi(seg[i+1 : len(seg)-1])
			if err != nil || n < 0 || seg[i+1] == '+' {
				return nil, fail("bad index in %q", seg)
			}
			name, idx = seg[:i], n
		}
		k := -1
		for j := range m.Fields {
			if m.Fields[j].Name == name {
				k = j
				break
			}
		}
		if k < 0 {
			return nil, fail("%s has no field %q", m.Type, name)
		}
		for j := 0; j < k; j++ {
			b.addSkip(&m.Fields[j])
		}
		f := &m.Fields[k]
		switch {
		case f.Array && idx < 0:
			return nil, fail("%s is an array: give an index", name)
		case !f.Array && idx >= 0:
			return nil, fail("%s is not an array", name)
		case strict && f.Array && (f.ElemSize <= 0 || f.Kind == KindMessage):
			return nil, fail("%s's elements are not of one aligned size: a strict path does not index it", name)
		case f.Array && f.Len < 0:
			if f.Bound > 0 && idx >= f.Bound {
				return nil, fail("index %d out of range for %s", idx, f.Type)
			}
			code := uint8(opCIndex)
			if strict {
				code = opCIndexWhole
			}
			b.dynamic(pathOp{code: code, n: idx, field: f})
		case f.Array:
			if idx >= f.Len {
				return nil, fail("index %d out of range for %s", idx, f.Type)
			}
			if strict {
				// As Cursor.Array: the whole array in the data, after its
				// alignment.
				b.alignTo(f.ElemSize)
				b.flush()
				b.path.ops = append(b.path.ops, pathOp{code: opNeed, n: f.Len * f.ElemSize})
			}
			if f.ElemSize > 0 {
				b.alignTo(f.ElemSize)
				b.advance(idx * f.ElemSize)
			} else if idx > 0 {
				b.dynamic(pathOp{code: opCFixedIndex, n: idx, field: f})
			}
		}
		if f.Kind == KindMessage {
			m = f.Msg
			if si == len(segs)-1 {
				return nil, fail("%s is a message, not a plottable value", name)
			}
			continue
		}
		if !f.Kind.Plottable() {
			return nil, fail("%s is a %s, not a plottable value", name, f.Kind)
		}
		if si != len(segs)-1 {
			return nil, fail("%s is a %s, not a message", name, f.Kind)
		}
		path.kind = f.Kind
		b.alignTo(f.ElemSize)
		b.flush()
		return path, nil
	}
	return nil, fail("path does not end at a value")
}

// float64CDR is Path.Float64 for a CDR plan.
func (p *Path) float64CDR(data []byte) (float64, error) {
	be, herr := cdrHeader(data)
	if herr != nil {
		herr.Path = p.text
		return 0, herr
	}
	off, fail := p.seekCDR(data, be)
	if fail.code != seekOK {
		return 0, p.seekError(fail)
	}
	v, _ := scalarFloat(p.kind, readScalarCDR(p.kind, data, off, be))
	return v, nil
}

// cdrHeaderOK is cdrHeader without the error.
func cdrHeaderOK(data []byte) (be, ok bool) {
	if len(data) < 4 || data[0] != 0 || data[1] > 1 {
		return false, false
	}
	return data[1] == 0, true
}

// seekCDR is seek for a CDR path, after the header.
func (p *Path) seekCDR(data []byte, be bool) (int, seekFail) {
	off, fail, _ := p.seekCDRFrom(data, be, 0, 4, nil)
	return off, fail
}

// seekCDRFrom is seekFrom for a CDR path.
func (p *Path) seekCDRFrom(data []byte, be bool, from, off int, offs []int) (int, seekFail, int) {
	i := from
	for ; i < len(p.ops); i++ {
		if offs != nil {
			offs[i] = off
		}
		op := &p.ops[i]
		var ok bool
		switch op.code {
		case opSkip:
			off += op.n
			ok = off <= len(data)
		case opCAlign:
			off = cdrAlign(off, op.n)
			ok = off <= len(data)
		case opCSkipField:
			off, ok = cdrSkipField(op.field, data, off, be)
		case opCIndex:
			off = cdrAlign(off, 4)
			if off > len(data)-4 {
				return off, seekFail{code: seekCount, off: min(off, len(data))}, i
			}
			n := int(cdrU32(data, off, be))
			if op.n >= n {
				return off, seekFail{code: seekIndex, off: off, n: op.n, of: n}, i
			}
			off, ok = cdrSkipElems(op.field, op.n, data, off+4, be)
		case opCFixedIndex:
			off, ok = cdrSkipElems(op.field, op.n, data, off, be)
		case opNeed:
			ok = off <= len(data) && len(data)-off >= op.n
		case opCIndexWhole:
			// As Cursor.Array: the count, then every element in the data
			// (after the elements' alignment).
			off = cdrAlign(off, 4)
			if off > len(data)-4 {
				return off, seekFail{code: seekCount, off: min(off, len(data))}, i
			}
			n := int(cdrU32(data, off, be))
			es := op.field.ElemSize
			first := off + 4
			if n > 0 {
				first = cdrAlign(first, es)
			}
			if first > len(data) || n > (len(data)-first)/es {
				return off, seekFail{code: seekTruncated, off: min(off, len(data))}, i
			}
			if op.n >= n {
				return off, seekFail{code: seekIndex, off: off, n: op.n, of: n}, i
			}
			off, ok = first+op.n*es, true
		}
		if !ok {
			return off, seekFail{code: seekTruncated, off: min(off, len(data))}, i
		}
	}
	if offs != nil {
		offs[i] = off
	}
	if size := p.kind.Size(); off > len(data)-size {
		return off, seekFail{code: seekTruncated, off: min(off, len(data))}, i
	}
	return off, seekFail{}, i
}

// The CDR skip functions return the offset after the skipped bytes, or the
// offset where the data turned out too short and false. off may be past the
// end of data on entry.

func cdrSkipField(f *FieldPlan, data []byte, off int, be bool) (int, bool) {
	if f.Size == 0 {
		return off, true
	}
	if !f.Array {
		return cdrSkipValue(f, data, off, be)
	}
	n := f.Len
	if n < 0 {
		off = cdrAlign(off, 4)
		if off > len(data)-4 {
			return off, false
		}
		n = int(cdrU32(data, off, be))
		off += 4
	}
	return cdrSkipElems(f, n, data, off, be)
}

// cdrSkipElems skips n elements of array field f.
func cdrSkipElems(f *FieldPlan, n int, data []byte, off int, be bool) (int, bool) {
	if n == 0 || f.Msg != nil && f.Msg.Size == 0 {
		return off, true
	}
	if f.ElemSize > 0 {
		off = cdrAlign(off, f.ElemSize)
		if off > len(data) || n > (len(data)-off)/f.ElemSize {
			return off, false
		}
		return off + n*f.ElemSize, true
	}
	min := 4
	if f.Msg != nil {
		min = f.Msg.MinSize
	}
	if left := len(data) - off; left < 0 || min > 0 && n > left/min || min == 0 && n > maxZeroSizeCount {
		return off, false
	}
	var ok bool
	for range n {
		if off, ok = cdrSkipValue(f, data, off, be); !ok {
			return off, false
		}
	}
	return off, true
}

// cdrSkipValue skips one element (or the non-array value) of field f.
func cdrSkipValue(f *FieldPlan, data []byte, off int, be bool) (int, bool) {
	switch f.Kind {
	case KindMessage:
		return cdrSkipMsg(f.Msg, data, off, be)
	case KindString, KindWString:
		off = cdrAlign(off, 4)
		if off > len(data)-4 {
			return off, false
		}
		l := int(cdrU32(data, off, be))
		if f.Kind == KindWString {
			if l > (len(data)-off-4)/4 {
				return off, false
			}
			return off + 4 + 4*l, true
		}
		if l > len(data)-off-4 {
			return off, false
		}
		return off + 4 + l, true
	}
	off = cdrAlign(off, f.ElemSize)
	if off > len(data)-f.ElemSize {
		return off, false
	}
	return off + f.ElemSize, true
}

func cdrSkipMsg(m *MsgPlan, data []byte, off int, be bool) (int, bool) {
	if m.Size == 0 {
		return off, true
	}
	if len(m.Fields) == 0 {
		if off >= len(data) {
			return off, false
		}
		return off + 1, true
	}
	var ok bool
	for i := range m.Fields {
		if off, ok = cdrSkipField(&m.Fields[i], data, off, be); !ok {
			return off, false
		}
	}
	return off, true
}

// FixedCDR reports the offset of the value a CDR path reads when it is the
// same in every message (only fixed-size fields, without alignment decided
// at run time, before it), so that a reader of many messages may read the
// value there directly. A message the path reads at that offset is at least
// off+Kind().Size() bytes long and starts with a CDR encapsulation header
// (data[0] == 0, data[1] <= 1, data[1] == 1 little-endian); Float64 fails on
// any other. ok is false for a path of a ROS 1 plan.
func (p *Path) FixedCDR() (off int, ok bool) {
	if !p.cdr || p.part != 0 {
		return 0, false
	}
	off = 4
	for _, op := range p.ops {
		if op.code != opSkip {
			return 0, false
		}
		off += op.n
	}
	return off, true
}
