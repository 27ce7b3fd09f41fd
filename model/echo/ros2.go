package echo

import (
	"bytes"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// ROS2TruncateLength is `ros2 topic echo`'s default --truncate-length.
const ROS2TruncateLength = 128

// ROS2Message returns a decoded ROS 2 (CDR) message as `ros2 topic echo`
// prints it, ending in a newline and without the "---" line that follows
// each message: rosidl_runtime_py's message_to_yaml, which is PyYAML's
// yaml.dump of the message as an ordered mapping (allow_unicode, no line
// width, block style) after rclpy has turned the fields into Python values.
//
// Fields are "name: value" lines, nested messages indented by two spaces
// under "name:", arrays as "- item" lines at the field's own indent ("[]"
// when empty, "{}" for a message without fields); numbers as Python's repr
// with YAML's forms (1.0e-05, .nan, .inf, -.inf), bools true/false;
// strings plain or quoted as PyYAML chooses (”; '1'; "\0"), cut at their
// first NUL as rclpy reads them; a byte (octet) field, which rclpy gives as
// bytes, as the one character of that code point; uint8 and char arrays as
// lists of numbers. builtin_interfaces/Time and Duration are messages (sec,
// nanosec).
//
// truncate is --truncate-length: strings and arrays longer than it are cut
// to that many characters or elements followed by "..." (strings) or a
// "- '...'" item (arrays), as message_to_ordereddict does; truncate < 0
// prints everything (--full-length).
func ROS2Message(root *rosmsg.Node, truncate int) string {
	return ROS2MessageStyled(root, ROS2Style{Truncate: truncate})
}

// ROS2Style is how ROS 2 text is written beyond the message itself.
type ROS2Style struct {
	// Truncate is ROS2Message's truncate (-1: --full-length).
	Truncate int
	// IDLChar says that "char" is IDL's char (a ros2idl schema), which
	// rclpy gives as a str of one character, not a number: in a .msg,
	// char is rosidl's alias of uint8.
	IDLChar bool
}

// ROS2MessageStyled is ROS2Message with the definition's style: an IDL char
// (style.IDLChar) is written as its one character, as rclpy gives it.
func ROS2MessageStyled(root *rosmsg.Node, style ROS2Style) string {
	return string(AppendROS2Message(nil, root, style))
}

// AppendROS2Message appends ROS2MessageStyled's text to dst and returns the
// extended slice, so that a caller printing many messages reuses one
// buffer.
func AppendROS2Message(dst []byte, root *rosmsg.Node, style ROS2Style) []byte {
	w := ros2Writer{truncate: style.Truncate, idlChar: style.IDLChar}
	w.e = yamlEmitter{width: -1, unicode: true, whitespace: true, indention: true, b: dst}
	w.message(root, -1)
	// The document ends with a line break (expect_document_end's indent).
	w.e.indent = 0
	w.e.writeIndent()
	return w.e.b
}

// ros2Writer writes one message as PyYAML's emitter would the events of
// the message's ordered dict: the emitter state (column, indent,
// whitespace, indention) is yamlEmitter's.
type ros2Writer struct {
	e        yamlEmitter
	truncate int
	idlChar  bool
}

// message writes a message node's fields as a block mapping inside a
// container whose indent is indent (-1: the document root), or "{}" when
// it has none.
func (w *ros2Writer) message(n *rosmsg.Node, indent int) {
	if len(n.Children) == 0 {
		w.e.writeIndicator("{", true, true, false)
		w.e.writeIndicator("}", false, false, false)
		return
	}
	own := indent + 2
	if indent < 0 {
		own = 0
	}
	for i := range n.Children {
		c := &n.Children[i]
		w.e.indent = own
		w.e.writeIndent()
		if st := keyStyle(c.Name); st == 0 {
			w.plainText(c.Name, own, false)
		} else {
			w.scalar(c.Name, st, own, false)
		}
		w.e.writeIndicator(":", false, false, false)
		w.value(c, own)
	}
}

// keyStyles holds the style PyYAML chooses for each field name met, a
// mapping key: the names are those of the definitions read, so it stays
// small, and each message's fields need not be analysed again. It is a
// map replaced whole when a name is added (under keyStylesMu), so that
// the look-up of every field of every message is a plain map's, not a
// sync.Map's (whose interface keys cost ~7% of cat's CPU on ROS 2 text).
var (
	keyStyles   atomic.Pointer[map[string]rune]
	keyStylesMu sync.Mutex
)

func keyStyle(name string) rune {
	if m := keyStyles.Load(); m != nil {
		if st, ok := (*m)[name]; ok {
			return st
		}
	}
	st := yamlStyle(name, true)
	keyStylesMu.Lock()
	defer keyStylesMu.Unlock()
	old := keyStyles.Load()
	next := make(map[string]rune, 1)
	if old != nil {
		next = make(map[string]rune, len(*old)+1)
		for k, v := range *old {
			next[k] = v
		}
	}
	next[name] = st
	keyStyles.Store(&next)
	return st
}

// value writes a field's value as the value of a mapping whose indent is
// indent.
func (w *ros2Writer) value(n *rosmsg.Node, indent int) {
	if n.Array {
		w.array(n, indent)
		return
	}
	w.item(n, indent)
}

// item writes a non-array value (a field's, or an array element's) inside
// a container whose indent is indent.
func (w *ros2Writer) item(n *rosmsg.Node, indent int) {
	switch n.Kind {
	case rosmsg.KindMessage:
		w.message(n, indent)
	case rosmsg.KindString, rosmsg.KindWString:
		w.str(ros2Text(n), indent)
	case rosmsg.KindUint8:
		if ros2Byte(n.Type) || w.idlChar && isChar(n.Type) {
			w.str(string(rune(n.Uint())), indent)
			return
		}
		at := w.plainStart(indent)
		w.e.b = strconv.AppendUint(w.e.b, n.Uint(), 10)
		w.plainEnd(at)
	default:
		at := w.plainStart(indent)
		w.e.b = appendYAMLScalar(w.e.b, n)
		w.plainEnd(at)
	}
}

// array writes an array as a block sequence under a mapping key: PyYAML
// writes it "indentless", its "- " items at the key's indent.
func (w *ros2Writer) array(n *rosmsg.Node, indent int) {
	cnt := n.Len()
	if cnt == 0 {
		w.e.writeIndicator("[", true, true, false)
		w.e.writeIndicator("]", false, false, false)
		return
	}
	shown := cnt
	if w.truncate >= 0 && cnt > w.truncate {
		shown = w.truncate
	}
	for i := range shown {
		w.e.indent = indent
		w.e.writeIndent()
		w.e.writeIndicator("-", true, false, true)
		e, _ := n.Elem(i)
		w.item(&e, indent)
	}
	if shown < cnt {
		w.e.indent = indent
		w.e.writeIndent()
		w.e.writeIndicator("-", true, false, true)
		w.scalar("...", '\'', indent, true)
	}
}

// str writes a string value, cut to the truncate length.
func (w *ros2Writer) str(s string, indent int) {
	if w.truncate >= 0 && len(s) > w.truncate {
		if r := []rune(s); len(r) > w.truncate {
			s = string(r[:w.truncate]) + "..."
		}
	}
	if st := yamlStyle(s, true); st == 0 {
		w.plainText(s, indent, true)
	} else {
		w.scalar(s, st, indent, true)
	}
}

// plainStart begins a plain scalar inside a container whose indent is
// indent, which the caller appends to w.e.b as it is and ends with
// plainEnd: what scalar and writePlain do for a plain scalar when lines
// are never folded (ROS 2's width), without their rune-by-rune walk. A
// plain scalar has no line break, so writePlain writes it as it is. It
// returns where the scalar's text starts.
func (w *ros2Writer) plainStart(indent int) int {
	e := &w.e
	e.indent = max(indent, 0) + yamlIndent
	if !e.whitespace {
		e.b = append(e.b, ' ')
		e.column++
	}
	e.whitespace, e.indention = false, false
	return len(e.b)
}

// plainEnd ends a plain scalar of ASCII (a number, a bool) begun at at.
func (w *ros2Writer) plainEnd(at int) {
	w.e.column += len(w.e.b) - at
}

// plainText writes text yamlStyle chose plain for; split is scalar's.
func (w *ros2Writer) plainText(s string, indent int, split bool) {
	if !utf8.ValidString(s) {
		// scalar writes each invalid byte as U+FFFD, as []rune does.
		w.scalar(s, 0, indent, split)
		return
	}
	w.plainStart(indent)
	w.e.b = append(w.e.b, s...)
	w.e.column += utf8.RuneCountInString(s)
}

// scalar writes a scalar in a style inside a container whose indent is
// indent: expect_scalar raises the indent by two while it writes.
func (w *ros2Writer) scalar(s string, style rune, indent int, split bool) {
	w.e.indent = max(indent, 0) + yamlIndent
	r := []rune(s)
	switch style {
	case '"':
		w.e.writeDoubleQuoted(r, split)
	case '\'':
		w.e.writeSingleQuoted(r, split)
	default:
		w.e.writePlain(r, split)
	}
}

// ros2Byte says whether a field or element type is ROS 2's byte (IDL
// octet), which rclpy gives as a bytes object, not a number.
func ros2Byte(typ string) bool {
	return typ == "byte" || strings.HasPrefix(typ, "byte[")
}

// ros2Text is a string as rclpy reads it: up to its first NUL (strlen).
func ros2Text(n *rosmsg.Node) string {
	s := n.Text()
	if i := strings.IndexByte(s, 0); i >= 0 {
		s = s[:i]
	}
	return s
}

// appendYAMLScalar appends a number or bool as PyYAML's representer writes
// it: bools true/false, integers as str, floats as repr (lower case, ".0"
// before an exponent of a number without a point, .nan, .inf, -.inf).
func appendYAMLScalar(b []byte, n *rosmsg.Node) []byte {
	switch n.Kind {
	case rosmsg.KindBool:
		if n.Bool() {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case rosmsg.KindFloat32, rosmsg.KindFloat64:
		return appendYAMLFloat(b, n.Float())
	case rosmsg.KindInt8, rosmsg.KindInt16, rosmsg.KindInt32, rosmsg.KindInt64:
		return strconv.AppendInt(b, n.Int(), 10)
	case rosmsg.KindUint8, rosmsg.KindUint16, rosmsg.KindUint32, rosmsg.KindUint64:
		return strconv.AppendUint(b, n.Uint(), 10)
	}
	return append(b, PyScalar(n)...)
}

// appendYAMLFloat appends f as PyYAML's represent_float writes it.
func appendYAMLFloat(b []byte, f float64) []byte {
	at := len(b)
	b = rosmsg.AppendPyRepr(b, f)
	s := b[at:]
	switch string(s) {
	case "nan":
		return append(b[:at], ".nan"...)
	case "inf":
		return append(b[:at], ".inf"...)
	case "-inf":
		return append(b[:at], "-.inf"...)
	}
	if bytes.IndexByte(s, '.') < 0 {
		if e := bytes.IndexByte(s, 'e'); e >= 0 {
			// 1e+16 -> 1.0e+16
			e += at
			b = append(b, "00"...)
			copy(b[e+2:], b[e:len(b)-2])
			b[e], b[e+1] = '.', '0'
		}
	}
	return b
}
