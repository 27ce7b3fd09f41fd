// Package echo writes decoded messages as text: as `rostopic echo` prints
// them (with PyYAML's string forms), as JSON, and one field's value on a line.
package echo

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/human"
)

// Message returns a decoded message as `rostopic echo` prints it, without
// the "---" that follows each message: genpy's strify_message (str(msg))
// with its Python 3 forms. Fields are "name: value" lines indented by two
// spaces per level, a nested message or a time starts on the next line
// (after "name: "), numbers and bools print as Python's str does (float32
// widened to float64), strings in YAML double quotes (two single quotes when empty),
// nsecs right-aligned in 9 columns, lists of numbers on one line, lists of
// strings, messages and times one "- " item per line, uint8 arrays as
// lists of numbers and char arrays as Python bytes (b'...'). Times and
// durations directly in the message are normalised as genpy does on
// decoding (0 <= nsecs < 1e9).
//
// ROS 2 (CDR) messages print the same way; their builtin_interfaces/Time
// is a message with sec and nanosec fields.
func Message(root *rosmsg.Node) string {
	return string(AppendMessage(nil, root))
}

// AppendMessage appends Message's text to dst and returns the extended
// slice, so that a caller printing many messages reuses one buffer.
func AppendMessage(dst []byte, root *rosmsg.Node) []byte {
	b := echoWriter{buf: dst}
	b.echoMessage(root, "", true)
	return b.buf
}

// Short is Message with at most limit elements of each array: the rest
// of an array is left out, and a line (or, in a list of numbers, an item)
// says how many elements were left out. For showing a big message.
func Short(root *rosmsg.Node, limit int) string {
	b := echoWriter{limit: limit}
	b.echoMessage(root, "", true)
	return b.String()
}

// Field returns a message or an array as Message prints it as a field's
// value, without the newline that starts a nested message: what copying
// a field of a message gives.
func Field(n *rosmsg.Node) string {
	var b echoWriter
	b.echoValue(n, "", false)
	return strings.TrimPrefix(b.String(), "\n")
}

// Names gives the constants of holder's message type that name the value
// n of its field (model.Enums.Names), or none.
type Names func(holder *rosmsg.Node, field string, n *rosmsg.Node) []string

// Named is Short for reading in the window: each integer field whose
// value constants of its message name (a Log's level 16, FATAL) is
// followed by a YAML comment naming them, "level: 16  # FATAL", as the
// field tree shows "16 (FATAL)". The values and everything else are
// Short's; the text stays YAML.
func Named(root *rosmsg.Node, limit int, names Names) string {
	b := echoWriter{limit: limit, names: names}
	b.echoMessage(root, "", true)
	return b.String()
}

// echoWriter writes a message's echo; limit > 0 bounds the elements of an
// array it writes; names, when set, names constant values (Named).
type echoWriter struct {
	buf   []byte
	limit int
	names Names
}

// WriteString appends s.
func (b *echoWriter) WriteString(s string) { b.buf = append(b.buf, s...) }

// WriteByte appends c.
func (b *echoWriter) WriteByte(c byte) error {
	b.buf = append(b.buf, c)
	return nil
}

// String is the text written.
func (b *echoWriter) String() string { return string(b.buf) }

// shown is how many of cnt elements are written.
func (b *echoWriter) shown(cnt int) int {
	if b.limit > 0 {
		return min(cnt, b.limit)
	}
	return cnt
}

// echoMessage writes a message's fields, one per line, each line starting
// with indent; a nested message (indent != "") starts with a newline.
func (b *echoWriter) echoMessage(n *rosmsg.Node, indent string, top bool) {
	if indent != "" {
		b.WriteByte('\n') // even for a message with no fields
	}
	for i := range n.Children {
		c := &n.Children[i]
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(indent)
		b.WriteString(c.Name)
		b.WriteString(": ")
		b.echoValue(c, deeper(indent), top)
		if b.names != nil && !c.Array && c.Kind != rosmsg.KindMessage {
			if ns := b.names(n, c.Name, c); len(ns) > 0 {
				b.WriteString("  # ")
				b.WriteString(strings.Join(ns, " | "))
			}
		}
	}
}

