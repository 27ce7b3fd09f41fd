package expr

import (
	"bytes"
	"math"
	"regexp"
)

// node is a compiled expression.
type node interface {
	eval(s *State) val
}

type constNode struct{ v val }

func (n *constNode) eval(*State) val { return n.v }

// termNode reads a field path and records its value as term id.
type termNode struct {
	id int
	w  *walk
	// fast, when not 0, is 1 + the index of the rosmsg.Path in the
	// program's fast set that reads the walk's number or bool by its ops;
	// where it cannot (the data ends before the field, an index beyond
	// its array), the walk is run for the error or the absence.
	fast int
}

func (n *termNode) eval(s *State) val {
	if n.fast != 0 {
		if bits, ok := s.fastBits(n.fast - 1); ok {
			s.recordBits(n.id, n.w.leaf.vk, bits)
			return scalarVal(n.w.leaf.vk, bits)
		}
	}
	off, st := s.locate(n.w)
	if st != stOK {
		return val{}
	}
	v := s.readLeaf(&n.w.leaf, off, n.id)
	s.record(n.id, v)
	return v
}

// timeNode reads a time term of the input.
type timeNode struct {
	id   int
	what string
}

func (n *timeNode) eval(s *State) val {
	in := s.in
	var v val
	switch n.what {
	case "@log":
		v = val{k: vFloat, f: nanosSeconds(in.Log), i: in.Log, tm: 1}
	case "@publish":
		p := in.Publish
		if p == 0 {
			p = in.Log
		}
		v = val{k: vFloat, f: nanosSeconds(p), i: p, tm: 1}
	case "@t":
		v = val{k: vFloat, f: nanosSeconds(in.Log - in.Start), i: in.Log - in.Start, tm: 2}
	case "@clock":
		if in.HasClock {
			v = val{k: vFloat, f: nanosSeconds(in.Clock), i: in.Clock, tm: 1}
		}
	case "@topic":
		v = val{k: vStr, s: s.topicBytes()}
	case "@type":
		v = val{k: vStr, s: s.typeBytes()}
	}
	s.record(n.id, v)
	return v
}

// nanosSeconds converts nanoseconds since the epoch to seconds.
func nanosSeconds(ns int64) float64 {
	return float64(ns/1e9) + float64(ns%1e9)/1e9
}

// tri is a condition's value without the val around it: true, false or
// unknown (no value: a field the message lacks).
type tri uint8

const (
	tUnknown tri = iota
	tFalse
	tTrue
)

// tester is a node that decides a condition without making a val: the
// conditions that join conditions (&&, ||, !) and comparisons. Their
// test(s) is eval(s) as a tri, with the same terms recorded.
type tester interface {
	test(s *State) tri
}

// triOf is v as a condition.
func triOf(v val) tri {
	if v.k != vBool {
		return tUnknown
	}
	if v.i != 0 {
		return tTrue
	}
	return tFalse
}

func (t tri) val() val {
	switch t {
	case tTrue:
		return boolVal(true)
	case tFalse:
		return boolVal(false)
	}
	return val{}
}

// evalTester tests a node that is not a tester by its eval.
type evalTester struct{ n node }

func (e evalTester) test(s *State) tri { return triOf(e.n.eval(s)) }

// testerOf returns n's tester.
func testerOf(n node) tester {
	if t, ok := n.(tester); ok {
		return t
	}
	return evalTester{n}
}

type notNode struct {
	x  node
	xt tester
}

func (n *notNode) eval(s *State) val { return n.test(s).val() }

func (n *notNode) test(s *State) tri {
	switch n.xt.test(s) {
	case tTrue:
		return tFalse
	case tFalse:
		return tTrue
	}
	return tUnknown
}

type negNode struct{ x node }

func (n *negNode) eval(s *State) val {
	v := n.x.eval(s)
	switch v.k {
	case vInt:
		return val{k: vInt, i: -v.i}
	case vFloat:
		return val{k: vFloat, f: -v.f}
	}
	return val{}
}

// andNode and orNode decide on what is known: false && unknown is false,
// true || unknown is true.
type andNode struct {
	l, r   node
	lt, rt tester
}

func (n *andNode) eval(s *State) val { return n.test(s).val() }

