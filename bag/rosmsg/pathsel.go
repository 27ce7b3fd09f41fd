package rosmsg

import (
	"encoding/binary"
	"fmt"
	"strconv"
	"strings"
)

// Selection is a compiled field path whose array elements may be chosen by
// more than an index, so that one path reads several values per message,
// each named by its element. Besides "[N]" (an index, as Path has it), an
// array field may be followed by:
//
//   - "[*]": every element;
//   - "[A:B]": the elements A to B-1 (half-open, like Go and Python; "[A:]"
//     and "[:B]" leave a side open);
//   - "[KEY]": the element whose key is KEY (see below);
//   - "[FIELD=VALUE]": the elements of an array of messages whose FIELD (a
//     dotted path inside the element without brackets: "child_frame_id",
//     "header.frame_id") equals VALUE: a string field compares its bytes, a
//     number or bool compares numerically ("true" is 1). On an array of
//     numbers, "[NAMES=KEY]" picks the key array NAMES explicitly.
//
// A KEY that holds '[', ']', '"', '=', '\' or a control character, begins
// or ends with a space, is empty, is '*', or reads as an index or a range
// is written as a Go quoted string: position["1"]. So is a VALUE with any
// of these but '=', '*' and digits.
//
// Keys. An element of array field F is keyed by a key array: the nearest
// string array field named "name", "names" or ending in "_names" found in
// the message holding F, else in the message holding that one, and so on up
// to the top-level message or the element of an array the path went through
// (the search never leaves that element). F itself is never its own key
// array. When one level has several, "name" wins, then "names"; several
// "*_names" there are ambiguous (write [NAMES=KEY]). At run time the key
// array must have as many elements as F (an empty F has no elements; other
// lengths are an error for that message): element i of F has key KEYS[i].
// So sensor_msgs/JointState "position[shoulder_pan]" is position[i] with
// name[i] == "shoulder_pan", and for
// pr2_controllers_msgs/JointTrajectoryControllerState
// "actual.positions[r_elbow_flex_joint]" is keyed by the top-level
// joint_names. An array of messages without a key array is keyed by its
// elements' own string field "child_frame_id", else "name" (so
// "transforms[base_link]" is "transforms[child_frame_id=base_link]").
//
// Names. A path without [*] and ranges names its values as it is written.
// Otherwise each value is named by the path with its selectors made
// concrete: an element selected by [*] or a range is written [KEY] through
// a key array, [FIELD=VALUE] through an element's key field, else [INDEX]:
// "position[shoulder_pan]", "transforms[child_frame_id=base_link].transform
// .translation.x", "ranges[17]"; [KEY] and [FIELD=VALUE] selectors are
// written in that form too (quoted as needed). Every name is itself a path
// that selects that element again.
// An element may appear in some messages only: a message without it reads
// no value for it. Duplicate keys in one message give one value each.
//
// A Selection is immutable and safe for concurrent use; Walk does not
// allocate beyond growing the caller's name buffer, unless it fails.
type Selection struct {
	text   string
	typ    string
	cdr    bool
	fixed  bool  // every value is named text
	single *Path // no selector but indices: the Path
	root   *selProg
	kind   Kind
	regs   int
}

// A Sink receives the values a Selection reads from one message. name is
// the element's path, prefixed as the caller's buffer was; it is valid
// during the call only.
type Sink interface {
	Value(name []byte, v float64)
}

// selProg reads from the start of a message (the top level or an element):
// ops, then either the value or a selector over an array.
type selProg struct {
	ops  []pathOp
	lit  string   // name text added before the selector or the value
	sel  *selStep // nil: read the value
	kind Kind
	part uint8
}

type selMode uint8

const (
	selAll   selMode = iota // [*] and ranges
	selKey                  // [KEY] through a key array
	selMatch                // [FIELD=VALUE] or [KEY] through the elements' key field
)

// selStep selects elements of an array field.
type selStep struct {
	field  *FieldPlan
	mode   selMode
	lo, hi int       // selAll: elements [lo, hi); hi -1 is open
	key    string    // selKey: the key
	keys   *keyArray // the key array, or nil
	match  *selRead  // selMatch: the field compared
	natKey *selRead  // selAll without key array: the elements' key field, or nil
	bra    string    // selKey, selMatch: the selector's text, "[...]"
	elem   *selProg  // read from each selected element's start
}

// keyArray finds a key array from a message start saved in a register.
type keyArray struct {
	reg   int
	ops   []pathOp
	field *FieldPlan
}

// selRead reads one field of an element: a string, or a plottable value.
type selRead struct {
	name string // field path as in names: "child_frame_id"
	ops  []pathOp
	kind Kind
	part uint8
	str  string  // the value a string must equal
	num  float64 // the value a number must equal
}

// opMark saves the position in register n (a message start a key array is
// found from).
const opMark = 32

const maxRegs = 16