// echoValue writes the value of a field or element, as strify_message does
// with indent (the indent of the value's own fields).
func (b *echoWriter) echoValue(n *rosmsg.Node, indent string, top bool) {
	if n.Array {
		b.echoArray(n, indent)
		return
	}
	switch n.Kind {
	case rosmsg.KindMessage:
		b.echoMessage(n, indent, false)
	case rosmsg.KindString, rosmsg.KindWString:
		switch s := n.Text(); {
		case s == "":
			b.WriteString("''")
		case quotedAsIs(s):
			b.buf = append(append(append(b.buf, '"'), s...), '"')
		default:
			b.WriteString(yamlQuoted(s))
		}
	case rosmsg.KindTime:
		t := n.Time()
		secs, nsecs := int64(t.Sec), int64(t.Nsec)
		if top {
			secs, nsecs = canonTime(secs, nsecs)
		}
		b.echoSecsNsecs(indent, secs, nsecs)
	case rosmsg.KindDuration:
		d := n.Duration()
		secs, nsecs := int64(d.Sec), int64(d.Nsec)
		if top {
			secs, nsecs = canonTime(secs, nsecs)
		}
		b.echoSecsNsecs(indent, secs, nsecs)
	default:
		b.buf = appendPyScalar(b.buf, n)
	}
}

