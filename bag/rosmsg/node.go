package rosmsg

import (
	"encoding/binary"
	"math"
)

// Time is a ROS time: unsigned seconds and nanoseconds.
type Time struct{ Sec, Nsec uint32 }

// Duration is a ROS duration: signed seconds and nanoseconds.
type Duration struct{ Sec, Nsec int32 }

// Seconds returns t as seconds.
func (t Time) Seconds() float64 { return float64(t.Sec) + float64(t.Nsec)*1e-9 }

// Seconds returns d as seconds.
func (d Duration) Seconds() float64 { return float64(d.Sec) + float64(d.Nsec)*1e-9 }

// Node is one value of a decoded message: the message itself, a field, or an
// array element. [Start, End) is its byte range in the message data.
//
// Messages and arrays of strings or messages have Children. Arrays of uint8
// and char are kept as raw bytes (Bytes); other arrays of fixed-size builtins
// are kept compact as a typed slice (Slice); Elem and ElemRange give any
// element of any array, with its byte range.
type Node struct {
	Name       string // field name; "" for the root and for array elements
	Index      int    // element index for array elements, -1 otherwise
	Type       string // ROS type: "float64", "geometry_msgs/Point[]"; an element has the element type
	Kind       Kind   // kind of the value or, for an array, of its elements
	Array      bool
	Start, End int
	Children   []Node // fields of a message; elements of an array of strings or messages

	bits  uint64 // scalar payload: integers (sign-extended), float bits, bool, time secs|nsecs<<32
	str   string // string payload
	slice any    // []byte for uint8/char arrays; []bool, []int8, ..., []float64, []Time, []Duration otherwise
	hdr   int    // bytes before the first element: 4 for a variable array, else 0
}

// Len returns the number of elements of an array node (0 for other nodes).
func (n *Node) Len() int {
	if !n.Array {
		return 0
	}
	if n.slice == nil {
		return len(n.Children)
	}
	switch s := n.slice.(type) {
	case []byte:
		return len(s)
	case []bool:
		return len(s)
	case []int8:
		return len(s)
	case []int16:
		return len(s)
	case []uint16:
		return len(s)
	case []int32:
		return len(s)
	case []uint32:
		return len(s)
	case []int64:
		return len(s)
	case []uint64:
		return len(s)
	case []float32:
		return len(s)
	case []float64:
		return len(s)
	case []Time:
		return len(s)
	case []Duration:
		return len(s)
	}
	return 0
}

// ElemRange returns the byte range of element i of an array node.
// It returns (-1, -1) if n is not an array or i is out of range.
func (n *Node) ElemRange(i int) (start, end int) {
	if i < 0 || i >= n.Len() {
		return -1, -1
	}
	if n.slice == nil {
		return n.Children[i].Start, n.Children[i].End
	}
	sz := n.Kind.Size()
	start = n.Start + n.hdr + i*sz
	return start, start + sz
}

// Elem returns element i of an array node, building it on demand for
// compact arrays. ok is false if n is not an array or i is out of range.
func (n *Node) Elem(i int) (e Node, ok bool) {
	if i < 0 || i >= n.Len() {
		return Node{}, false
	}
	if n.slice == nil {
		return n.Children[i], true
	}
	e = Node{Index: i, Type: n.elemType(), Kind: n.Kind}
	e.Start, e.End = n.ElemRange(i)
	switch s := n.slice.(type) {
	case []byte:
		e.bits = uint64(s[i])
	case []bool:
		if s[i] {
			e.bits = 1
		}
	case []int8:
		e.bits = uint64(int64(s[i]))
	case []int16:
		e.bits = uint64(int64(s[i]))
	case []uint16:
		e.bits = uint64(s[i])
	case []int32:
		e.bits = uint64(int64(s[i]))
	case []uint32:
		e.bits = uint64(s[i])
	case []int64:
		e.bits = uint64(s[i])
	case []uint64:
		e.bits = s[i]
	case []float32:
		e.bits = uint64(math.Float32bits(s[i]))
	case []float64:
		e.bits = math.Float64bits(s[i])
	case []Time:
		e.bits = uint64(s[i].Sec) | uint64(s[i].Nsec)<<32
	case []Duration:
		e.bits = uint64(uint32(s[i].Sec)) | uint64(uint32(s[i].Nsec))<<32
	}
	return e, true
}

func (n *Node) elemType() string {
	for i := 0; i < len(n.Type); i++ {
		if n.Type[i] == '[' {
			return n.Type[:i]
		}
	}
	return n.Type
}