func (n *andNode) test(s *State) tri {
	a := n.lt.test(s)
	if a == tFalse {
		return a
	}
	b := n.rt.test(s)
	switch {
	case b == tFalse:
		return b
	case a == tUnknown || b == tUnknown:
		return tUnknown
	}
	return tTrue
}

type orNode struct {
	l, r   node
	lt, rt tester
}

func (n *orNode) eval(s *State) val { return n.test(s).val() }

func (n *orNode) test(s *State) tri {
	a := n.lt.test(s)
	if a == tTrue {
		return a
	}
	b := n.rt.test(s)
	switch {
	case b == tTrue:
		return b
	case a == tUnknown || b == tUnknown:
		return tUnknown
	}
	return tFalse
}

type cmpNode struct {
	op   cmpOp
	l, r node
	// rc is r's value when r is a literal, read without a call.
	rc *val
	// lt is l when it is a term: its fast path is read here, without a
	// call.
	lt *termNode
}

// cmpOp is a comparison operator.
type cmpOp uint8

const (
	opEq cmpOp = iota
	opNe
	opLt
	opLe
	opGt
	opGe
)

var cmpOpOf = map[string]cmpOp{"==": opEq, "!=": opNe, "<": opLt, "<=": opLe, ">": opGt, ">=": opGe}

// newCmp returns the comparison op (one of cmpOpOf) of l and r.
func newCmp(op string, l, r node) *cmpNode {
	n := &cmpNode{op: cmpOpOf[op], l: l, r: r}
	if c, ok := r.(*constNode); ok {
		n.rc = &c.v
	}
	n.lt, _ = l.(*termNode)
	return n
}

func (n *cmpNode) eval(s *State) val { return n.test(s).val() }

func (n *cmpNode) test(s *State) tri {
	var a val
	if t := n.lt; t != nil && t.fast != 0 {
		// termNode.eval, inline.
		if bits, ok := s.fastBits(t.fast - 1); ok {
			a = scalarVal(t.w.leaf.vk, bits)
			s.recordBits(t.id, t.w.leaf.vk, bits)
		} else {
			a = t.eval(s)
		}
	} else {
		a = n.l.eval(s)
	}
	var c int
	var ok bool
	var bk vkind
	if n.rc != nil {
		c, ok = comparePtr(&a, n.rc)
		bk = n.rc.k
	} else {
		b := n.r.eval(s)
		c, ok = comparePtr(&a, &b)
		bk = b.k
	}
	if !ok {
		if a.k != vNone && bk != vNone && n.op == opNe {
			return tTrue // NaN != x
		}
		if a.k != vNone && bk != vNone {
			return tFalse // NaN compares false
		}
		return tUnknown
	}
	switch n.op {
	case opEq:
		return triBool(c == 0)
	case opNe:
		return triBool(c != 0)
	case opLt:
		return triBool(c < 0)
	case opLe:
		return triBool(c <= 0)
	case opGt:
		return triBool(c > 0)
	}
	return triBool(c >= 0)
}

// triBool is b as a tri.
func triBool(b bool) tri {
	if b {
		return tTrue
	}
	return tFalse
}

type arithNode struct {
	op   byte
	l, r node
}

func (n *arithNode) eval(s *State) val {
	a, b := n.l.eval(s), n.r.eval(s)
	if a.k == vNone || b.k == vNone {
		return val{}
	}
	if a.k == vInt && b.k == vInt && n.op != '/' {
		x, y := a.i, b.i
		switch n.op {
		case '+':
			if r := x + y; (r > x) == (y > 0) {
				return val{k: vInt, i: r}
			}
		case '-':
			if r := x - y; (r < x) == (y > 0) {
				return val{k: vInt, i: r}
			}
		case '*':
			if x == 0 || y == 0 {
				return val{k: vInt}
			}
			if r := x * y; r/y == x && !(x == -1 && y == math.MinInt64) && !(y == -1 && x == math.MinInt64) {
				return val{k: vInt, i: r}
			}
		case '%':
			if y == 0 {
				return val{}
			}
			if y == -1 {
				return val{k: vInt}
			}
			return val{k: vInt, i: x % y}
		}
		// Overflow: carry on in floating point.
	}
	x, y := a.float(), b.float()
	switch n.op {
	case '+':
		return val{k: vFloat, f: x + y}
	case '-':
		return val{k: vFloat, f: x - y}
	case '*':
		return val{k: vFloat, f: x * y}
	case '/':
		return val{k: vFloat, f: x / y}
	}
	return val{k: vFloat, f: math.Mod(x, y)}
}

