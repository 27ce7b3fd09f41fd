package rosmsg

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// Path is a compiled field path such as "transforms[0].transform.translation.x".
// It reads one plottable value out of serialized message data without
// decoding the rest: fixed-size fields before it are skipped by offset,
// variable-size ones by reading their lengths only. A Path is immutable and
// safe for concurrent use; Float64 does not allocate unless it fails.
type Path struct {
	text   string
	ops    []pathOp
	strict bool  // indices read like a Cursor walk (CompileStrictPath)
	kind   Kind  // kind of the value read
	part   uint8 // for time and duration: 0 whole (seconds), 1 secs, 2 nsecs
	cdr    bool  // the path reads CDR data (ops include the opC* codes)
}

type pathOp struct {
	code  uint8
	n     int        // bytes to skip, or element index
	field *FieldPlan // field to skip, or array to index
}

const (
	opSkip       = iota // off += n
	opSkipField         // skip one variable-size field
	opIndex             // variable array: read count, check n < count, skip n elements
	opFixedIndex        // fixed array of variable-size elements: skip n elements
	opSkipString        // skip one string: its length, then its bytes
	opNeed              // strict: n bytes (a fixed array, whole) must follow off
	opIndexWhole        // strict opIndex: the whole array must be in the data
)

// CompilePath compiles a field path for plan p. A path is field names
// separated by '.', each optionally followed by an index "[N]" for an array
// field; it must end at a plottable field (a number, bool, time or duration).
// A time or duration may be followed by ".secs" or ".nsecs".
//
// A path of a CDR plan reads whole CDR messages (header included), skipping
// earlier fields with their alignment padding.
//
// CompileSelection compiles paths whose brackets also hold ranges, [*],
// keys and field matches, reading one value per selected element.
func CompilePath(p *Plan, s string) (*Path, error) { return compilePath(p, s, false) }

// CompileStrictPath is CompilePath for readers that must fail where a
// Cursor walk fails (the expression's fast path): an index reads an array
// only when all of it is in the data, as Cursor.Array requires, not just
// the elements up to the index. Indices into arrays whose elements vary in
// size (or, in CDR, into arrays of messages, strings or bytes whose
// elements alignment may pad) are not compiled: the error says so.
func CompileStrictPath(p *Plan, s string) (*Path, error) { return compilePath(p, s, true) }