// Field returns the child field with the given name, or nil.
func (n *Node) Field(name string) *Node {
	if n.Array {
		return nil
	}
	for i := range n.Children {
		if n.Children[i].Name == name {
			return &n.Children[i]
		}
	}
	return nil
}

// Bool returns the value of a bool node.
func (n *Node) Bool() bool { return n.bits != 0 }

// Int returns the value of a signed integer node (int8, byte, ..., int64).
func (n *Node) Int() int64 { return int64(n.bits) }

// Uint returns the value of an unsigned integer node (uint8, char, ..., uint64).
func (n *Node) Uint() uint64 { return n.bits }

// Float returns the value of a float32 or float64 node as a float64
// (a float32 is widened exactly).
func (n *Node) Float() float64 {
	if n.Kind == KindFloat32 {
		return float64(math.Float32frombits(uint32(n.bits)))
	}
	return math.Float64frombits(n.bits)
}

// Text returns the value of a string or wstring node, decoded as genpy does
// (UTF-8, invalid sequences replaced by U+FFFD).
func (n *Node) Text() string { return n.str }

// Time returns the value of a time node, as stored (not normalised).
func (n *Node) Time() Time { return Time{uint32(n.bits), uint32(n.bits >> 32)} }

// Duration returns the value of a duration node, as stored (not normalised).
func (n *Node) Duration() Duration {
	return Duration{int32(uint32(n.bits)), int32(uint32(n.bits >> 32))}
}

// Bytes returns the contents of a uint8 or char array node (a copy of the
// message data owned by the node).
func (n *Node) Bytes() []byte {
	b, _ := n.slice.([]byte)
	return b
}

// Slice returns the elements of a compact array node as a typed slice:
// []byte for uint8/char, []bool, []int8 (also byte), []int16, []uint16,
// []int32, []uint32, []int64, []uint64, []float32, []float64, []Time or
// []Duration. It returns nil for other nodes.
func (n *Node) Slice() any { return n.slice }

// Float64 returns a scalar node's value as a float64: numbers as is, bool as
// 0 or 1, time and duration in seconds. ok is false for other nodes.
func (n *Node) Float64() (v float64, ok bool) {
	if n.Array {
		return 0, false
	}
	return scalarFloat(n.Kind, n.bits)
}

func scalarFloat(k Kind, bits uint64) (float64, bool) {
	switch k {
	case KindBool, KindUint8, KindUint16, KindUint32, KindUint64:
		return float64(bits), true
	case KindInt8, KindInt16, KindInt32, KindInt64:
		return float64(int64(bits)), true
	case KindFloat32:
		return float64(math.Float32frombits(uint32(bits))), true
	case KindFloat64:
		return math.Float64frombits(bits), true
	case KindTime:
		return Time{uint32(bits), uint32(bits >> 32)}.Seconds(), true
	case KindDuration:
		return Duration{int32(uint32(bits)), int32(uint32(bits >> 32))}.Seconds(), true
	}
	return 0, false
}

// Value returns the node's value boxed: bool, int64, uint64, float64,
// string, Time, Duration, the typed slice of a compact array, or nil for
// messages and arrays with Children.
func (n *Node) Value() any {
	if n.Array {
		return n.slice
	}
	switch n.Kind {
	case KindBool:
		return n.Bool()
	case KindInt8, KindInt16, KindInt32, KindInt64:
		return n.Int()
	case KindUint8, KindUint16, KindUint32, KindUint64:
		return n.Uint()
	case KindFloat32, KindFloat64:
		return n.Float()
	case KindString, KindWString:
		return n.str
	case KindTime:
		return n.Time()
	case KindDuration:
		return n.Duration()
	}
	return nil
}

// readScalar reads the fixed-size scalar of kind k at data[off:], which the
// caller has checked is long enough, into the node payload form.
func readScalar(k Kind, data []byte, off int) uint64 {
	switch k {
	case KindBool:
		if data[off] != 0 {
			return 1
		}
		return 0
	case KindUint8:
		return uint64(data[off])
	case KindInt8:
		return uint64(int64(int8(data[off])))
	case KindUint16:
		return uint64(binary.LittleEndian.Uint16(data[off:]))
	case KindInt16:
		return uint64(int64(int16(binary.LittleEndian.Uint16(data[off:]))))
	case KindUint32, KindFloat32:
		return uint64(binary.LittleEndian.Uint32(data[off:]))
	case KindInt32:
		return uint64(int64(int32(binary.LittleEndian.Uint32(data[off:]))))
	default: // 8 bytes: int64, uint64, float64, time, duration
		return binary.LittleEndian.Uint64(data[off:])
	}
}