// Natural key fields of array elements, in preference order.
var elemKeyFields = []string{"child_frame_id", "name"}

// pseg is one segment of a path: a field name, maybe with a bracket.
type pseg struct {
	name     string
	bra      string // bracket content
	hasBra   bool
	braStart int // offset of '[' in the text
	end      int // offset after the segment
	spec     selSpec
}

type specKind uint8

const (
	specIndex specKind = iota
	specAll
	specRange
	specKey
	specMatch
)

type selSpec struct {
	kind   specKind
	idx    int
	lo, hi int
	key    string // key, or match value
	field  string // match field path
}

// splitPath splits s into segments at dots outside brackets; a bracket's
// content may hold quoted strings.
func splitPath(s string) ([]pseg, string) {
	var segs []pseg
	i := 0
	for {
		start := i
		for i < len(s) && s[i] != '.' && s[i] != '[' {
			i++
		}
		seg := pseg{name: s[start:i]}
		if seg.name == "" {
			if i == len(s) && start == 0 {
				return nil, "empty path"
			}
			return nil, fmt.Sprintf("empty field name at offset %d", start)
		}
		if i < len(s) && s[i] == '[' {
			seg.braStart = i
			j, ok := closeBracket(s, i+1)
			if !ok {
				return nil, fmt.Sprintf("unclosed bracket in %q", s[start:])
			}
			seg.hasBra, seg.bra = true, s[i+1:j]
			i = j + 1
			spec, msg := parseSpec(seg.bra)
			if msg != "" {
				return nil, msg
			}
			seg.spec = spec
		}
		seg.end = i
		segs = append(segs, seg)
		if i == len(s) {
			return segs, ""
		}
		if s[i] != '.' {
			return nil, fmt.Sprintf("%q after a bracket: want '.'", s[i:i+1])
		}
		i++
		if i == len(s) {
			return nil, "path ends with '.'"
		}
	}
}

// closeBracket returns the offset of the ']' closing a bracket whose
// content starts at i, skipping quoted strings.
func closeBracket(s string, i int) (int, bool) {
	quoted := false
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case quoted && c == '\\':
			i++
		case c == '"':
			quoted = !quoted
		case !quoted && c == ']':
			return i, true
		case !quoted && c == '[':
			return 0, false
		}
	}
	return 0, false
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// parseSpec reads a bracket's content.
func parseSpec(c string) (selSpec, string) {
	switch {
	case c == "":
		return selSpec{}, "empty brackets: give an index, a range, * or a key"
	case c == "*":
		return selSpec{kind: specAll, hi: -1}, ""
	case allDigits(c):
		n, err := strconv.Atoi(c)
		if err != nil {
			return selSpec{}, fmt.Sprintf("bad index [%s]", c)
		}
		return selSpec{kind: specIndex, idx: n}, ""
	}
	if i := strings.IndexByte(c, ':'); i >= 0 && allDigits(c[:i]) && allDigits(c[i+1:]) {
		sp := selSpec{kind: specRange, hi: -1}
		var err error
		if c[:i] != "" {
			if sp.lo, err = strconv.Atoi(c[:i]); err != nil {
				return selSpec{}, fmt.Sprintf("bad range [%s]", c)
			}
		}
		if c[i+1:] != "" {
			if sp.hi, err = strconv.Atoi(c[i+1:]); err != nil {
				return selSpec{}, fmt.Sprintf("bad range [%s]", c)
			}
			if sp.hi <= sp.lo {
				return selSpec{}, fmt.Sprintf("empty range [%s]", c)
			}
		}
		return sp, ""
	}
	if c[0] == '"' {
		k, err := strconv.Unquote(c)
		if err != nil {
			return selSpec{}, fmt.Sprintf("bad quoted key [%s]", c)
		}
		return selSpec{kind: specKey, key: k}, ""
	}
	if i := strings.IndexByte(c, '='); i >= 0 {
		f, v := c[:i], c[i+1:]
		if f == "" || strings.ContainsAny(f, "\"") {
			return selSpec{}, fmt.Sprintf("bad field in [%s]", c)
		}
		if v != "" && v[0] == '"' {
			u, err := strconv.Unquote(v)
			if err != nil {
				return selSpec{}, fmt.Sprintf("bad quoted value in [%s]", c)
			}
			v = u
		}
		return selSpec{kind: specMatch, field: f, key: v}, ""
	}
	if strings.ContainsAny(c, "\"\\") {
		return selSpec{}, fmt.Sprintf("bad key [%s]: quote it", c)
	}
	return selSpec{kind: specKey, key: c}, ""
}

// needsQuote reports whether a key or value must be written quoted.
func needsQuote(b []byte) bool {
	if len(b) == 0 || len(b) == 1 && b[0] == '*' {
		return true
	}
	rangeLike := true
	for _, c := range b {
		switch {
		case c < 0x20 || c == 0x7f || c == '[' || c == ']' || c == '"' || c == '=' || c == '\\':
			return true
		case (c < '0' || c > '9') && c != ':':
			rangeLike = false
		}
	}
	return rangeLike || b[0] == ' ' || b[len(b)-1] == ' '
}