// quotedAsIs says whether yamlQuoted(s) is s between double quotes: s is
// printable ASCII without '"' or '\\' (nothing escaped), and short enough
// that no line folds (the quote and 80 columns).
func quotedAsIs(s string) bool {
	if len(s) > yamlWidth {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// deeper is indent (spaces) two spaces deeper, without building a string
// while yamlSpaces holds it.
func deeper(indent string) string {
	if n := len(indent) + 2; n <= len(yamlSpaces) {
		return yamlSpaces[:n]
	}
	return indent + "  "
}

// canonTime is genpy's canon(): nsecs folded into 0..999999999.
func canonTime(secs, nsecs int64) (int64, int64) {
	over := nsecs / 1e9
	if nsecs%1e9 < 0 {
		over--
	}
	return secs + over, nsecs - over*1e9
}

func (b *echoWriter) echoSecsNsecs(indent string, secs, nsecs int64) {
	b.WriteByte('\n')
	b.WriteString(indent)
	b.WriteString("secs: ")
	b.buf = strconv.AppendInt(b.buf, secs, 10)
	b.WriteByte('\n')
	b.WriteString(indent)
	b.WriteString("nsecs: ")
	var digits [20]byte
	s := strconv.AppendInt(digits[:0], nsecs, 10)
	if len(s) < 9 {
		b.WriteString("         "[:9-len(s)])
	}
	b.buf = append(b.buf, s...)
}

func (b *echoWriter) echoArray(n *rosmsg.Node, indent string) {
	if strings.HasPrefix(n.Type, "char[") {
		p := n.Bytes()
		b.WriteString(pyBytes(p[:b.shown(len(p))]))
		if k := b.shown(len(p)); k < len(p) {
			b.WriteString(" … " + human.Count(uint64(len(p)-k)) + " more")
		}
		return
	}
	cnt := n.Len()
	if cnt == 0 {
		b.WriteString("[]")
		return
	}
	switch n.Kind {
	case rosmsg.KindString, rosmsg.KindWString:
		items := make([]string, b.shown(cnt))
		for i := range items {
			items[i] = n.Children[i].Text()
		}
		for _, line := range strings.Split(yamlStringList(items), "\n") {
			b.WriteByte('\n')
			b.WriteString(indent)
			b.WriteString(line)
		}
		b.leftOut(indent, cnt)
		return
	case rosmsg.KindMessage, rosmsg.KindTime, rosmsg.KindDuration:
		for i := range b.shown(cnt) {
			e, _ := n.Elem(i)
			b.WriteByte('\n')
			b.WriteString(indent)
			b.WriteString("- ")
			b.echoValue(&e, deeper(indent), false)
		}
		b.leftOut(indent, cnt)
		return
	}
	b.WriteByte('[')
	for i := range b.shown(cnt) {
		if i > 0 {
			b.WriteString(", ")
		}
		e, _ := n.Elem(i)
		b.buf = appendPyScalar(b.buf, &e)
	}
	if k := b.shown(cnt); k < cnt {
		b.WriteString(", … " + human.Count(uint64(cnt-k)) + " more")
	}
	b.WriteByte(']')
}

// leftOut writes a line saying how many of cnt elements an array left
// out, if any.
func (b *echoWriter) leftOut(indent string, cnt int) {
	if k := b.shown(cnt); k < cnt {
		b.WriteString("\n" + indent + "… " + human.Count(uint64(cnt-k)) + " more")
	}
}

// PyScalar is a number or bool as Python's str prints it: "True", "42",
// "0.10000000149011612" for a float32 0.1, "1e-05", "nan", "-inf". Other
// nodes give FieldValue's form.
func PyScalar(n *rosmsg.Node) string {
	return string(appendPyScalar(nil, n))
}

// appendPyScalar appends PyScalar's text.
func appendPyScalar(b []byte, n *rosmsg.Node) []byte {
	switch n.Kind {
	case rosmsg.KindBool:
		if n.Bool() {
			return append(b, "True"...)
		}
		return append(b, "False"...)
	case rosmsg.KindFloat32, rosmsg.KindFloat64:
		return rosmsg.AppendPyRepr(b, n.Float())
	case rosmsg.KindInt8, rosmsg.KindInt16, rosmsg.KindInt32, rosmsg.KindInt64:
		return strconv.AppendInt(b, n.Int(), 10)
	case rosmsg.KindUint8, rosmsg.KindUint16, rosmsg.KindUint32, rosmsg.KindUint64:
		return strconv.AppendUint(b, n.Uint(), 10)
	}
	return append(b, FieldValue(n)...)
}

// PyFloat is f as Python 3's repr (and str) prints it: the shortest digits
// that read back as f, in exponent form below 1e-4 and from 1e16.
func PyFloat(f float64) string {
	return string(rosmsg.AppendPyRepr(nil, f))
}

// pyBytes is Python's repr of a bytes object: b'...'.
func pyBytes(p []byte) string {
	q := byte('\'')
	if bytes.IndexByte(p, '\'') >= 0 && bytes.IndexByte(p, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte('b')
	b.WriteByte(q)
	for _, c := range p {
		switch {
		case c == q || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c < 0x20 || c >= 0x7f:
			b.WriteString(`\x`)
			b.WriteByte(hexDigit[c>>4])
			b.WriteByte(hexDigit[c&15])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(q)
	return b.String()
}

const hexDigit = "0123456789abcdef"

// JSON is a decoded message as indented JSON, in the form of
// "bagscope cat --json" (rosmsg.AppendJSON): objects one field per line,
// lists of numbers, strings or bools on one line.
func JSON(root *rosmsg.Node) string {
	raw := rosmsg.AppendJSON(nil, root)
	var out bytes.Buffer
	if err := json.Indent(&out, raw, "", "  "); err != nil {
		return string(raw)
	}
	return joinScalarLists(out.String())
}

// joinScalarLists puts each list of scalars of json.Indent's output on
// one line: "[\n    1,\n    2\n  ]" becomes "[1, 2]".
func joinScalarLists(s string) string {
	lines := strings.Split(s, "\n")
	out := make([]string, 0, len(lines))
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if !strings.HasSuffix(line, "[") {
			out = append(out, line)
			continue
		}
		var items []string
		j := i + 1
		for ; j < len(lines); j++ {
			t := strings.TrimSpace(lines[j])
			if t == "]" || t == "]," {
				break
			}
			if strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[") {
				items = nil
				break
			}
			items = append(items, strings.TrimSuffix(t, ","))
		}
		if items == nil || j == len(lines) {
			out = append(out, line)
			continue
		}
		out = append(out, line+strings.Join(items, ", ")+strings.TrimSpace(lines[j]))
		i = j
	}
	return strings.Join(out, "\n")
}
