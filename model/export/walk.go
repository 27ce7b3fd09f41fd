package export

import (
	"encoding/base64"
	"errors"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// errData is a message whose data does not hold its definition's fields.
var errData = errors.New("the message data ends inside a field")

// sink receives a message's values, each for one leaf column with its
// Parquet repetition and definition levels.
type sink interface {
	scalar(leaf int, k rosmsg.Kind, bits uint64, rep, def int)
	bytes(leaf int, b []byte, str bool, rep, def int)
	null(leaf int, rep, def int)
}

// walker reads one message's fields where they lie (rosmsg.Cursor) and
// hands each value to a sink.
type walker struct {
	cur  rosmsg.Cursor
	out  sink
	sbuf []byte // a wstring's UTF-8
	jbuf []byte // a CSV cell's JSON
}

// message walks the top-level fields of l's type.
func (w *walker) message(l *layout, data []byte) error {
	cur, off, err := l.plan.Cursor(data)
	if err != nil {
		return err
	}
	w.cur = cur
	if _, ok := w.fields(l.top, l.plan.Root, off, 0, 0); !ok {
		return errData
	}
	return nil
}

// fields walks the fields of a message of plan m laid out as cols.
func (w *walker) fields(cols []*col, m *rosmsg.MsgPlan, off, rep, def int) (int, bool) {
	if len(m.Fields) == 0 {
		// An empty message: nothing to read, but CDR stores a byte.
		return w.cur.SkipElem(&rosmsg.FieldPlan{Kind: rosmsg.KindMessage, Msg: m, ElemSize: -1, Size: -1}, off)
	}
	var ok bool
	for i, c := range cols {
		if off, ok = w.field(c, &m.Fields[i], off, rep, def); !ok {
			return off, false
		}
	}
	return off, true
}

// field walks one field laid out as c.
func (w *walker) field(c *col, f *rosmsg.FieldPlan, off, rep, def int) (int, bool) {
	if !f.Array {
		return w.value(c, f, off, rep, def)
	}
	n, first, ok := w.cur.Array(f, off)
	if !ok {
		return off, false
	}
	switch c.kind {
	case kBytes:
		data := w.cur.Data()
		w.out.bytes(c.leaf, data[first:first+n], false, rep, def)
		return first + n, true
	case kSpread:
		e := first
		for i := 0; i < n && i < c.n; i++ {
			if e, ok = w.spreadElem(c, f, c.leaves[i], e, rep, def); !ok {
				return e, false
			}
		}
		return e, true
	case kJSON:
		w.jbuf = w.jbuf[:0]
		end, ok := w.jsonArray(f, off)
		if !ok {
			return end, false
		}
		w.out.bytes(c.leaf, w.jbuf, true, rep, def)
		return end, true
	}
	// kList
	if n == 0 {
		for _, leaf := range c.leaves {
			w.out.null(leaf, rep, def)
		}
		return first, true
	}
	e := first
	for i := 0; i < n; i++ {
		r := rep
		if i > 0 {
			r = c.depth
		}
		if e, ok = w.value(c.elem, f, e, r, def+1); !ok {
			return e, false
		}
	}
	return e, true
}

// spreadElem reads one element of a spread array into column leaf.
func (w *walker) spreadElem(c *col, f *rosmsg.FieldPlan, leaf, off, rep, def int) (int, bool) {
	if f.Kind == rosmsg.KindString || f.Kind == rosmsg.KindWString {
		b, end, ok := w.cur.Str(f.Kind, off, w.sbuf)
		if ok {
			w.out.bytes(leaf, b, true, rep, def)
		}
		return end, ok
	}
	bits, end, ok := w.cur.ScalarNext(f.Kind, off)
	if ok {
		w.out.scalar(leaf, f.Kind, bits, rep, def)
	}
	return end, ok
}

// value walks one value of field f (the field, or one of its elements)
// laid out as c.
func (w *walker) value(c *col, f *rosmsg.FieldPlan, off, rep, def int) (int, bool) {
	switch c.kind {
	case kMsg:
		return w.fields(c.children, f.Msg, off, rep, def)
	case kTime:
		bits, end, ok := w.cur.ScalarNext(f.Kind, off)
		if ok {
			w.out.scalar(c.children[0].leaf, c.children[0].vk, uint64(uint32(bits)), rep, def)
			w.out.scalar(c.children[1].leaf, c.children[1].vk, uint64(uint32(bits>>32)), rep, def)
		}
		return end, ok
	case kString:
		b, end, ok := w.cur.Str(f.Kind, off, w.sbuf)
		if ok {
			if f.Kind == rosmsg.KindWString {
				w.sbuf = b
			}
			w.out.bytes(c.leaf, b, true, rep, def)
		}
		return end, ok
	}
	bits, end, ok := w.cur.ScalarNext(f.Kind, off)
	if ok {
		w.out.scalar(c.leaf, f.Kind, bits, rep, def)
	}
	return end, ok
}

// jsonArray appends array field f at off to w.jbuf as JSON, the form
// bagscope cat --json writes, and returns the offset after it.
func (w *walker) jsonArray(f *rosmsg.FieldPlan, off int) (int, bool) {
	n, first, ok := w.cur.Array(f, off)
	if !ok {
		return off, false
	}
	if f.IsBytes() {
		w.jbuf = append(w.jbuf, '"')
		w.jbuf = base64.StdEncoding.AppendEncode(w.jbuf, w.cur.Data()[first:first+n])
		w.jbuf = append(w.jbuf, '"')
		return first + n, true
	}
	w.jbuf = append(w.jbuf, '[')
	e := first
	for i := 0; i < n; i++ {
		if i > 0 {
			w.jbuf = append(w.jbuf, ", "...)
		}
		if e, ok = w.jsonValue(f, e); !ok {
			return e, false
		}
	}
	w.jbuf = append(w.jbuf, ']')
	return e, true
}

// jsonValue appends one value (not an array) of field f at off.
func (w *walker) jsonValue(f *rosmsg.FieldPlan, off int) (int, bool) {
	switch f.Kind {
	case rosmsg.KindMessage:
		m := f.Msg
		if len(m.Fields) == 0 {
			w.jbuf = append(w.jbuf, "{}"...)
			return w.cur.SkipElem(&rosmsg.FieldPlan{Kind: rosmsg.KindMessage, Msg: m, ElemSize: -1, Size: -1}, off)
		}
		w.jbuf = append(w.jbuf, '{')
		var ok bool
		for i := range m.Fields {
			sf := &m.Fields[i]
			if i > 0 {
				w.jbuf = append(w.jbuf, ", "...)
			}
			w.jbuf = rosmsg.AppendJSONString(w.jbuf, sf.Name)
			w.jbuf = append(w.jbuf, ": "...)
			if sf.Array {
				off, ok = w.jsonArray(sf, off)
			} else {
				off, ok = w.jsonValue(sf, off)
			}
			if !ok {
				return off, false
			}
		}
		w.jbuf = append(w.jbuf, '}')
		return off, true
	case rosmsg.KindString, rosmsg.KindWString:
		b, end, ok := w.cur.Str(f.Kind, off, w.sbuf)
		if ok {
			w.jbuf = rosmsg.AppendJSONString(w.jbuf, validUTF8(b))
		}
		return end, ok
	}
	bits, end, ok := w.cur.ScalarNext(f.Kind, off)
	if !ok {
		return end, false
	}
	w.jbuf = appendScalarJSON(w.jbuf, f.Kind, bits)
	return end, true
}

// appendScalarJSON writes a scalar as bagscope cat --json does.
func appendScalarJSON(b []byte, k rosmsg.Kind, bits uint64) []byte {
	switch k {
	case rosmsg.KindTime:
		return secsNsecsJSON(b, int64(uint32(bits)), int64(uint32(bits>>32)))
	case rosmsg.KindDuration:
		return secsNsecsJSON(b, int64(int32(uint32(bits))), int64(int32(uint32(bits>>32))))
	case rosmsg.KindFloat32:
		return rosmsg.AppendJSONFloat(b, float64(math.Float32frombits(uint32(bits))))
	case rosmsg.KindFloat64:
		return rosmsg.AppendJSONFloat(b, math.Float64frombits(bits))
	case rosmsg.KindBool:
		return strconv.AppendBool(b, bits != 0)
	case rosmsg.KindUint8, rosmsg.KindUint16, rosmsg.KindUint32, rosmsg.KindUint64:
		return strconv.AppendUint(b, bits, 10)
	}
	return strconv.AppendInt(b, int64(bits), 10)
}

func secsNsecsJSON(b []byte, secs, nsecs int64) []byte {
	b = append(b, `{"secs": `...)
	b = strconv.AppendInt(b, secs, 10)
	b = append(b, `, "nsecs": `...)
	b = strconv.AppendInt(b, nsecs, 10)
	return append(b, '}')
}

// validUTF8 returns b as a string decoded as rosmsg decodes strings
// (invalid sequences replaced by U+FFFD, as genpy does).
func validUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	return rosmsg.DecodeText(b)
}