func compilePath(p *Plan, s string, strict bool) (*Path, error) {
	if p.cdr {
		return compileCDRPath(p, s, strict)
	}
	fail := func(format string, args ...any) error {
		return &Error{Type: p.Type, Path: s, Offset: -1, Err: ErrPath, Msg: fmt.Sprintf(format, args...)}
	}
	if s == "" {
		return nil, fail("empty path")
	}
	path := &Path{text: s, strict: strict}
	m := p.Root
	skip := 0
	flush := func() {
		if skip > 0 {
			path.ops = append(path.ops, pathOp{code: opSkip, n: skip})
			skip = 0
		}
	}
	segs := strings.Split(s, ".")
	for si := 0; si < len(segs); si++ {
		seg := segs[si]
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
			path.addSkip(&m.Fields[j], &skip, flush)
		}
		f := &m.Fields[k]
		switch {
		case f.Array && idx < 0:
			return nil, fail("%s is an array: give an index", name)
		case !f.Array && idx >= 0:
			return nil, fail("%s is not an array", name)
		case strict && f.Array && f.ElemSize <= 0:
			return nil, fail("%s's elements vary in size: a strict path does not index it", name)
		case f.Array && f.Len < 0:
			flush()
			code := uint8(opIndex)
			if strict {
				code = opIndexWhole
			}
			path.ops = append(path.ops, pathOp{code: code, n: idx, field: f})
		case f.Array:
			if idx >= f.Len {
				return nil, fail("index %d out of range for %s", idx, f.Type)
			}
			if strict {
				flush()
				path.ops = append(path.ops, pathOp{code: opNeed, n: f.Len * f.ElemSize})
			}
			if f.ElemSize >= 0 {
				skip += idx * f.ElemSize
			} else {
				flush()
				path.ops = append(path.ops, pathOp{code: opFixedIndex, n: idx, field: f})
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
		path.kind = f.Kind
		rest := segs[si+1:]
		if len(rest) == 1 && (f.Kind == KindTime || f.Kind == KindDuration) {
			switch rest[0] {
			case "secs":
				path.part = 1
			case "nsecs":
				path.part, skip = 2, skip+4
			default:
				return nil, fail("%s has no part %q", f.Kind, rest[0])
			}
		} else if len(rest) > 0 {
			return nil, fail("%s is a %s, not a message", name, f.Kind)
		}
		flush()
		return path, nil
	}
	return nil, fail("path does not end at a value")
}

// addSkip adds the ops that skip field f. A variable-size message that is
// not an array is skipped field by field, so its fixed-size fields merge
// into one offset: a std_msgs/Header becomes "12 bytes, a string".
func (path *Path) addSkip(f *FieldPlan, skip *int, flush func()) {
	switch {
	case f.Size >= 0:
		*skip += f.Size
	case !f.Array && f.Kind == KindMessage:
		for i := range f.Msg.Fields {
			path.addSkip(&f.Msg.Fields[i], skip, flush)
		}
	case !f.Array && f.Kind == KindString:
		flush()
		path.ops = append(path.ops, pathOp{code: opSkipString})
	default:
		flush()
		path.ops = append(path.ops, pathOp{code: opSkipField, field: f})
	}
}

// String returns the path as written.
func (p *Path) String() string { return p.text }

// Kind returns the kind of the value the path reads.
func (p *Path) Kind() Kind { return p.kind }

// Float64 reads the path's value from one serialized message: numbers as
// float64, bool as 0 or 1, time and duration in seconds (or their secs or
// nsecs part). Errors are *Error: ErrIndex if an array of this message is too
// short for the path's index, ErrTruncated or ErrTooLarge for bad data.
func (p *Path) Float64(data []byte) (float64, error) {
	if p.cdr {
		return p.float64CDR(data)
	}
	off, fail := p.seek(data)
	if fail.code != seekOK {
		return 0, p.seekError(fail)
	}
	switch p.part {
	case 1:
		if p.kind == KindDuration {
			return float64(int32(binary.LittleEndian.Uint32(data[off:]))), nil
		}
		return float64(binary.LittleEndian.Uint32(data[off:])), nil
	case 2:
		if p.kind == KindDuration {
			return float64(int32(binary.LittleEndian.Uint32(data[off:]))), nil
		}
		return float64(binary.LittleEndian.Uint32(data[off:])), nil
	}
	v, _ := scalarFloat(p.kind, readScalar(p.kind, data, off))
	return v, nil
}

// Bits reads the path's value from one serialized message as the raw bits
// Cursor.Scalar reads of a value of Kind (a bool 0 or 1, an integer's bits,
// a float's IEEE bits), without allocating. ok is false where Float64
// fails, and for a path to a time's or duration's secs or nsecs.
func (p *Path) Bits(data []byte) (bits uint64, ok bool) {
	if p.part != 0 {
		return 0, false
	}
	if p.cdr {
		be, herr := cdrHeaderOK(data)
		if !herr {
			return 0, false
		}
		off, fail := p.seekCDR(data, be)
		if fail.code != seekOK {
			return 0, false
		}
		return readScalarCDR(p.kind, data, off, be), true
	}
	off, fail := p.seek(data)
	if fail.code != seekOK {
		return 0, false
	}
	return readScalar(p.kind, data, off), true
}

// seekFail says why and where a path's walk stopped.
type seekFail struct {
	code  uint8
	off   int
	n, of int // seekIndex: the index and the array's count
}

const (
	seekOK        = iota
	seekTruncated // the data ends before the field
	seekCount     // an array's count is cut off
	seekIndex     // an index beyond its array
)

// seekError is the *Error of a failed walk.
func (p *Path) seekError(f seekFail) error {
	switch f.code {
	case seekCount:
		return p.fail(f.off, ErrTruncated, "array count cut off")
	case seekIndex:
		return p.fail(f.off, ErrIndex, fmt.Sprintf("index %d, array has %d elements", f.n, f.of))
	}
	return p.fail(f.off, ErrTruncated, "message data ends before the field")
}

// seek runs a ROS 1 path's ops and returns the offset of its value, whose
// bytes are all in data.
func (p *Path) seek(data []byte) (int, seekFail) {
	off, fail, _ := p.seekFrom(data, 0, 0, nil)
	return off, fail
}

// seekFrom is seek from op from at off. When offs is not nil it records
// in offs[i] the offset before each op i it runs (offs[len(ops)]: after
// the last). It also returns the index of the op it stopped at
// (len(ops) when it ran them all).
func (p *Path) seekFrom(data []byte, from, off int, offs []int) (int, seekFail, int) {
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
		case opSkipString:
			if ok = len(data)-off >= 4; ok {
				l := int(binary.LittleEndian.Uint32(data[off:]))
				if ok = l <= len(data)-off-4; ok {
					off += 4 + l
				}
			}
		case opSkipField:
			off, ok = skipField(op.field, data, off)
		case opIndex:
			if len(data)-off < 4 {
				return off, seekFail{code: seekCount, off: off}, i
			}
			n := int(binary.LittleEndian.Uint32(data[off:]))
			if op.n >= n {
				return off, seekFail{code: seekIndex, off: off, n: op.n, of: n}, i
			}
			off, ok = skipElems(op.field, op.n, data, off+4)
		case opFixedIndex:
			off, ok = skipElems(op.field, op.n, data, off)
		case opNeed:
			ok = len(data)-off >= op.n
		case opIndexWhole:
			// As Cursor.Array: the count, then every element in the data.
			if len(data)-off < 4 {
				return off, seekFail{code: seekCount, off: off}, i
			}
			n := int(binary.LittleEndian.Uint32(data[off:]))
			left := len(data) - off - 4
			if es := op.field.ElemSize; n > left/es {
				return off, seekFail{code: seekTruncated, off: off}, i
			}
			if op.n >= n {
				return off, seekFail{code: seekIndex, off: off, n: op.n, of: n}, i
			}
			off, ok = off+4+op.n*op.field.ElemSize, true
		}
		if !ok {
			return off, seekFail{code: seekTruncated, off: off}, i
		}
	}
	size := p.kind.Size()
	if p.part != 0 {
		size = 4
	}
	if offs != nil {
		offs[i] = off
	}
	if len(data)-off < size {
		return off, seekFail{code: seekTruncated, off: off}, i
	}
	return off, seekFail{}, i
}

