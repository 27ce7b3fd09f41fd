package diff

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// compareNodes compares two decoded values field by field and returns the
// path of the first that differs, with both values as text.
func compareNodes(a, b *rosmsg.Node, path string, tol float64) (field, va, vb string, differ bool) {
	switch {
	case a.Kind == rosmsg.KindMessage && !a.Array && b.Kind == rosmsg.KindMessage && !b.Array:
		if len(a.Children) != len(b.Children) {
			return orRoot(path), fmt.Sprintf("%d fields", len(a.Children)), fmt.Sprintf("%d fields", len(b.Children)), true
		}
		for i := range a.Children {
			ca, cb := &a.Children[i], &b.Children[i]
			if ca.Name != cb.Name {
				return join(path, ca.Name), "field " + ca.Name, "field " + cb.Name, true
			}
			if f, x, y, d := compareNodes(ca, cb, join(path, ca.Name), tol); d {
				return f, x, y, true
			}
		}
		return "", "", "", false
	case a.Array && b.Array:
		if a.Len() != b.Len() {
			return path, fmt.Sprintf("%d elements", a.Len()), fmt.Sprintf("%d elements", b.Len()), true
		}
		if ba, bb := a.Bytes(), b.Bytes(); ba != nil || bb != nil {
			if i := firstDiff(ba, bb); i >= 0 || len(ba) != len(bb) {
				return fmt.Sprintf("%s[%d]", path, max(i, 0)), byteAt(ba, i), byteAt(bb, i), true
			}
			return "", "", "", false
		}
		for i := range a.Len() {
			ea, oka := a.Elem(i)
			eb, okb := b.Elem(i)
			if !oka || !okb {
				return fmt.Sprintf("%s[%d]", path, i), "", "", true
			}
			if f, x, y, d := compareNodes(&ea, &eb, fmt.Sprintf("%s[%d]", path, i), tol); d {
				return f, x, y, true
			}
		}
		return "", "", "", false
	case a.Array != b.Array || (a.Kind == rosmsg.KindMessage) != (b.Kind == rosmsg.KindMessage):
		return orRoot(path), a.Type, b.Type, true
	}
	if !scalarsEqual(a, b, tol) {
		return orRoot(path), scalarText(a), scalarText(b), true
	}
	return "", "", "", false
}

// scalarsEqual compares two scalar values: floats within tol, others
// exactly.
func scalarsEqual(a, b *rosmsg.Node, tol float64) bool {
	isFloat := func(k rosmsg.Kind) bool { return k == rosmsg.KindFloat32 || k == rosmsg.KindFloat64 }
	if isFloat(a.Kind) || isFloat(b.Kind) {
		x, oka := a.Float64()
		y, okb := b.Float64()
		if !oka || !okb {
			return false
		}
		return FloatsEqual(x, y, tol)
	}
	switch va := a.Value().(type) {
	case string:
		vb, ok := b.Value().(string)
		return ok && va == vb
	case []byte:
		vb, ok := b.Value().([]byte)
		return ok && bytes.Equal(va, vb)
	}
	x, oka := a.Float64()
	y, okb := b.Float64()
	if oka && okb && a.Kind != rosmsg.KindTime && a.Kind != rosmsg.KindDuration && b.Kind != rosmsg.KindTime && b.Kind != rosmsg.KindDuration {
		// Integers of any width and bool: exactly, by value.
		ia, ua := intValue(a)
		ib, ub := intValue(b)
		if ua && ub {
			return ia == ib
		}
		return x == y
	}
	return fmt.Sprint(a.Value()) == fmt.Sprint(b.Value())
}

// intValue returns an integer or bool node's value as text (exact for
// every width), and whether it is one.
func intValue(n *rosmsg.Node) (string, bool) {
	switch v := n.Value().(type) {
	case int64:
		return strconv.FormatInt(v, 10), true
	case uint64:
		return strconv.FormatUint(v, 10), true
	case bool:
		if v {
			return "1", true
		}
		return "0", true
	}
	return "", false
}

// FloatsEqual reports whether x and y are equal within tol, relative to
// their size when it is above 1: |x-y| <= tol*max(1, |x|, |y|). NaNs are
// equal to each other.
func FloatsEqual(x, y, tol float64) bool {
	if x == y || math.IsNaN(x) && math.IsNaN(y) {
		return true
	}
	if math.IsInf(x, 0) || math.IsInf(y, 0) || math.IsNaN(x) || math.IsNaN(y) {
		return false
	}
	return math.Abs(x-y) <= tol*max(1, math.Abs(x), math.Abs(y))
}

func scalarText(n *rosmsg.Node) string {
	switch v := n.Value().(type) {
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case string:
		return strconv.Quote(v)
	}
	return fmt.Sprint(n.Value())
}

func byteAt(b []byte, i int) string {
	if i < 0 || i >= len(b) {
		return fmt.Sprintf("%d bytes", len(b))
	}
	return strconv.Itoa(int(b[i]))
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func orRoot(path string) string {
	if path == "" {
		return "(message)"
	}
	return path
}
