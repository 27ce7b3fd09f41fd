package expr

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

type vkind uint8

const (
	vNone  vkind = iota // no value: a field the message lacks
	vBool               // i is 0 or 1
	vInt                // i
	vFloat              // f
	vStr                // s (may alias the message data)
)

// val is a value during evaluation.
type val struct {
	k vkind
	// tm marks a time (1) or duration (2) read from a field: f holds its
	// seconds, i its exact nanoseconds, for the values a match reports.
	tm uint8
	i  int64 // vBool, vInt; a time's nanoseconds (vFloat with tm set)
	f  float64
	s  []byte
}

func (v val) float() float64 {
	if v.k == vFloat {
		return v.f
	}
	return float64(v.i)
}

func boolVal(b bool) val {
	if b {
		return val{k: vBool, i: 1}
	}
	return val{k: vBool}
}

func (v val) isTrue() bool { return v.k == vBool && v.i != 0 }

// compare returns -1, 0 or 1, and false when the values do not compare
// (a NaN, or no value).
func compare(a, b val) (int, bool) { return comparePtr(&a, &b) }

// comparePtr is compare without copying the values.
func comparePtr(a, b *val) (int, bool) {
	if a.k == vFloat && b.k == vFloat {
		// The usual case (a float field against a literal) first.
		return cmpFloat(a.f, b.f)
	}
	switch {
	case a.k == vNone || b.k == vNone:
		return 0, false
	case a.k == vStr:
		return bytes.Compare(a.s, b.s), true
	case a.k == vInt && b.k == vInt:
		switch {
		case a.i < b.i:
			return -1, true
		case a.i > b.i:
			return 1, true
		}
		return 0, true
	case a.k == vBool:
		return int(a.i - b.i), true
	case a.k == vInt:
		c, ok := cmpIntFloat(a.i, b.f)
		return c, ok
	case b.k == vInt:
		c, ok := cmpIntFloat(b.i, a.f)
		return -c, ok
	}
	return cmpFloat(a.float(), b.float())
}

// cmpFloat orders two floats; ok is false when either is NaN.
func cmpFloat(x, y float64) (int, bool) {
	switch {
	case x < y:
		return -1, true
	case x > y:
		return 1, true
	case x == y:
		return 0, true
	}
	return 0, false
}

// ValueKind is the type of a Value.
type ValueKind uint8

// Value kinds. Time and Duration hold nanoseconds in Int (since the
// epoch for a time) and seconds in Float.
const (
	Bool ValueKind = iota + 1
	Int
	Float
	String
	Time
	Duration
)

// Value is one term's value in the message a program last matched: a
// field as the expression names it, with [*] and ranges made concrete
// ("position[3]"), or a time term ("@log").
type Value struct {
	Name  string
	Kind  ValueKind
	Int   int64 // Int, and Bool as 0 or 1
	Float float64
	Str   string
}

func (v val) export(name string) Value {
	switch v.k {
	case vBool:
		return Value{Name: name, Kind: Bool, Int: v.i}
	case vInt:
		return Value{Name: name, Kind: Int, Int: v.i}
	case vFloat:
		switch v.tm {
		case 1:
			return Value{Name: name, Kind: Time, Int: v.i, Float: v.f}
		case 2:
			return Value{Name: name, Kind: Duration, Int: v.i, Float: v.f}
		}
		return Value{Name: name, Kind: Float, Float: v.f}
	case vStr:
		return Value{Name: name, Kind: String, Str: string(v.s)}
	}
	return Value{Name: name}
}

// Number returns the value as a float64 (a bool as 0 or 1); ok is false
// for a string.
func (v Value) Number() (float64, bool) {
	switch v.Kind {
	case Bool, Int:
		return float64(v.Int), true
	case Float, Time, Duration:
		return v.Float, true
	}
	return 0, false
}

// secsNsecs splits nanoseconds into seconds and nanoseconds in [0, 1e9).
func secsNsecs(ns int64) (int64, int64) {
	s, n := ns/1e9, ns%1e9
	if n < 0 {
		s, n = s-1, n+1e9
	}
	return s, n
}

// String writes the value as text: a number in Go's shortest form, a
// string quoted.
func (v Value) String() string { return string(v.AppendText(nil)) }

// AppendText appends the value as String writes it.
func (v Value) AppendText(b []byte) []byte {
	switch v.Kind {
	case Bool:
		return strconv.AppendBool(b, v.Int != 0)
	case Int:
		return strconv.AppendInt(b, v.Int, 10)
	case Float:
		return strconv.AppendFloat(b, v.Float, 'g', -1, 64)
	case String:
		return strconv.AppendQuote(b, v.Str)
	case Time, Duration:
		sec, nsec := secsNsecs(v.Int)
		b = strconv.AppendInt(b, sec, 10)
		b = append(b, '.')
		var d [9]byte // nsec as nine digits, without fmt's allocation
		for i, n := 8, nsec; i >= 0; i-- {
			d[i] = byte('0' + n%10)
			n /= 10
		}
		return append(b, d[:]...)
	}
	return append(b, "none"...)
}

// AppendJSON appends the value as JSON, as bagscope cat --json writes
// values: floats as Python writes them (NaN and the infinities as the
// strings "NaN", "Infinity", "-Infinity"), times and durations as
// {"secs": S, "nsecs": N} with N in [0, 1e9).
func (v Value) AppendJSON(b []byte) []byte {
	switch v.Kind {
	case Bool:
		return strconv.AppendBool(b, v.Int != 0)
	case Int:
		return strconv.AppendInt(b, v.Int, 10)
	case Float:
		return rosmsg.AppendJSONFloat(b, v.Float)
	case String:
		return rosmsg.AppendJSONString(b, rosmsg.DecodeText([]byte(v.Str)))
	case Time, Duration:
		sec, nsec := secsNsecs(v.Int)
		return fmt.Appendf(b, `{"secs": %d, "nsecs": %d}`, sec, nsec)
	}
	return append(b, "null"...)
}

// cmpIntFloat compares an int64 with a float64 exactly.
func cmpIntFloat(i int64, f float64) (int, bool) {
	switch {
	case math.IsNaN(f):
		return 0, false
	case f >= 1<<63:
		return -1, true
	case f < -(1 << 63):
		return 1, true
	}
	t := int64(f) // |f| < 2^63: exact but for the fraction
	switch {
	case i < t:
		return -1, true
	case i > t:
		return 1, true
	}
	frac := f - float64(t)
	switch {
	case frac > 0:
		return -1, true
	case frac < 0:
		return 1, true
	}
	return 0, true
}
