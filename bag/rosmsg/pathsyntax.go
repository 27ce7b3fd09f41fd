package rosmsg

import "strings"

// SelectorKind is what a path segment's brackets hold.
type SelectorKind uint8

// Selector kinds, as Selection documents them.
const (
	SelectIndex SelectorKind = iota // [N]
	SelectAll                       // [*]
	SelectRange                     // [A:B], [A:], [:B]
	SelectKey                       // [KEY] or ["KEY"]
	SelectMatch                     // [FIELD=VALUE]
)

// PathSegment is one segment of a field path as CompileSelection reads it:
// a field name, maybe followed by a bracket.
type PathSegment struct {
	Name string
	// Offset is the byte offset of Name in the path, End the offset after
	// the segment (its bracket included).
	Offset, End int
	// Bracketed is set when the name is followed by a bracket, which
	// starts at BracketOffset and holds a selector of kind Kind.
	Bracketed     bool
	BracketOffset int
	Kind          SelectorKind
	// Index is SelectIndex's; Lo and Hi SelectRange's (Hi -1: open) and
	// SelectAll's (0, -1).
	Index, Lo, Hi int
	// Key is SelectKey's key, or SelectMatch's value; Field is
	// SelectMatch's field (a dotted path inside the element).
	Key, Field string
}

// ParsePath splits a field path into its segments, reading each bracket's
// selector as CompileSelection does. Errors are *Error wrapping ErrPath.
func ParsePath(s string) ([]PathSegment, error) {
	segs, msg := splitPath(s)
	if msg != "" {
		return nil, &Error{Path: s, Offset: -1, Err: ErrPath, Msg: msg}
	}
	out := make([]PathSegment, len(segs))
	start := 0
	for i, sg := range segs {
		out[i] = PathSegment{Name: sg.name, Offset: start, End: sg.end, Bracketed: sg.hasBra, BracketOffset: sg.braStart,
			Kind: SelectorKind(sg.spec.kind), Index: sg.spec.idx, Lo: sg.spec.lo, Hi: sg.spec.hi, Key: sg.spec.key, Field: sg.spec.field}
		if !sg.hasBra {
			out[i].BracketOffset = -1
		}
		start = sg.end + 1
	}
	return out, nil
}

// KeyArray returns the index in m's fields of the key array of array field
// f (a field of m or of a message m holds): the string array named
// explicit, or else "name", then "names", then the one field ending in
// "_names". It returns -1 when m has none, and an error when several
// "*_names" leave the choice open.
func KeyArray(m *MsgPlan, f *FieldPlan, explicit string) (int, error) {
	k, msg := keyFieldOf(m, f, explicit)
	if msg != "" {
		return -1, &Error{Type: m.Type, Offset: -1, Err: ErrPath, Msg: msg}
	}
	if k == nil {
		return -1, nil
	}
	for i := range m.Fields {
		if &m.Fields[i] == k {
			return i, nil
		}
	}
	return -1, nil
}

// ElementKey returns the index of the string field that keys the elements
// of an array of messages of plan m when no key array does
// ("child_frame_id", else "name"), or -1.
func ElementKey(m *MsgPlan) int {
	for _, name := range elemKeyFields {
		if k := findField(m, name); k >= 0 && m.Fields[k].Kind == KindString && !m.Fields[k].Array {
			return k
		}
	}
	return -1
}

// AppendSelectorKey appends a key as a [KEY] selector writes it, quoted
// when it must be.
func AppendSelectorKey(dst []byte, key string) []byte { return appendKey(dst, []byte(key)) }

// IsTimeMsg reports whether m is a ROS 2 builtin_interfaces Time or
// Duration: int32 sec and uint32 nanosec, and nothing else.
func IsTimeMsg(m *MsgPlan) bool {
	if m == nil || len(m.Fields) != 2 {
		return false
	}
	a, b := &m.Fields[0], &m.Fields[1]
	return a.Name == "sec" && a.Kind == KindInt32 && !a.Array && b.Name == "nanosec" && b.Kind == KindUint32 && !b.Array &&
		(strings.HasSuffix(m.Type, "/Time") || strings.HasSuffix(m.Type, "/Duration"))
}