// needsQuoteValue reports whether the value of a [FIELD=VALUE] selector
// must be written quoted: after '=' only brackets, quotes, backslashes,
// control characters, outer spaces and the empty value need it.
func needsQuoteValue(b []byte) bool {
	if len(b) == 0 || b[0] == ' ' || b[len(b)-1] == ' ' || b[0] == '"' {
		return true
	}
	for _, c := range b {
		if c < 0x20 || c == 0x7f || c == '[' || c == ']' || c == '"' || c == '\\' {
			return true
		}
	}
	return false
}

// appendKey appends a key as a selector writes it.
func appendKey(dst, key []byte) []byte {
	if needsQuote(key) {
		return strconv.AppendQuote(dst, string(key))
	}
	return append(dst, key...)
}

// appendValue appends the value of a [FIELD=VALUE] selector.
func appendValue(dst, v []byte) []byte {
	if needsQuoteValue(v) {
		return strconv.AppendQuote(dst, string(v))
	}
	return append(dst, v...)
}

// CompileSelection compiles a field path that may hold selectors (see
// Selection) for plan p. A path with indices only compiles to its Path,
// which Single returns.
func CompileSelection(p *Plan, s string) (*Selection, error) {
	fail := func(format string, args ...any) error {
		return &Error{Type: p.Type, Path: s, Offset: -1, Err: ErrPath, Msg: fmt.Sprintf(format, args...)}
	}
	segs, msg := splitPath(s)
	if msg != "" {
		return nil, fail("%s", msg)
	}
	plain := true
	for _, sg := range segs {
		if sg.hasBra && sg.spec.kind != specIndex {
			plain = false
		}
	}
	if plain {
		path, err := CompilePath(p, s)
		if err != nil {
			return nil, err
		}
		return &Selection{text: s, typ: p.Type, cdr: p.cdr, fixed: true, single: path, kind: path.kind}, nil
	}
	c := selCompiler{plan: p, text: s, fail: fail, fixed: true}
	b := newLin(p.cdr, 8, 0)
	root, err := c.prog(p.Root, segs, 0, b)
	if err != nil {
		return nil, err
	}
	return &Selection{text: s, typ: p.Type, cdr: p.cdr, fixed: c.fixed, root: root, kind: c.kind, regs: c.regs}, nil
}

// String returns the path as written.
func (s *Selection) String() string { return s.text }

// Kind returns the kind of the values read.
func (s *Selection) Kind() Kind { return s.kind }

// Single returns the Path of a selection without selectors (indices only),
// else nil.
func (s *Selection) Single() *Path { return s.single }

// Fixed reports whether every value is named as the path is written: the
// path has no [*] and no range.
func (s *Selection) Fixed() bool { return s.fixed }

// Keyed reports whether every [*] or range of the path names its elements
// by a key (a key array or the elements' key field) rather than by index.
func (s *Selection) Keyed() bool {
	for p := s.root; p != nil && p.sel != nil; p = p.sel.elem {
		if p.sel.mode == selAll && p.sel.keys == nil && p.sel.natKey == nil {
			return false
		}
	}
	return true
}

// linBuilder collects the ops of a straight walk, for either format.
type linBuilder struct {
	cdr  bool
	path Path
	skip int // ROS 1: bytes to skip not yet emitted
	cb   cdrPathBuilder
}

func newLin(cdr bool, m, r int) *linBuilder {
	b := &linBuilder{cdr: cdr}
	b.path.cdr = cdr
	b.cb = cdrPathBuilder{path: &b.path, m: m, r: r}
	return b
}

func (b *linBuilder) flush() {
	if b.cdr {
		b.cb.flush()
		return
	}
	if b.skip > 0 {
		b.path.ops = append(b.path.ops, pathOp{code: opSkip, n: b.skip})
		b.skip = 0
	}
}

func (b *linBuilder) addSkip(f *FieldPlan) {
	if b.cdr {
		b.cb.addSkip(f)
		return
	}
	b.path.addSkip(f, &b.skip, b.flush)
}

// mark saves the position in register reg and returns a builder that
// continues from there (with what is known of the alignment).
func (b *linBuilder) mark(reg int) *linBuilder {
	b.flush()
	b.path.ops = append(b.path.ops, pathOp{code: opMark, n: reg})
	return newLin(b.cdr, max(b.cb.m, 1), b.cb.r)
}

