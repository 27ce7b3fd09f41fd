package echo

import (
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// ROS2Field returns one field of a decoded ROS 2 message as `ros2 topic
// echo --field PATH` prints it, ending in a newline and without the "---"
// line that follows: a message (a nested message, or the root) as
// ROS2Message's YAML; any other value as Python's print() of the value
// rclpy gives, which is not truncated:
//
//   - bool True/False, integers, floats as repr (a float32 widened), a
//     string up to its first NUL, a byte (octet) as a bytes repr b'\x07',
//     an IDL char (style.IDLChar) as its one character;
//   - a sequence (T[] or T[<=N]) of numbers as an array.array repr,
//     array('d', [1.0, 2.0]), or array('d') when empty;
//   - a fixed array (T[N]) of numbers as numpy prints an ndarray: [1 2 3],
//     [0.  1.5], [1.0e-05 1.5e+00] (array2string: elements padded to one
//     width, lines wrapped at 75 columns, more than 1000 elements cut to
//     3 ... 3);
//   - any other array (bools, strings, bytes, chars) as a Python list repr.
//
// ok is false for an array of messages, whose Python repr (the generated
// classes' __repr__) is not reproduced.
func ROS2Field(n *rosmsg.Node, style ROS2Style) (text string, ok bool) {
	if n.Kind == rosmsg.KindMessage && !n.Array {
		return ROS2MessageStyled(n, style), true
	}
	if n.Array {
		if n.Kind == rosmsg.KindMessage {
			return "", false
		}
		if code := arrayTypecode(n); code != 0 && !ros2Byte(n.Type) && !(style.IDLChar && isChar(n.Type)) {
			if strings.HasSuffix(n.Type, "[]") || strings.Contains(n.Type, "[<=") {
				return pyArrayRepr(n, code) + "\n", true
			}
			return numpyStr(n) + "\n", true
		}
		var b strings.Builder
		b.WriteByte('[')
		for i := range n.Len() {
			if i > 0 {
				b.WriteString(", ")
			}
			e, _ := n.Elem(i)
			b.WriteString(pyRepr(&e, style))
		}
		b.WriteString("]\n")
		return b.String(), true
	}
	switch {
	case n.Kind == rosmsg.KindString || n.Kind == rosmsg.KindWString:
		return ros2Text(n) + "\n", true
	case n.Kind == rosmsg.KindUint8 && ros2Byte(n.Type):
		return pyBytes([]byte{byte(n.Uint())}) + "\n", true
	case n.Kind == rosmsg.KindUint8 && style.IDLChar && isChar(n.Type):
		return string(rune(n.Uint())) + "\n", true
	}
	return PyScalar(n) + "\n", true
}

// pyRepr is Python's repr of an element of a list: a str quoted, a byte as
// bytes, a number or bool as PyScalar.
func pyRepr(e *rosmsg.Node, style ROS2Style) string {
	switch {
	case e.Kind == rosmsg.KindString || e.Kind == rosmsg.KindWString:
		return pyStrRepr(ros2Text(e))
	case e.Kind == rosmsg.KindUint8 && ros2Byte(e.Type):
		return pyBytes([]byte{byte(e.Uint())})
	case e.Kind == rosmsg.KindUint8 && style.IDLChar && isChar(e.Type):
		return pyStrRepr(string(rune(e.Uint())))
	}
	return PyScalar(e)
}

// arrayTypecodes are the array module's typecodes of the number types
// rclpy keeps in an array.array (a sequence) or a numpy array (a fixed
// array): rosidl_generator_py's SPECIAL_NESTED_BASIC_TYPES.
var arrayTypecodes = map[rosmsg.Kind]byte{
	rosmsg.KindFloat32: 'f', rosmsg.KindFloat64: 'd', rosmsg.KindInt8: 'b', rosmsg.KindUint8: 'B',
	rosmsg.KindInt16: 'h', rosmsg.KindUint16: 'H', rosmsg.KindInt32: 'i', rosmsg.KindUint32: 'I',
	rosmsg.KindInt64: 'q', rosmsg.KindUint64: 'Q',
}

func arrayTypecode(n *rosmsg.Node) byte { return arrayTypecodes[n.Kind] }

// isChar says whether a field or element type is char.
func isChar(typ string) bool {
	return typ == "char" || strings.HasPrefix(typ, "char[")
}

// pyArrayRepr is repr(array.array(code, elements)).
func pyArrayRepr(n *rosmsg.Node, code byte) string {
	cnt := n.Len()
	if cnt == 0 {
		return "array('" + string(code) + "')"
	}
	var b strings.Builder
	b.WriteString("array('" + string(code) + "', [")
	for i := range cnt {
		if i > 0 {
			b.WriteString(", ")
		}
		e, _ := n.Elem(i)
		b.WriteString(PyScalar(&e))
	}
	b.WriteString("])")
	return b.String()
}

// pyStrRepr is Python 3's repr of a str: single quotes unless the text
// holds a ' and no ", backslash escapes for the quote, \\, \t, \n, \r and
// the characters str.isprintable refuses (\xNN, \uNNNN, \UNNNNNNNN).
func pyStrRepr(s string) string {
	q := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		q = '"'
	}
	var b strings.Builder
	b.WriteByte(q)
	for _, r := range s {
		switch {
		case r == rune(q) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			b.WriteString(`\x` + hex(uint64(r), 2))
		case pyPrintable(r):
			b.WriteRune(r)
		case r < 0x100:
			b.WriteString(`\x` + hex(uint64(r), 2))
		case r < 0x10000:
			b.WriteString(`\u` + hex(uint64(r), 4))
		default:
			b.WriteString(`\U` + hex(uint64(r), 8))
		}
	}
	b.WriteByte(q)
	return b.String()
}

func hex(v uint64, width int) string {
	s := strconv.FormatUint(v, 16)
	return strings.Repeat("0", max(0, width-len(s))) + s
}