func (p *Path) fail(off int, sentinel error, msg string) error {
	return &Error{Path: p.text, Offset: off, Err: sentinel, Msg: msg}
}

// The skip functions return the offset after the skipped bytes, or the
// offset where the data turned out too short and false.

func skipField(f *FieldPlan, data []byte, off int) (int, bool) {
	if f.Size >= 0 {
		if f.Size > len(data)-off {
			return off, false
		}
		return off + f.Size, true
	}
	if !f.Array {
		return skipValue(f, data, off)
	}
	n := f.Len
	if n < 0 {
		if len(data)-off < 4 {
			return off, false
		}
		n = int(binary.LittleEndian.Uint32(data[off:]))
		off += 4
	}
	return skipElems(f, n, data, off)
}

// skipElems skips n elements of array field f.
func skipElems(f *FieldPlan, n int, data []byte, off int) (int, bool) {
	left := len(data) - off
	if f.ElemSize >= 0 {
		if f.ElemSize > 0 && n > left/f.ElemSize {
			return off, false
		}
		return off + n*f.ElemSize, true
	}
	// Variable-size elements take at least 4 bytes each: bound the loop.
	min := 4
	if f.Msg != nil {
		min = f.Msg.MinSize
	}
	if min > 0 && n > left/min {
		return off, false
	}
	var ok bool
	for range n {
		if off, ok = skipValue(f, data, off); !ok {
			return off, false
		}
	}
	return off, true
}

// skipValue skips one element (or the non-array value) of field f.
func skipValue(f *FieldPlan, data []byte, off int) (int, bool) {
	if f.ElemSize >= 0 {
		if f.ElemSize > len(data)-off {
			return off, false
		}
		return off + f.ElemSize, true
	}
	if f.Kind == KindString {
		if len(data)-off < 4 {
			return off, false
		}
		l := int(binary.LittleEndian.Uint32(data[off:]))
		if l > len(data)-off-4 {
			return off, false
		}
		return off + 4 + l, true
	}
	return skipMsg(f.Msg, data, off)
}

func skipMsg(m *MsgPlan, data []byte, off int) (int, bool) {
	if m.Size >= 0 {
		if m.Size > len(data)-off {
			return off, false
		}
		return off + m.Size, true
	}
	var ok bool
	for i := range m.Fields {
		if off, ok = skipField(&m.Fields[i], data, off); !ok {
			return off, false
		}
	}
	return off, true
}