// index walks into element idx of array f.
func (b *linBuilder) index(f *FieldPlan, idx int) string {
	switch {
	case f.Len < 0 && b.cdr:
		if f.Bound > 0 && idx >= f.Bound {
			return fmt.Sprintf("index %d out of range for %s", idx, f.Type)
		}
		b.cb.dynamic(pathOp{code: opCIndex, n: idx, field: f})
	case f.Len < 0:
		b.flush()
		b.path.ops = append(b.path.ops, pathOp{code: opIndex, n: idx, field: f})
	case idx >= f.Len:
		return fmt.Sprintf("index %d out of range for %s", idx, f.Type)
	case b.cdr && f.ElemSize > 0:
		b.cb.alignTo(f.ElemSize)
		b.cb.advance(idx * f.ElemSize)
	case b.cdr:
		if idx > 0 {
			b.cb.dynamic(pathOp{code: opCFixedIndex, n: idx, field: f})
		}
	case f.ElemSize >= 0:
		b.skip += idx * f.ElemSize
	default:
		b.flush()
		b.path.ops = append(b.path.ops, pathOp{code: opFixedIndex, n: idx, field: f})
	}
	return ""
}

func (b *linBuilder) ops() []pathOp {
	b.flush()
	return b.path.ops
}

type selCompiler struct {
	plan  *Plan
	text  string
	fail  func(string, ...any) error
	fixed bool
	kind  Kind
	regs  int
}

func findField(m *MsgPlan, name string) int {
	for j := range m.Fields {
		if m.Fields[j].Name == name {
			return j
		}
	}
	return -1
}

// prog compiles segs read from the start of a message of plan m; the
// name's literal text starts at offset litFrom of the path.
func (c *selCompiler) prog(m *MsgPlan, segs []pseg, litFrom int, b *linBuilder) (*selProg, error) {
	// Resolve the fields down to the first selector or the value.
	msgs := make([]*MsgPlan, 0, len(segs))
	fields := make([]*FieldPlan, 0, len(segs))
	sel := -1
	cur := m
	for si, sg := range segs {
		if cur == nil {
			return nil, c.fail("%q follows a field that is not a message", sg.name)
		}
		k := findField(cur, sg.name)
		if k < 0 {
			return nil, c.fail("%s has no field %q", cur.Type, sg.name)
		}
		f := &cur.Fields[k]
		msgs, fields = append(msgs, cur), append(fields, f)
		if f.Array && !sg.hasBra {
			return nil, c.fail("%s is an array: give an index, a range, * or a key", sg.name)
		}
		if !f.Array && sg.hasBra {
			return nil, c.fail("%s is not an array", sg.name)
		}
		if sg.hasBra && sg.spec.kind != specIndex {
			sel = si
			break
		}
		if f.Kind != KindMessage {
			break
		}
		cur = f.Msg
	}
	pr := &selProg{}
	if sel < 0 {
		// No selector: a straight walk to a value.
		if err := c.walk(segs, msgs, fields, b, nil, nil); err != nil {
			return nil, err
		}
		f := fields[len(fields)-1]
		if f.Kind == KindMessage {
			return nil, c.fail("%s is a message, not a plottable value", f.Name)
		}
		kind, part, err := c.value(f, f.Name, segs[len(fields):])
		if err != nil {
			return nil, err
		}
		if part == 2 {
			b.skip += 4 // ROS 1 only: CDR has no time kind
		}
		pr.ops, pr.kind, pr.part = b.ops(), kind, part
		pr.lit = c.text[litFrom:segs[len(segs)-1].end]
		c.kind = kind
		return pr, nil
	}
	sg := segs[sel]
	f := fields[sel]
	st := &selStep{field: f, hi: -1}
	// The key array, searched from the selector's level up to the scope.
	spec := sg.spec
	explicit := ""
	if spec.kind == specMatch && f.Kind != KindMessage {
		explicit = spec.field // [NAMES=KEY] on an array of numbers
	}
	needKeys := spec.kind == specAll || spec.kind == specRange || spec.kind == specKey || explicit != ""
	level := -1
	var keyField *FieldPlan
	if needKeys {
		for l := sel; l >= 0; l-- {
			kf, msg := keyFieldOf(msgs[l], f, explicit)
			if msg != "" {
				return nil, c.fail("%s: %s", sg.name, msg)
			}
			if kf != nil {
				level, keyField = l, kf
				break
			}
			if l > 0 && fields[l-1].Array {
				break // the search stays inside the element
			}
		}
		if explicit != "" && keyField == nil {
			return nil, c.fail("no string array %q keys %s", explicit, sg.name)
		}
	}
	marks := map[int]int{}
	if keyField != nil {
		if c.regs >= maxRegs {
			return nil, c.fail("too many selectors")
		}
		marks[level] = c.regs
		st.keys = &keyArray{reg: c.regs, field: keyField}
		c.regs++
	}
	var keyOps []pathOp
	if err := c.walk(segs[:sel+1], msgs, fields, b, func(l int, kb *linBuilder) {
		if st.keys != nil && l == level {
			k := findField(msgs[l], st.keys.field.Name)
			for j := 0; j < k; j++ {
				kb.addSkip(&msgs[l].Fields[j])
			}
			keyOps = kb.ops()
		}
	}, marks); err != nil {
		return nil, err
	}
	if st.keys != nil {
		st.keys.ops = keyOps
	}
	pr.ops = b.ops()
	pr.lit = c.text[litFrom:sg.braStart]
	pr.sel = st
	switch spec.kind {
	case specAll, specRange:
		c.fixed = false
		st.mode, st.lo, st.hi = selAll, spec.lo, spec.hi
		if st.keys == nil && f.Kind == KindMessage {
			for _, name := range elemKeyFields {
				if k := findField(f.Msg, name); k >= 0 && f.Msg.Fields[k].Kind == KindString && !f.Msg.Fields[k].Array {
					r, err := c.read(f.Msg, name, "")
					if err != nil {
						return nil, err
					}
					st.natKey = r
					break
				}
			}
		}
	case specKey:
		st.mode, st.key = selKey, spec.key
		st.bra = "[" + string(appendKey(nil, []byte(spec.key))) + "]"
		if st.keys == nil {
			if f.Kind != KindMessage {
				return nil, c.fail("%s has no key array (a string array name, names or *_names beside it) for [%s]", sg.name, sg.bra)
			}
			for _, name := range elemKeyFields {
				if k := findField(f.Msg, name); k >= 0 && f.Msg.Fields[k].Kind == KindString && !f.Msg.Fields[k].Array {
					r, err := c.read(f.Msg, name, spec.key)
					if err != nil {
						return nil, err
					}
					st.mode, st.match = selMatch, r
					st.bra = "[" + name + "=" + string(appendValue(nil, []byte(spec.key))) + "]"
					break
				}
			}
			if st.match == nil {
				return nil, c.fail("%s has no key array and its elements no %s field for [%s]", sg.name, strings.Join(elemKeyFields, " or "), sg.bra)
			}
		}
	case specMatch:
		if explicit != "" {
			st.mode, st.key = selKey, spec.key
			st.bra = "[" + explicit + "=" + string(appendValue(nil, []byte(spec.key))) + "]"
			break
		}
		r, err := c.read(f.Msg, spec.field, spec.key)
		if err != nil {
			return nil, err
		}
		st.mode, st.match = selMatch, r
		st.bra = "[" + spec.field + "=" + string(appendValue(nil, []byte(spec.key))) + "]"
	}
	// The rest of the path, from each element's start.
	rest := segs[sel+1:]
	if f.Kind == KindMessage {
		if len(rest) == 0 {
			return nil, c.fail("%s is an array of messages, not plottable values", sg.name)
		}
		elem, err := c.prog(f.Msg, rest, sg.end, newLin(b.cdr, 1, 0))
		if err != nil {
			return nil, err
		}
		st.elem = elem
		return pr, nil
	}
	kind, part, err := c.value(f, sg.name, rest)
	if err != nil {
		return nil, err
	}
	st.elem = &selProg{kind: kind, part: part, lit: c.text[sg.end:]}
	if part == 2 {
		st.elem.ops = []pathOp{{code: opSkip, n: 4}}
	}
	c.kind = kind
	return pr, nil
}

