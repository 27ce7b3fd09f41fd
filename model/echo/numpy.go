package echo

import (
	"math"
	"strconv"
	"strings"
	"unicode"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// numpy's print options that str(ndarray) follows by default.
const (
	numpyLineWidth = 75
	numpyThreshold = 1000
	numpyEdgeItems = 3
	numpyPrecision = 8
)

// numpyStr is str() of the one-dimensional numpy array rclpy gives for a
// fixed array of numbers: numpy's array2string with its default options
// (legacy off): integers right-aligned to one width; floats by
// FloatingFormat in 'maxprec' mode (the shortest digits that read back,
// at most 8 after the point, positional unless a value is 1e8 or more,
// or the smallest nonzero below 1e-4, or the largest over 1000 times the
// smallest), padded to one width; lines wrapped at 75 columns; more than
// 1000 elements shown as the first and last 3 around "...".
func numpyStr(n *rosmsg.Node) string {
	cnt := n.Len()
	idx := make([]int, 0, cnt)
	summary := cnt > numpyThreshold
	if summary {
		for i := range numpyEdgeItems {
			idx = append(idx, i)
		}
		for i := cnt - numpyEdgeItems; i < cnt; i++ {
			idx = append(idx, i)
		}
	} else {
		for i := range cnt {
			idx = append(idx, i)
		}
	}
	elems := make([]rosmsg.Node, len(idx))
	for k, i := range idx {
		elems[k], _ = n.Elem(i)
	}
	var words []string
	if n.Kind == rosmsg.KindFloat32 || n.Kind == rosmsg.KindFloat64 {
		words = numpyFloats(elems, n.Kind == rosmsg.KindFloat32)
	} else {
		words = make([]string, len(elems))
		width := 0
		for k := range elems {
			words[k] = PyScalar(&elems[k])
			width = max(width, len(words[k]))
		}
		for k, w := range words {
			words[k] = strings.Repeat(" ", width-len(w)) + w
		}
	}
	if summary {
		words = append(words[:numpyEdgeItems], append([]string{"..."}, words[numpyEdgeItems:]...)...)
	}
	// _formatArray: a hanging indent of one space stands for the "[", each
	// element but the last is followed by the separator, and a line that
	// would pass the width less the "]" breaks unless it holds nothing yet.
	const hanging = " "
	elemWidth := numpyLineWidth - 1
	var s strings.Builder
	line := hanging
	for k, w := range words {
		if len(line)+len(w) > elemWidth && len(line) > len(hanging) {
			s.WriteString(strings.TrimRight(line, " ") + "\n")
			line = hanging
		}
		line += w
		if k < len(words)-1 {
			line += " "
		}
	}
	s.WriteString(line)
	return "[" + s.String()[len(hanging):] + "]"
}

// numpyFloats formats floats as numpy's FloatingFormat does for one array
// (float32 elements with float32's shortest digits).
func numpyFloats(elems []rosmsg.Node, f32 bool) []string {
	bits := 64
	if f32 {
		bits = 32
	}
	vals := make([]float64, len(elems))
	var finite []float64
	for k := range elems {
		vals[k] = elems[k].Float()
		if !math.IsNaN(vals[k]) && !math.IsInf(vals[k], 0) {
			finite = append(finite, vals[k])
		}
	}
	expFormat := false
	minAbs, maxAbs := math.Inf(1), 0.0
	for _, v := range finite {
		if a := math.Abs(v); a != 0 {
			minAbs, maxAbs = min(minAbs, a), max(maxAbs, a)
		}
	}
	if maxAbs > 0 && (maxAbs >= 1e8 || minAbs < 0.0001 || maxAbs/minAbs > 1000) {
		expFormat = true
	}
	padLeft, padRight, precision, expSize := 0, 0, 0, -1
	switch {
	case len(finite) == 0:
	case expFormat:
		for _, v := range finite {
			mant, exp := dragonScientific(v, bits)
			intPart, frac, _ := strings.Cut(mant, ".")
			padLeft = max(padLeft, len(intPart))
			precision = max(precision, len(frac))
			expSize = max(expSize, len(exp)-1)
		}
		padRight = expSize + 2 + precision
	default:
		for _, v := range finite {
			intPart, frac, _ := strings.Cut(dragonPositional(v, bits), ".")
			padLeft = max(padLeft, len(intPart))
			padRight = max(padRight, len(frac))
		}
	}
	if len(finite) < len(vals) {
		neginf := 0
		for _, v := range vals {
			if math.IsInf(v, -1) {
				neginf = 1
			}
		}
		offset := padRight + 1
		padLeft = max(padLeft, 3-offset, 3+neginf-offset)
	}
	out := make([]string, len(vals))
	for k, v := range vals {
		var w string
		switch {
		case math.IsNaN(v):
			w = "nan"
		case math.IsInf(v, 1):
			w = "inf"
		case math.IsInf(v, -1):
			w = "-inf"
		}
		if w != "" {
			out[k] = strings.Repeat(" ", max(0, padLeft+padRight+1-len(w))) + w
			continue
		}
		if expFormat {
			// Every mantissa gets the most digits any needs (min_digits),
			// and with unique=True those past its own shortest ones are
			// the exact value's digits, not zeros: 4.94065646e-324.
			mant, exp, _ := strings.Cut(strconv.FormatFloat(v, 'e', precision, 64), "e")
			intPart, frac, _ := strings.Cut(mant, ".")
			sign, digits := exp[:1], exp[1:]
			digits = strings.Repeat("0", max(0, expSize-len(digits))) + digits
			out[k] = strings.Repeat(" ", padLeft-len(intPart)) + intPart + "." + frac + "e" + sign + digits
			continue
		}
		intPart, frac, _ := strings.Cut(dragonPositional(v, bits), ".")
		out[k] = strings.Repeat(" ", padLeft-len(intPart)) + intPart + "." + frac + strings.Repeat(" ", padRight-len(frac))
	}
	return out
}

// dragonPositional is numpy's dragon4_positional(v, precision=8,
// unique=True, fractional=True, trim='.'): the shortest digits that read
// back (at the float's own size), rounded to 8 after the point when there
// are more, trailing zeros dropped, the point kept ("0.", "1.5").
func dragonPositional(v float64, bits int) string {
	s := strconv.FormatFloat(v, 'f', -1, bits)
	if _, frac, _ := strings.Cut(s, "."); len(frac) > numpyPrecision {
		s = strconv.FormatFloat(v, 'f', numpyPrecision, 64)
	}
	if strings.Contains(s, ".") {
		s = strings.TrimRight(s, "0")
	} else {
		s += "."
	}
	return s
}

// dragonScientific is numpy's dragon4_scientific(v, precision=8,
// unique=True, trim='.'), split into its mantissa ("1.", "1.5") and its
// exponent with sign and at least two digits ("-05").
func dragonScientific(v float64, bits int) (mant, exp string) {
	s := strconv.FormatFloat(v, 'e', -1, bits)
	if m, _, _ := strings.Cut(s, "e"); len(m) > 0 {
		if _, frac, _ := strings.Cut(m, "."); len(frac) > numpyPrecision {
			s = strconv.FormatFloat(v, 'e', numpyPrecision, 64)
		}
	}
	mant, exp, _ = strings.Cut(s, "e")
	if strings.Contains(mant, ".") {
		mant = strings.TrimRight(mant, "0")
	} else {
		mant += "."
	}
	return mant, exp
}

// pyPrintable is Python's str.isprintable for one character: letters,
// marks, numbers, punctuation, symbols and the ASCII space.
func pyPrintable(r rune) bool { return unicode.IsPrint(r) }
