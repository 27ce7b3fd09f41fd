package plot

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Expr is a series as typed in a plot's entry: a field path (a leaf, which
// the caller extracts), or a function of other expressions:
//
//	deriv(E)          the derivative of E per second (Derivative)
//	integ(E)          the running integral of E over seconds (Integral)
//	diff(A, B)        A − B, B taken at A's times (Difference)
//	scale(E, k[, c])  k·E + c (ScaleOffset)
//	offset(E, c)      E + c
//	avg(E, n)         the moving average of E over n samples (MovingAverage)
//
// Functions nest: deriv(avg(/odom.twist.twist.linear.x, 5)).
type Expr struct {
	// Path is a leaf's field path; empty for a function.
	Path string
	// Pos is the byte offset in the parsed text where e begins (its path,
	// or its function's name), for errors that point at it.
	Pos int
	// Func is the function's name; Args its series and Nums its numbers.
	Func string
	Args []*Expr
	Nums []float64
}

// exprFuncs describes the functions: how many series and how many numbers
// (at least, at most) each takes.
var exprFuncs = map[string]struct {
	series         int
	minNum, maxNum int
	help           string
}{
	"deriv":  {1, 0, 0, "deriv(PATH)"},
	"integ":  {1, 0, 0, "integ(PATH)"},
	"diff":   {2, 0, 0, "diff(PATH, PATH)"},
	"scale":  {1, 1, 2, "scale(PATH, FACTOR[, OFFSET])"},
	"offset": {1, 1, 1, "offset(PATH, OFFSET)"},
	"avg":    {1, 1, 1, "avg(PATH, SAMPLES)"},
}

// exprAliases are longer names accepted for the functions.
var exprAliases = map[string]string{
	"derivative": "deriv", "integral": "integ", "difference": "diff",
	"sub": "diff", "movavg": "avg", "mean": "avg",
}

// ExprHelp lists the functions' forms, for hints and error messages.
const ExprHelp = "deriv(P), integ(P), diff(P, Q), scale(P, k[, c]), offset(P, c), avg(P, n)"

// SyntaxError is a mistake in an expression and where it is.
type SyntaxError struct {
	// Offset is the byte offset in the parsed text of what is wrong.
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return e.Msg }

// Column returns the 1-based column of the error in text, the string that
// was parsed, counting characters rather than bytes.
func (e *SyntaxError) Column(text string) int {
	return utf8.RuneCountInString(text[:min(max(e.Offset, 0), len(text))]) + 1
}

// ParseExpr reads an expression. Anything that does not start with a
// function name and "(" is a leaf path, returned as is (trimmed). Its
// errors are *SyntaxError.
func ParseExpr(s string) (*Expr, error) {
	p := exprParser{s: s}
	e, err := p.expr()
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(p.s) {
		return nil, p.errorf(p.i, "unexpected %q after %s", p.s[p.i:], e)
	}
	return e, nil
}

// SplitXY splits "X vs Y" (an XY plot of Y against X) at its top-level
// " vs "; ok is false when s has none.
func SplitXY(s string) (x, y string, ok bool) {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ' ':
			if depth == 0 && strings.HasPrefix(s[i:], " vs ") {
				return strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+4:]), true
			}
		}
	}
	return "", "", false
}

type exprParser struct {
	s string
	i int
}