// walk adds the ops that lead through segs (fields resolved in msgs and
// fields) to the start of the last segment's field; plain indices walk into
// their element. At each level in marks it saves the position, and calls at
// with a builder that continues from there.
func (c *selCompiler) walk(segs []pseg, msgs []*MsgPlan, fields []*FieldPlan, b *linBuilder, at func(int, *linBuilder), marks map[int]int) error {
	for l := range segs {
		if l >= len(fields) {
			break
		}
		m := msgs[l]
		if reg, ok := marks[l]; ok {
			kb := b.mark(reg)
			at(l, kb)
		}
		k := findField(m, segs[l].name)
		for j := 0; j < k; j++ {
			b.addSkip(&m.Fields[j])
		}
		f := fields[l]
		if segs[l].hasBra && segs[l].spec.kind == specIndex {
			if msg := b.index(f, segs[l].spec.idx); msg != "" {
				return c.fail("%s", msg)
			}
		} else if segs[l].hasBra {
			break // the selector: the walk stops at the array
		}
	}
	return nil
}

// value checks that f, walked into, ends the path at a plottable value
// (rest may name a time's ".secs" or ".nsecs") and returns its kind and
// part (the caller skips 4 bytes for nsecs).
func (c *selCompiler) value(f *FieldPlan, name string, rest []pseg) (Kind, uint8, error) {
	if f.Kind == KindMessage {
		if len(rest) == 0 {
			return 0, 0, c.fail("%s is a message, not a plottable value", name)
		}
		return 0, 0, c.fail("internal: message %s", name)
	}
	if !f.Kind.Plottable() {
		return 0, 0, c.fail("%s is a %s, not a plottable value", name, f.Kind)
	}
	var part uint8
	switch {
	case len(rest) == 1 && !rest[0].hasBra && (f.Kind == KindTime || f.Kind == KindDuration):
		switch rest[0].name {
		case "secs":
			part = 1
		case "nsecs":
			part = 2
		default:
			return 0, 0, c.fail("%s has no part %q", f.Kind, rest[0].name)
		}
	case len(rest) > 0:
		return 0, 0, c.fail("%s is a %s, not a message", name, f.Kind)
	}
	return f.Kind, part, nil
}