type regexNode struct {
	x   node
	re  *regexp.Regexp
	not bool
}

func (n *regexNode) eval(s *State) val {
	v := n.x.eval(s)
	if v.k != vStr {
		return val{}
	}
	return boolVal(n.re.Match(v.s) != n.not)
}

type strFunc uint8

const (
	fContains strFunc = iota
	fStartsWith
	fEndsWith
)

type strFuncNode struct {
	fn   strFunc
	l, r node
}

func (n *strFuncNode) eval(s *State) val {
	a, b := n.l.eval(s), n.r.eval(s)
	if a.k != vStr || b.k != vStr {
		return val{}
	}
	switch n.fn {
	case fContains:
		return boolVal(bytes.Contains(a.s, b.s))
	case fStartsWith:
		return boolVal(bytes.HasPrefix(a.s, b.s))
	}
	return boolVal(bytes.HasSuffix(a.s, b.s))
}

type absNode struct{ x node }

func (n *absNode) eval(s *State) val {
	v := n.x.eval(s)
	switch {
	case v.k == vInt && v.i != math.MinInt64:
		if v.i < 0 {
			v.i = -v.i
		}
		return v
	case v.k == vInt:
		return val{k: vFloat, f: -float64(v.i)}
	case v.k == vFloat:
		return val{k: vFloat, f: math.Abs(v.f)}
	}
	return val{}
}

type strLenNode struct{ x node }

func (n *strLenNode) eval(s *State) val {
	v := n.x.eval(s)
	if v.k != vStr {
		return val{}
	}
	return val{k: vInt, i: int64(len(v.s))}
}

// minMaxNode is min or max of several numbers.
type minMaxNode struct {
	max  bool
	args []node
}

func (n *minMaxNode) eval(s *State) val {
	var best val
	for _, a := range n.args {
		v := a.eval(s)
		if v.k == vNone {
			return val{}
		}
		if best.k == vNone {
			best = v
			continue
		}
		c, ok := compare(v, best)
		if !ok {
			return val{k: vFloat, f: math.NaN()}
		}
		if n.max && c > 0 || !n.max && c < 0 {
			best = v
		}
	}
	return best
}

// hypotNode is the Euclidean norm of several numbers.
type hypotNode struct{ args []node }

func (n *hypotNode) eval(s *State) val {
	sum := 0.0
	for _, a := range n.args {
		v := a.eval(s)
		if v.k != vInt && v.k != vFloat {
			return val{}
		}
		f := v.float()
		sum += f * f
	}
	return val{k: vFloat, f: math.Sqrt(sum)}
}

// msgNormNode is the norm of a message's number fields (a Vector3's x, y
// and z).
type msgNormNode struct {
	w      *walk
	fields []int // the message's number fields
	// fast, when set, holds 1 + the index in the program's fast set of
	// each field's path (see termNode); where one cannot read, the walk
	// runs.
	fast []int
}

func (n *msgNormNode) eval(s *State) val {
	if n.fast != nil {
		sum, ok := 0.0, true
		m := n.w.leaf.msg
		for i, id := range n.fast {
			bits, rok := s.fastBits(id - 1)
			if !rok {
				ok = false
				break
			}
			x := scalarVal(m.Fields[n.fields[i]].Kind, bits).float()
			sum += x * x
		}
		if ok {
			return val{k: vFloat, f: math.Sqrt(sum)}
		}
	}
	off, st := s.locate(n.w)
	if st != stOK {
		return val{}
	}
	m := n.w.leaf.msg
	sum := 0.0
	for _, k := range n.fields {
		fo, ok := s.ff.FieldOffset(s.cur, m, off, k)
		if !ok {
			s.bad(fo)
			return val{}
		}
		f := &m.Fields[k]
		v := s.readLeaf(&leaf{kind: lScalar, field: f, vk: f.Kind}, fo, -1)
		if v.k == vNone {
			return val{}
		}
		x := v.float()
		sum += x * x
	}
	return val{k: vFloat, f: math.Sqrt(sum)}
}