// errorf returns a SyntaxError at byte offset off.
func (p *exprParser) errorf(off int, format string, args ...any) error {
	return &SyntaxError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func (p *exprParser) space() {
	for p.i < len(p.s) && strings.IndexByte(" \t\n\r\f\v", p.s[p.i]) >= 0 {
		p.i++
	}
}

// expr reads a function call or a leaf path.
func (p *exprParser) expr() (*Expr, error) {
	p.space()
	start := p.i
	j := p.i
	for j < len(p.s) && (p.s[j] >= 'a' && p.s[j] <= 'z' || p.s[j] >= 'A' && p.s[j] <= 'Z') {
		j++
	}
	k := j
	for k < len(p.s) && p.s[k] == ' ' {
		k++
	}
	if j > start && k < len(p.s) && p.s[k] == '(' {
		name := strings.ToLower(p.s[start:j])
		if a, ok := exprAliases[name]; ok {
			name = a
		}
		spec, ok := exprFuncs[name]
		if !ok {
			return nil, p.errorf(start, "unknown function %q: want one of %s", p.s[start:j], ExprHelp)
		}
		p.i = k + 1
		e := &Expr{Func: name, Pos: start}
		var numAt []int // where each number starts
		for n := 0; ; n++ {
			p.space()
			if n == 0 && p.i < len(p.s) && p.s[p.i] == ')' {
				break
			}
			if n < spec.series {
				a, err := p.expr()
				if err != nil {
					return nil, err
				}
				e.Args = append(e.Args, a)
			} else {
				p.space()
				at := p.i
				v, err := p.number()
				if err != nil {
					return nil, p.errorf(at, "%s: %v", spec.help, err)
				}
				e.Nums = append(e.Nums, v)
				numAt = append(numAt, at)
			}
			p.space()
			if p.i < len(p.s) && p.s[p.i] == ',' {
				p.i++
				continue
			}
			break
		}
		if p.i >= len(p.s) || p.s[p.i] != ')' {
			return nil, p.errorf(p.i, "%s: missing ) or too many arguments", spec.help)
		}
		p.i++
		if len(e.Args) != spec.series || len(e.Nums) < spec.minNum || len(e.Nums) > spec.maxNum {
			return nil, p.errorf(start, "wrong arguments: want %s", spec.help)
		}
		if name == "avg" && (e.Nums[0] < 1 || e.Nums[0] != float64(int(e.Nums[0]))) {
			return nil, p.errorf(numAt[0], "avg: the number of samples must be a whole number of at least 1, not %v", e.Nums[0])
		}
		return e, nil
	}
	// A leaf runs to a top-level "," or ")".
	depth := 0
	for p.i < len(p.s) {
		c := p.s[p.i]
		if depth == 0 && (c == ',' || c == ')') {
			break
		}
		switch c {
		case '[':
			depth++
		case ']':
			depth--
		}
		p.i++
	}
	path := strings.TrimSpace(p.s[start:p.i])
	if path == "" {
		return nil, p.errorf(start, "a field path is missing at %q", p.s[start:])
	}
	if i := strings.IndexByte(path, '('); i >= 0 {
		return nil, p.errorf(start+i, "unexpected ( in %q: a function is a name and (, as in deriv(PATH)", path)
	}
	return &Expr{Path: path, Pos: start}, nil
}

// number reads a number argument.
func (p *exprParser) number() (float64, error) {
	start := p.i
	for p.i < len(p.s) && p.s[p.i] != ',' && p.s[p.i] != ')' {
		p.i++
	}
	text := strings.TrimSpace(p.s[start:p.i])
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || !finite(v) {
		return 0, fmt.Errorf("%q is not a number", text)
	}
	return v, nil
}

// IsLeaf reports whether e is a bare field path.
func (e *Expr) IsLeaf() bool { return e.Func == "" }

// Paths returns the field paths e reads, each once, in order.
func (e *Expr) Paths() []string {
	var out []string
	var walk func(*Expr)
	walk = func(x *Expr) {
		if x.IsLeaf() {
			for _, p := range out {
				if p == x.Path {
					return
				}
			}
			out = append(out, x.Path)
			return
		}
		for _, a := range x.Args {
			walk(a)
		}
	}
	walk(e)
	return out
}

// Walk calls f on every leaf of e (none when e is nil).
func (e *Expr) Walk(f func(leaf *Expr)) {
	if e == nil {
		return
	}
	if e.IsLeaf() {
		f(e)
		return
	}
	for _, a := range e.Args {
		a.Walk(f)
	}
}

// String writes e back in canonical form, the series' name.
func (e *Expr) String() string {
	if e.IsLeaf() {
		return e.Path
	}
	parts := make([]string, 0, len(e.Args)+len(e.Nums))
	for _, a := range e.Args {
		parts = append(parts, a.String())
	}
	for _, v := range e.Nums {
		parts = append(parts, strconv.FormatFloat(v, 'g', -1, 64))
	}
	return e.Func + "(" + strings.Join(parts, ", ") + ")"
}

// Eval computes e from the series of its leaves, which leaf returns (ok
// false when a path has no series). The result is named e.String().
func (e *Expr) Eval(leaf func(path string) (Series, bool)) (Series, error) {
	s, err := e.eval(leaf)
	if err != nil {
		return Series{}, err
	}
	s.Name = e.String()
	return s, nil
}

func (e *Expr) eval(leaf func(path string) (Series, bool)) (Series, error) {
	if e.IsLeaf() {
		s, ok := leaf(e.Path)
		if !ok {
			return Series{}, fmt.Errorf("no series for %s", e.Path)
		}
		return s.Plain(), nil
	}
	args := make([]Series, len(e.Args))
	for i, a := range e.Args {
		s, err := a.eval(leaf)
		if err != nil {
			return Series{}, err
		}
		args[i] = s
	}
	switch e.Func {
	case "deriv":
		return Derivative(args[0]), nil
	case "integ":
		return Integral(args[0]), nil
	case "diff":
		return Difference(args[0], args[1]), nil
	case "scale":
		c := 0.0
		if len(e.Nums) > 1 {
			c = e.Nums[1]
		}
		return ScaleOffset(args[0], e.Nums[0], c), nil
	case "offset":
		return ScaleOffset(args[0], 1, e.Nums[0]), nil
	case "avg":
		return MovingAverage(args[0], int(e.Nums[0])), nil
	}
	return Series{}, fmt.Errorf("unknown function %q", e.Func)
}