// read compiles the reader of a field path inside an element of plan m:
// a string, or a plottable value compared with value (when value is not
// empty for numbers).
func (c *selCompiler) read(m *MsgPlan, path, value string) (*selRead, error) {
	segs, msg := splitPath(path)
	if msg != "" {
		return nil, c.fail("%s", msg)
	}
	var msgs []*MsgPlan
	var fields []*FieldPlan
	cur := m
	last := -1
	for si, sg := range segs {
		if cur == nil {
			return nil, c.fail("%q follows a field that is not a message", sg.name)
		}
		if sg.hasBra && sg.spec.kind != specIndex {
			return nil, c.fail("the field %s compared in a selector takes indices only", path)
		}
		k := findField(cur, sg.name)
		if k < 0 {
			return nil, c.fail("%s has no field %q", cur.Type, sg.name)
		}
		f := &cur.Fields[k]
		if f.Array != sg.hasBra {
			if f.Array {
				return nil, c.fail("%s is an array: give an index", sg.name)
			}
			return nil, c.fail("%s is not an array", sg.name)
		}
		msgs, fields = append(msgs, cur), append(fields, f)
		last = si
		if f.Kind != KindMessage {
			break
		}
		cur = f.Msg
	}
	b := newLin(c.plan.cdr, 1, 0)
	if err := c.walk(segs[:last+1], msgs, fields, b, nil, nil); err != nil {
		return nil, err
	}
	f := fields[last]
	r := &selRead{name: path, str: value}
	if f.Kind == KindString {
		if last != len(segs)-1 {
			return nil, c.fail("%s is a string, not a message", f.Name)
		}
		r.kind, r.ops = KindString, b.ops()
		return r, nil
	}
	kind, part, err := c.value(f, f.Name, segs[last+1:])
	if err != nil {
		return nil, err
	}
	r.kind, r.part, r.ops = kind, part, b.ops()
	if part == 2 {
		r.ops = append(r.ops, pathOp{code: opSkip, n: 4})
	}
	switch {
	case kind == KindBool && (value == "true" || value == "false"):
		if value == "true" {
			r.num = 1
		}
	default:
		v, err := strconv.ParseFloat(value, 64)
		if err != nil && value != "" {
			return nil, c.fail("%s is a %s: %q is not a number", path, kind, value)
		}
		r.num = v
	}
	return r, nil
}

// keyFieldOf returns the key array in m for array f: the string array named
// explicit, or else "name", "names" or "*_names".
func keyFieldOf(m *MsgPlan, f *FieldPlan, explicit string) (*FieldPlan, string) {
	var name, names *FieldPlan
	var suffixed []*FieldPlan
	for i := range m.Fields {
		k := &m.Fields[i]
		if k == f || k.Kind != KindString || !k.Array {
			continue
		}
		switch {
		case explicit != "":
			if k.Name == explicit {
				return k, ""
			}
		case k.Name == "name":
			name = k
		case k.Name == "names":
			names = k
		case strings.HasSuffix(k.Name, "_names"):
			suffixed = append(suffixed, k)
		}
	}
	switch {
	case name != nil:
		return name, ""
	case names != nil:
		return names, ""
	case len(suffixed) == 1:
		return suffixed[0], ""
	case len(suffixed) > 1:
		var ns []string
		for _, k := range suffixed {
			ns = append(ns, k.Name)
		}
		return nil, fmt.Sprintf("%s has several key arrays (%s): write [%s=KEY]", m.Type, strings.Join(ns, ", "), ns[0])
	}
	return nil, ""
}

// Walk status.
const (
	stOK       = iota
	stAbsent   // an index beyond its array: no value
	stTrunc    // the data ends early
	stMismatch // a key array's length differs from its array's
)

type walker struct {
	data  []byte
	cdr   bool
	be    bool
	name  []byte
	sink  Sink
	regs  [maxRegs]int
	off   int    // where a failure was seen
	fixed string // the name of every value, after the caller's prefix, if not ""
	pre   int    // length of the caller's prefix
}

