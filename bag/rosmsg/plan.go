package rosmsg

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
)

// Kind is the wire kind of a value.
type Kind uint8

// Kinds. The deprecated "byte" decodes as KindInt8 and "char" as KindUint8,
// as genpy does (struct codes 'b' and 'B').
const (
	KindInvalid Kind = iota
	KindBool
	KindInt8
	KindUint8
	KindInt16
	KindUint16
	KindInt32
	KindUint32
	KindInt64
	KindUint64
	KindFloat32
	KindFloat64
	KindString
	KindTime
	KindDuration
	KindMessage
	// KindWString is a ROS 2 wstring (CDR plans only), decoded to UTF-8.
	KindWString
)

var kindNames = [...]string{"invalid", "bool", "int8", "uint8", "int16", "uint16", "int32", "uint32",
	"int64", "uint64", "float32", "float64", "string", "time", "duration", "message", "wstring"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", uint8(k))
}

// Size returns the serialized size of one value of kind k, or -1 if it
// varies (string, wstring, message).
func (k Kind) Size() int {
	switch k {
	case KindBool, KindInt8, KindUint8:
		return 1
	case KindInt16, KindUint16:
		return 2
	case KindInt32, KindUint32, KindFloat32:
		return 4
	case KindInt64, KindUint64, KindFloat64, KindTime, KindDuration:
		return 8
	}
	return -1
}

// Plottable reports whether values of kind k convert to a float64
// (numbers, bool, time and duration).
func (k Kind) Plottable() bool { return k >= KindBool && k <= KindDuration && k != KindString }

var builtinKinds = map[string]Kind{
	"bool": KindBool, "int8": KindInt8, "byte": KindInt8, "uint8": KindUint8, "char": KindUint8,
	"int16": KindInt16, "uint16": KindUint16, "int32": KindInt32, "uint32": KindUint32,
	"int64": KindInt64, "uint64": KindUint64, "float32": KindFloat32, "float64": KindFloat64,
	"string": KindString, "time": KindTime, "duration": KindDuration,
}

// Plan is a compiled message type: the decoding plan of the top-level type
// and of every type it contains. A Plan is immutable and safe for concurrent use.
type Plan struct {
	Type       string      // top-level type
	MD5        string      // md5 sum computed from the definition ("" for CDR plans)
	Definition *Definition // parsed definition
	Root       *MsgPlan    // plan of Type

	// SchemaEncoding is the definition's language: "ros1msg", "ros2msg" or
	// "ros2idl". MessageEncoding is the wire format Decode and paths read:
	// "ros1" or "cdr".
	SchemaEncoding, MessageEncoding string

	cdr bool // MessageEncoding == "cdr"

	boundsOnce sync.Once
	bounded    bool // see needsDecode
}

// MsgPlan is the decoding plan of one message type.
type MsgPlan struct {
	Type      string
	MD5       string
	Constants []Constant
	Fields    []FieldPlan
	Size      int // serialized size if fixed, else -1
	MinSize   int // smallest possible serialized size

	// prog is the CDR skip program (progOf), built on first use: a field
	// rather than a map, since it is looked up for every message.
	prog atomic.Pointer[cdrProg]
	// layout is the field layout plans (layoutOf) of the ROS 1 wire
	// format [0] and of CDR [1], built on first use.
	layout [2]atomic.Pointer[msgLayout]
}

// FieldPlan is the decoding plan of one field. In a CDR plan the serialized
// size of anything but a primitive depends on alignment: Size and Offset are
// then -1, ElemSize is the size of a primitive element (else -1) and MinSize
// counts no padding.
type FieldPlan struct {
	Name     string
	Type     string   // resolved type as declared: "float64[9]", "geometry_msgs/Point[]"
	ElemType string   // type of one element (Type without array suffix)
	Kind     Kind     // kind of one element
	Array    bool     // fixed or variable array
	Len      int      // fixed array length, -1 for a variable array, 0 if not an array
	Msg      *MsgPlan // element plan when Kind is KindMessage
	Size     int      // serialized size of the field if fixed, else -1
	ElemSize int      // serialized size of one element if fixed, else -1
	MinSize  int      // smallest possible serialized size of the field
	Offset   int      // offset from the message start if every earlier field is fixed-size, else -1
	Bound    int      // CDR: most elements of a bounded sequence T[<=N], else 0
	StrBound int      // CDR: most bytes (wstring: characters) of a bounded string<=N, else 0
}

// IsBytes reports whether the field is a uint8 or char array, which is kept
// as raw bytes.
func (f *FieldPlan) IsBytes() bool { return f.Array && f.Kind == KindUint8 }

// maxFixedSize bounds the fixed size of a message type.
const maxFixedSize = 1 << 40

