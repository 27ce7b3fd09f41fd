package rosmsg

import (
	"encoding/base64"
	"math"
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends the JSON form of a decoded message (the "msg" object of
// "bagscope cat --json") to b and returns the extended buffer. n is treated
// as the top-level message. The form is the one a Python oracle produces
// from genpy's deserialized message:
//
//   - fields in definition order; nested messages as objects, arrays as lists;
//   - integers as exact JSON numbers; bool as true/false;
//   - floats in Python repr form (float32 widened to float64 first, as
//     struct.unpack('f') does); NaN and infinities as the strings "NaN",
//     "Infinity" and "-Infinity";
//   - time and duration as {"secs": int, "nsecs": int}. Like genpy, which
//     calls canon() after deserializing, time and duration fields directly in
//     the top-level message are normalised so that 0 <= nsecs < 1e9 (carrying
//     into secs, with floor division); those in nested messages or arrays are
//     printed as stored;
//   - uint8 and char arrays (fixed or variable) as standard base64 strings;
//     byte (int8) arrays as lists of numbers, as genpy keeps them;
//   - strings decoded as UTF-8 with each invalid sequence replaced by U+FFFD,
//     as genpy's decode('utf-8', 'rosmsg') does.
//
// Nodes of a CDR plan take the same form: ROS 2 byte, char and IDL octet
// are uint8 (numbers; their arrays base64), wstring is a string, and
// builtin_interfaces/Time and Duration are ordinary messages
// {"sec": int, "nanosec": int}.
func AppendJSON(b []byte, n *Node) []byte {
	return appendJSON(b, n, true)
}

// MarshalJSON returns the JSON form of the node as AppendJSON writes it.
func (n *Node) MarshalJSON() ([]byte, error) {
	return AppendJSON(nil, n), nil
}

func appendJSON(b []byte, n *Node, top bool) []byte {
	if n.Array {
		return appendArrayJSON(b, n)
	}
	switch n.Kind {
	case KindMessage:
		b = append(b, '{')
		for i := range n.Children {
			c := &n.Children[i]
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendJSONString(b, c.Name)
			b = append(b, ": "...)
			if top && !c.Array && (c.Kind == KindTime || c.Kind == KindDuration) {
				b = appendCanonTime(b, c)
				continue
			}
			b = appendJSON(b, c, false)
		}
		return append(b, '}')
	case KindString, KindWString:
		return appendJSONString(b, n.str)
	}
	return appendScalarJSON(b, n.Kind, n.bits)
}

// appendScalarJSON appends a fixed-size scalar in node payload form.
func appendScalarJSON(b []byte, k Kind, bits uint64) []byte {
	switch k {
	case KindTime:
		return appendSecsNsecs(b, int64(uint32(bits)), int64(uint32(bits>>32)))
	case KindDuration:
		return appendSecsNsecs(b, int64(int32(uint32(bits))), int64(int32(uint32(bits>>32))))
	case KindFloat32:
		return appendPyFloat(b, float64(math.Float32frombits(uint32(bits))))
	case KindFloat64:
		return appendPyFloat(b, math.Float64frombits(bits))
	case KindBool:
		return strconv.AppendBool(b, bits != 0)
	case KindInt8, KindInt16, KindInt32, KindInt64:
		return strconv.AppendInt(b, int64(bits), 10)
	default:
		return strconv.AppendUint(b, bits, 10)
	}
}

func appendCanonTime(b []byte, n *Node) []byte {
	var secs, nsecs int64
	if n.Kind == KindTime {
		t := n.Time()
		secs, nsecs = int64(t.Sec), int64(t.Nsec)
	} else {
		d := n.Duration()
		secs, nsecs = int64(d.Sec), int64(d.Nsec)
	}
	over := nsecs / 1e9
	if nsecs%1e9 < 0 {
		over-- // floor division
	}
	return appendSecsNsecs(b, secs+over, nsecs-over*1e9)
}

func appendSecsNsecs(b []byte, secs, nsecs int64) []byte {
	b = append(b, `{"secs": `...)
	b = strconv.AppendInt(b, secs, 10)
	b = append(b, `, "nsecs": `...)
	b = strconv.AppendInt(b, nsecs, 10)
	return append(b, '}')
}

func appendArrayJSON(b []byte, n *Node) []byte {
	if bs, ok := n.slice.([]byte); ok {
		b = append(b, '"')
		b = base64.StdEncoding.AppendEncode(b, bs)
		return append(b, '"')
	}
	b = append(b, '[')
	if n.slice == nil {
		for i := range n.Children {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendJSON(b, &n.Children[i], false)
		}
		return append(b, ']')
	}
	for i, l := 0, n.Len(); i < l; i++ {
		if i > 0 {
			b = append(b, ", "...)
		}
		e, _ := n.Elem(i)
		b = appendScalarJSON(b, e.Kind, e.bits)
	}
	return append(b, ']')
}

// appendPyFloat appends f as Python's json.dumps writes repr(f), with NaN and
// infinities as the strings "NaN", "Infinity" and "-Infinity".
func appendPyFloat(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	}
	return AppendPyRepr(b, f)
}

// AppendPyRepr appends f as Python 3's repr (and str) writes it: the
// shortest digits that read back as f, in exponent form below 1e-4 and
// from 1e16 ("1e-05", "1e+16"), else with a point ("100.0"); "nan",
// "inf", "-inf".
func AppendPyRepr(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "nan"...)
	case math.IsInf(f, 1):
		return append(b, "inf"...)
	case math.IsInf(f, -1):
		return append(b, "-inf"...)
	case f == 0:
		if math.Signbit(f) {
			return append(b, "-0.0"...)
		}
		return append(b, "0.0"...)
	}
	var buf [32]byte
	s := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // [-]d[.ddd]e±dd
	if s[0] == '-' {
		b = append(b, '-')
		s = s[1:]
	}
	var digits [24]byte
	nd := 0
	i := 0
	for ; s[i] != 'e'; i++ {
		if s[i] != '.' {
			digits[nd] = s[i]
			nd++
		}
	}
	exp := 0 // s[i+1:] is e±dd or e±ddd
	for _, c := range s[i+2:] {
		exp = exp*10 + int(c-'0')
	}
	if s[i+1] == '-' {
		exp = -exp
	}
	d := digits[:nd]
	if exp < -4 || exp >= 16 {
		b = append(b, d[0])
		if nd > 1 {
			b = append(b, '.')
			b = append(b, d[1:]...)
		}
		b = append(b, 'e')
		if exp < 0 {
			b = append(b, '-')
			exp = -exp
		} else {
			b = append(b, '+')
		}
		if exp < 10 {
			b = append(b, '0')
		}
		return strconv.AppendInt(b, int64(exp), 10)
	}
	if exp < 0 {
		b = append(b, "0."...)
		for k := -1; k > exp; k-- {
			b = append(b, '0')
		}
		return append(b, d...)
	}
	// exp+1 digits before the point.
	if nd <= exp+1 {
		b = append(b, d...)
		for k := nd; k < exp+1; k++ {
			b = append(b, '0')
		}
		return append(b, ".0"...)
	}
	b = append(b, d[:exp+1]...)
	b = append(b, '.')
	return append(b, d[exp+1:]...)
}

const hexDigits = "0123456789abcdef"

// appendJSONString appends s as a JSON string. s is valid UTF-8 (Decode
// guarantees it); control characters are escaped.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			b = append(b, c)
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"':
			b = append(b, `\"`...)
		case '\\':
			b = append(b, `\\`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			b = append(b, `\u00`...)
			b = append(b, hexDigits[c>>4], hexDigits[c&0xf])
		}
		i++
	}
	return append(b, '"')
}