// Walk reads the selection's values from one serialized message and hands
// each to sink with its name: buf followed by the element's path. It
// returns buf (grown for reuse, with its original content). An element
// absent from this message reads nothing. Errors are *Error: ErrTruncated
// or ErrTooLarge for bad data, ErrIndex when a key array's length differs
// from its array's, and for a path without selectors those of
// Path.Float64; values read before the failure were handed to sink.
func (s *Selection) Walk(data []byte, buf []byte, sink Sink) ([]byte, error) {
	n := len(buf)
	if s.single != nil {
		v, err := s.single.Float64(data)
		if err != nil {
			return buf, err
		}
		buf = append(buf, s.text...)
		sink.Value(buf, v)
		return buf[:n], nil
	}
	w := walker{data: data, cdr: s.cdr, name: buf, sink: sink, pre: n}
	if s.fixed {
		w.fixed = s.text
	}
	off := 0
	if s.cdr {
		be, herr := cdrHeader(data)
		if herr != nil {
			herr.Path = s.text
			return buf, herr
		}
		w.be, off = be, 4
	}
	st := w.prog(s.root, off)
	buf = w.name[:n]
	switch st {
	case stTrunc:
		return buf, &Error{Type: s.typ, Path: s.text, Offset: min(w.off, len(data)), Err: ErrTruncated, Msg: "message data ends inside the path"}
	case stMismatch:
		return buf, &Error{Type: s.typ, Path: s.text, Offset: min(w.off, len(data)), Err: ErrIndex, Msg: "the key array and the array differ in length"}
	}
	return buf, nil
}

func (w *walker) u32(off int) int {
	if w.be {
		return int(binary.BigEndian.Uint32(w.data[off:]))
	}
	return int(binary.LittleEndian.Uint32(w.data[off:]))
}

// run runs straight ops from off.
func (w *walker) run(ops []pathOp, off int) (int, uint8) {
	data := w.data
	for i := range ops {
		op := &ops[i]
		ok := true
		switch op.code {
		case opSkip:
			off += op.n
			ok = off <= len(data)
		case opMark:
			w.regs[op.n] = off
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
				w.off = off
				return off, stTrunc
			}
			n := int(binary.LittleEndian.Uint32(data[off:]))
			if op.n >= n {
				return off, stAbsent
			}
			off, ok = skipElems(op.field, op.n, data, off+4)
		case opFixedIndex:
			off, ok = skipElems(op.field, op.n, data, off)
		case opCAlign:
			off = cdrAlign(off, op.n)
			ok = off <= len(data)
		case opCSkipField:
			off, ok = cdrSkipField(op.field, data, off, w.be)
		case opCIndex:
			off = cdrAlign(off, 4)
			if off > len(data)-4 {
				w.off = off
				return off, stTrunc
			}
			if op.n >= w.u32(off) {
				return off, stAbsent
			}
			off, ok = cdrSkipElems(op.field, op.n, data, off+4, w.be)
		case opCFixedIndex:
			off, ok = cdrSkipElems(op.field, op.n, data, off, w.be)
		}
		if !ok {
			w.off = off
			return off, stTrunc
		}
	}
	return off, stOK
}

// value reads a plottable value at off.
func (w *walker) value(kind Kind, part uint8, off int) (float64, bool) {
	data := w.data
	size := kind.Size()
	if part != 0 {
		size = 4
	}
	if w.cdr {
		off = cdrAlign(off, size)
	}
	if off < 0 || off > len(data)-size {
		w.off = off
		return 0, false
	}
	if part != 0 {
		if kind == KindDuration {
			return float64(int32(binary.LittleEndian.Uint32(data[off:]))), true
		}
		return float64(binary.LittleEndian.Uint32(data[off:])), true
	}
	if w.cdr {
		v, _ := scalarFloat(kind, readScalarCDR(kind, data, off, w.be))
		return v, true
	}
	v, _ := scalarFloat(kind, readScalar(kind, data, off))
	return v, true
}

// str reads a string at off: its bytes and the offset after it.
func (w *walker) str(off int) ([]byte, int, bool) {
	data := w.data
	if w.cdr {
		off = cdrAlign(off, 4)
	}
	if off < 0 || off > len(data)-4 {
		w.off = off
		return nil, off, false
	}
	l := w.u32(off)
	if l > len(data)-off-4 {
		w.off = off
		return nil, off, false
	}
	b := data[off+4 : off+4+l]
	if w.cdr && l > 0 {
		b = b[:l-1] // the NUL
	}
	return b, off + 4 + l, true
}

// count reads array f's element count at off and returns it with the
// offset of the first element.
func (w *walker) count(f *FieldPlan, off int) (int, int, uint8) {
	n := f.Len
	if n < 0 {
		if w.cdr {
			off = cdrAlign(off, 4)
		}
		if off < 0 || off > len(w.data)-4 {
			w.off = off
			return 0, off, stTrunc
		}
		n = w.u32(off)
		off += 4
	}
	// Every element takes some bytes, else the count is bounded.
	min := 4
	switch {
	case f.ElemSize >= 0:
		min = f.ElemSize
	case f.Msg != nil:
		min = f.Msg.MinSize
	}
	if left := len(w.data) - off; left < 0 || min > 0 && n > left/min || min == 0 && n > maxZeroSizeCount {
		w.off = off
		return 0, off, stTrunc
	}
	return n, off, stOK
}