// Compile parses definition for type typ and compiles its decoding plan.
// A definition error (syntax, unknown or recursive type) is an *Error.
func Compile(typ, definition string) (*Plan, error) {
	d, err := ParseDefinition(typ, definition)
	if err != nil {
		return nil, err
	}
	return CompileDefinition(d)
}

// CompileDefinition compiles the plan of a parsed definition's top type.
func CompileDefinition(d *Definition) (*Plan, error) {
	c := compiler{d: d, plans: make(map[string]*MsgPlan), active: make(map[string]bool), md5s: make(map[string]string)}
	root, err := c.msg(d.Type)
	if err != nil {
		return nil, err
	}
	return &Plan{Type: d.Type, MD5: root.MD5, Definition: d, Root: root,
		SchemaEncoding: SchemaROS1Msg, MessageEncoding: EncodingROS1}, nil
}

type compiler struct {
	d      *Definition
	plans  map[string]*MsgPlan
	active map[string]bool
	md5s   map[string]string
}

func (c *compiler) msg(typ string) (*MsgPlan, error) {
	if p, ok := c.plans[typ]; ok {
		return p, nil
	}
	s, ok := c.d.Specs[typ]
	if !ok {
		return nil, defError(c.d.Type, "", ErrUnknownType, fmt.Sprintf("%s is not in the definition", typ))
	}
	if c.active[typ] {
		return nil, defError(c.d.Type, "", ErrRecursive, typ+" contains itself")
	}
	c.active[typ] = true
	defer delete(c.active, typ)
	p := &MsgPlan{Type: typ, Constants: s.Constants, Fields: make([]FieldPlan, len(s.Fields))}
	size, off := 0, 0
	for i, f := range s.Fields {
		fp := FieldPlan{Name: f.Name, Type: f.Type, ElemType: f.BaseType, Array: f.Array, Len: f.Len, Offset: off}
		if k, ok := builtinKinds[f.BaseType]; ok {
			fp.Kind = k
			fp.ElemSize = k.Size()
		} else {
			sub, err := c.msg(f.BaseType)
			if err != nil {
				err.(*Error).prefixField(f.Name)
				return nil, err
			}
			fp.Kind, fp.Msg, fp.ElemSize = KindMessage, sub, sub.Size
		}
		elemMin := fp.ElemSize
		if elemMin < 0 {
			elemMin = 4 // string length or a variable array count at least
			if fp.Msg != nil {
				elemMin = fp.Msg.MinSize
			}
		}
		switch {
		case !f.Array:
			fp.Size, fp.MinSize = fp.ElemSize, elemMin
		case f.Len < 0:
			fp.Size, fp.MinSize = -1, 4
		default:
			fp.MinSize = satMul(f.Len, elemMin)
			fp.Size = -1
			if fp.ElemSize >= 0 || f.Len == 0 {
				fp.Size = satMul(f.Len, fp.ElemSize)
			}
		}
		if fp.Size > maxFixedSize || fp.MinSize > maxFixedSize {
			return nil, defError(c.d.Type, f.Name, ErrSyntax, "fixed size too large")
		}
		p.MinSize += fp.MinSize
		if size >= 0 && fp.Size >= 0 {
			size += fp.Size
		} else {
			size = -1
		}
		if off >= 0 && fp.Size >= 0 {
			off += fp.Size
		} else {
			off = -1
		}
		if p.MinSize > maxFixedSize {
			return nil, defError(c.d.Type, f.Name, ErrSyntax, "fixed size too large")
		}
		p.Fields[i] = fp
	}
	p.Size = size
	sum, err := c.d.md5(typ, c.md5s, make(map[string]bool))
	if err != nil {
		return nil, err
	}
	p.MD5 = sum
	c.plans[typ] = p
	return p, nil
}

// satMul multiplies non-negative a and b, saturating above maxFixedSize.
func satMul(a, b int) int {
	if a == 0 || b == 0 {
		return 0
	}
	if a > (maxFixedSize+1)/b {
		return maxFixedSize + 1
	}
	return a * b
}

// CheckMD5 compares the plan's computed md5 sum with a connection's md5sum.
// A difference is returned as an *Error wrapping ErrMD5Mismatch; it is not
// fatal, the plan still decodes what the definition says. A connection md5sum
// of "*" (any type) matches. ROS 2 has no md5 sums: for a CDR plan CheckMD5
// always returns nil.
func (p *Plan) CheckMD5(md5sum string) error {
	if p.cdr || md5sum == "*" || strings.EqualFold(md5sum, p.MD5) {
		return nil
	}
	return &Error{Type: p.Type, Offset: -1, Err: ErrMD5Mismatch,
		Msg: fmt.Sprintf("connection has %s, definition gives %s", md5sum, p.MD5)}
}
