package ros1

import "unicode/utf8"

// FieldKind says how a header field's value is encoded.
type FieldKind int

// Field kinds.
const (
	KindBytes  FieldKind = iota // opaque bytes
	KindOp                      // one byte, a record op
	KindUint32                  // little-endian uint32
	KindUint64                  // little-endian uint64
	KindTime                    // secs and nsecs, two little-endian uint32
	KindString                  // text
)

// fieldKinds maps the header field names of format 2.0 to their encoding.
var fieldKinds = map[string]FieldKind{
	"op":          KindOp,
	"index_pos":   KindUint64,
	"conn_count":  KindUint32,
	"chunk_count": KindUint32,
	"conn":        KindUint32,
	"topic":       KindString,
	"time":        KindTime,
	"ver":         KindUint32,
	"count":       KindUint32,
	"compression": KindString,
	"size":        KindUint32,
	"chunk_pos":   KindUint64,
	"start_time":  KindTime,
	"end_time":    KindTime,
}

// Kind returns how the field's value is encoded: by its name when the
// format defines it and the length fits, as text when it is printable
// UTF-8, and as bytes otherwise.
func (f Field) Kind() FieldKind {
	k, ok := fieldKinds[f.Name]
	if ok {
		switch {
		case k == KindOp && len(f.Value) == 1,
			k == KindUint32 && len(f.Value) == 4,
			(k == KindUint64 || k == KindTime) && len(f.Value) == 8:
			return k
		case k == KindString:
			return k
		}
	}
	if isText(f.Value) {
		return KindString
	}
	return KindBytes
}

// String names the kind as the Records view shows a field's type.
func (k FieldKind) String() string {
	switch k {
	case KindOp:
		return "op"
	case KindUint32:
		return "uint32"
	case KindUint64:
		return "uint64"
	case KindTime:
		return "time"
	case KindString:
		return "string"
	}
	return "bytes"
}

// Decoded returns the field's value as an Op, uint32, uint64, Time, string
// or []byte, following Kind.
func (f Field) Decoded() any {
	switch f.Kind() {
	case KindOp:
		return Op(f.Value[0])
	case KindUint32:
		return le32(f.Value)
	case KindUint64:
		return le64(f.Value)
	case KindTime:
		return parseTime(f.Value)
	case KindString:
		return string(f.Value)
	}
	return f.Value
}

// isText reports whether b is valid UTF-8 without control characters other
// than tab and newline.
func isText(b []byte) bool {
	if !utf8.Valid(b) {
		return false
	}
	for _, c := range b {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
		if c == 0x7f {
			return false
		}
	}
	return true
}