// next returns the offset after the element of f at off.
func (w *walker) next(f *FieldPlan, off int) (int, bool) {
	if w.cdr {
		return cdrSkipValue(f, w.data, off, w.be)
	}
	return skipValue(f, w.data, off)
}

// stride returns the distance between elements of f when fixed, and
// aligns off to the first one.
func (w *walker) stride(f *FieldPlan, off int) (int, int) {
	if w.cdr {
		if f.ElemSize > 0 && f.Kind != KindMessage {
			return f.ElemSize, cdrAlign(off, f.ElemSize)
		}
		return -1, off
	}
	if f.ElemSize >= 0 {
		return f.ElemSize, off
	}
	return -1, off
}

func (w *walker) prog(p *selProg, off int) uint8 {
	off, st := w.run(p.ops, off)
	if st != stOK {
		return st
	}
	n := len(w.name)
	w.name = append(w.name, p.lit...)
	if p.sel == nil {
		v, ok := w.value(p.kind, p.part, off)
		if !ok {
			w.name = w.name[:n]
			return stTrunc
		}
		if w.fixed != "" {
			// The prefix and the path as written, after the name so far.
			m := len(w.name)
			w.name = append(w.name, w.name[:w.pre]...)
			w.name = append(w.name, w.fixed...)
			w.sink.Value(w.name[m:], v)
		} else {
			w.sink.Value(w.name, v)
		}
	} else {
		st = w.sel(p.sel, off)
	}
	w.name = w.name[:n]
	return st
}

// read reads r from an element at off: a string's bytes, or a value.
func (w *walker) read(r *selRead, off int) ([]byte, float64, uint8) {
	off, st := w.run(r.ops, off)
	if st != stOK {
		return nil, 0, st
	}
	if r.kind == KindString {
		b, _, ok := w.str(off)
		if !ok {
			return nil, 0, stTrunc
		}
		return b, 0, stOK
	}
	v, ok := w.value(r.kind, r.part, off)
	if !ok {
		return nil, 0, stTrunc
	}
	return nil, v, stOK
}

func (w *walker) sel(s *selStep, off int) uint8 {
	f := s.field
	n, off, st := w.count(f, off)
	if st != stOK {
		return st
	}
	koff := 0
	if s.keys != nil {
		ko, st := w.run(s.keys.ops, w.regs[s.keys.reg])
		if st != stOK {
			return st
		}
		kn, ko, st := w.count(s.keys.field, ko)
		if st != stOK {
			return st
		}
		if kn != n {
			if n == 0 {
				return stOK
			}
			w.off = off
			return stMismatch
		}
		koff = ko
	}
	lo, hi := 0, n
	if s.mode == selAll {
		lo = min(s.lo, n)
		if s.hi >= 0 {
			hi = min(s.hi, n)
		}
	}
	if lo >= hi {
		return stOK
	}
	size, elem := w.stride(f, off)
	if lo > 0 {
		if size >= 0 {
			elem += lo * size
		} else {
			for range lo {
				var ok bool
				if elem, ok = w.next(f, elem); !ok {
					w.off = elem
					return stTrunc
				}
			}
		}
		if s.keys != nil {
			for range lo {
				var ok bool
				if _, koff, ok = w.str(koff); !ok {
					return stTrunc
				}
			}
		}
	}
	mark := len(w.name)
	for i := lo; i < hi; i++ {
		var key []byte
		if s.keys != nil {
			var ok bool
			if key, koff, ok = w.str(koff); !ok {
				return stTrunc
			}
		}
		take := true
		switch s.mode {
		case selKey:
			if take = string(key) == s.key; take {
				w.name = append(w.name, s.bra...)
			}
		case selMatch:
			b, v, st := w.read(s.match, elem)
			switch {
			case st == stTrunc:
				return st
			case st != stOK:
				take = false
			case s.match.kind == KindString:
				take = string(b) == s.match.str
			default:
				take = v == s.match.num
			}
			if take {
				w.name = append(w.name, s.bra...)
			}
		default:
			w.name = append(w.name, '[')
			switch {
			case s.keys != nil:
				w.name = appendKey(w.name, key)
			case s.natKey != nil:
				b, _, st := w.read(s.natKey, elem)
				if st != stOK {
					return stTrunc
				}
				w.name = append(w.name, s.natKey.name...)
				w.name = append(w.name, '=')
				w.name = appendValue(w.name, b)
			default:
				w.name = strconv.AppendInt(w.name, int64(i), 10)
			}
			w.name = append(w.name, ']')
		}
		if take {
			st := w.prog(s.elem, elem)
			w.name = w.name[:mark]
			if st != stOK && st != stAbsent {
				return st
			}
		}
		if size >= 0 {
			elem += size
		} else {
			var ok bool
			if elem, ok = w.next(f, elem); !ok {
				w.off = elem
				return stTrunc
			}
		}
	}
	return stOK
}
