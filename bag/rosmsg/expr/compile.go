package expr

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// typ is a compiled expression's static type.
type typ uint8

const (
	tyBool typ = iota + 1
	tyNum
	tyStr
	tyMsg   // a message (len and norm take it)
	tyArray // an array named without selector (len, norm, min, ...)
)

func (t typ) String() string {
	return [...]string{"", "a boolean", "a number", "a string", "a message", "an array"}[t]
}

// Limits of a compiled program.
const (
	// MaxSteps bounds the elements, keys and matches one message's
	// evaluation may walk; beyond it Match fails with ErrBudget.
	MaxSteps = 1 << 22
	maxVars  = 32 // [*] and ranges in one expression
	maxChain = 8  // [*] and ranges in one path
)

// Time terms and their aliases.
var timeTerms = map[string]string{
	"@log": "@log", "@time": "@log", "@receive": "@log",
	"@publish": "@publish", "@send": "@publish",
	"@stamp": "@stamp", "@t": "@t", "@clock": "@clock",
	"@topic": "@topic", "@type": "@type",
}

// cnode is a compiled node with its type; w is set for a field path.
type cnode struct {
	n node
	t typ
	w *walk
}

// use is one path's use of a var: in the aggregate scope it sits in
// (-1: none) at a place in the source.
type use struct {
	scope    int
	pos, end int
}

type compiler struct {
	src    string
	plan   *rosmsg.Plan
	topic  string
	prog   *Program
	vars   map[string]*varDef
	uses   map[int][]use
	scopes []int // parent of each scope, -1 for the top
	cur    int   // current scope
	aggs   map[int]*aggNode
	nuses  int
	paths  []string // candidate paths for suggestions, built on first need
	// fast lists the rosmsg paths the fast nodes read, each once
	// (fastIDs by text): Program.fast reads them all in one walk.
	fast    []*rosmsg.Path
	fastIDs map[string]int
	noFast  bool // compile no fast path (compileWith)
}

// Compile compiles the expression for messages of plan p published on
// topic (paths that start with a topic must name this one). Its errors are
// *Error.
func (e *Expr) Compile(p *rosmsg.Plan, topic string) (*Program, error) {
	return e.compileWith(p, topic, true)
}

// compileWith is Compile; without fast, every term is read by the generic
// walk (the tests compare the two).
func (e *Expr) compileWith(p *rosmsg.Plan, topic string, fast bool) (*Program, error) {
	c := &compiler{src: e.src, plan: p, topic: topic, cur: -1, noFast: !fast,
		prog: &Program{src: e.src, plan: p, termIDs: map[string]int{}},
		vars: map[string]*varDef{}, uses: map[int][]use{}, aggs: map[int]*aggNode{}}
	root, err := c.compile(e.root)
	if err != nil {
		return nil, err
	}
	if root.t != tyBool {
		return nil, errAt(e.root.pos, e.root.end-e.root.pos, "the expression is %s, not true or false: compare it (%s > 0)", root.t, e.src[e.root.pos:e.root.end])
	}
	if err := c.bind(); err != nil {
		return nil, err
	}
	c.prog.root = root.n
	c.prog.test = testerOf(root.n)
	if len(c.fast) > 0 {
		c.prog.fast = rosmsg.NewPathSet(c.fast)
	}
	return c.prog, nil
}

// fastID returns 1 + the index of path text in the program's fast set,
// compiling it (strict, so that it fails where the walk fails), or 0 when
// it does not compile to a value of kind k.
func (c *compiler) fastID(text string, k rosmsg.Kind) int {
	if c.noFast {
		return 0
	}
	if id, ok := c.fastIDs[text]; ok {
		return id
	}
	p, err := rosmsg.CompileStrictPath(c.plan, text)
	if err != nil || p.Kind() != k {
		return 0
	}
	if c.fastIDs == nil {
		c.fastIDs = map[string]int{}
	}
	c.fast = append(c.fast, p)
	c.fastIDs[text] = len(c.fast)
	return len(c.fast)
}

func (c *compiler) compile(a *ast) (cnode, *Error) {
	switch a.kind {
	case aNum:
		return c.number(a)
	case aStr:
		return cnode{n: &constNode{val{k: vStr, s: []byte(a.text)}}, t: tyStr}, nil
	case aBool:
		return cnode{n: &constNode{boolVal(a.text == "true")}, t: tyBool}, nil
	case aPath:
		return c.path(a)
	case aCall:
		return c.call(a)
	case aUnary:
		x, err := c.compile(a.args[0])
		if err != nil {
			return cnode{}, err
		}
		if a.text == "!" {
			if x.t != tyBool {
				return cnode{}, c.typeErr(a.args[0], x.t, "'!' takes true or false")
			}
			return cnode{n: &notNode{x: x.n, xt: testerOf(x.n)}, t: tyBool}, nil
		}
		if x.t != tyNum {
			return cnode{}, c.typeErr(a.args[0], x.t, "'-' takes a number")
		}
		neg := &negNode{x.n}
		if _, ok := x.n.(*constNode); ok {
			// A negative literal: its value, once.
			return cnode{n: &constNode{neg.eval(&State{})}, t: tyNum}, nil
		}
		return cnode{n: neg, t: tyNum}, nil
	}
	return c.binary(a)
}

func (c *compiler) typeErr(a *ast, t typ, format string, args ...any) *Error {
	msg := fmt.Sprintf(format, args...)
	return errAt(a.pos, a.end-a.pos, "%s: %s is %s", msg, c.src[a.pos:a.end], t)
}

func (c *compiler) number(a *ast) (cnode, *Error) {
	s := strings.ReplaceAll(a.text, "_", "")
	if i, err := strconv.ParseInt(s, 0, 64); err == nil {
		return cnode{n: &constNode{val{k: vInt, i: i}}, t: tyNum}, nil
	}
	if u, err := strconv.ParseUint(s, 0, 64); err == nil {
		return cnode{n: &constNode{val{k: vFloat, f: float64(u)}}, t: tyNum}, nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return cnode{}, errAt(a.pos, a.end-a.pos, "bad number %s", a.text)
	}
	return cnode{n: &constNode{val{k: vFloat, f: f}}, t: tyNum}, nil
}

func (c *compiler) binary(a *ast) (cnode, *Error) {
	l, err := c.compile(a.args[0])
	if err != nil {
		return cnode{}, err
	}
	if (a.text == "~" || a.text == "!~") && a.args[1].kind == aStr {
		if l.t != tyStr {
			return cnode{}, c.typeErr(a.args[0], l.t, "'%s' matches a string with a regular expression", a.text)
		}
		return c.regex(a, l)
	}
	r, err := c.compile(a.args[1])
	if err != nil {
		return cnode{}, err
	}
	if err := c.value(a.args[0], l); err != nil {
		return cnode{}, err
	}
	if err := c.value(a.args[1], r); err != nil {
		return cnode{}, err
	}
	switch a.text {
	case "&&", "||":
		for i, x := range []cnode{l, r} {
			if x.t != tyBool {
				return cnode{}, c.typeErr(a.args[i], x.t, "'%s' joins conditions (true or false)", a.text)
			}
		}
		if a.text == "&&" {
			return cnode{n: &andNode{l: l.n, r: r.n, lt: testerOf(l.n), rt: testerOf(r.n)}, t: tyBool}, nil
		}
		return cnode{n: &orNode{l: l.n, r: r.n, lt: testerOf(l.n), rt: testerOf(r.n)}, t: tyBool}, nil
	case "~", "!~":
		return cnode{}, errAt(a.args[1].pos, a.args[1].end-a.args[1].pos, "the right of '%s' is a regular expression in quotes: \"pattern\"", a.text)
	case "+", "-", "*", "/", "%":
		for i, x := range []cnode{l, r} {
			if x.t != tyNum {
				return cnode{}, c.typeErr(a.args[i], x.t, "'%s' takes numbers", a.text)
			}
		}
		return cnode{n: &arithNode{op: a.text[0], l: l.n, r: r.n}, t: tyNum}, nil
	}
	// Comparisons.
	if l.t != r.t {
		return cnode{}, errAt(a.pos, a.end-a.pos, "cannot compare %s (%s) with %s (%s)",
			c.src[a.args[0].pos:a.args[0].end], l.t, c.src[a.args[1].pos:a.args[1].end], r.t)
	}
	if l.t == tyBool && a.text != "==" && a.text != "!=" {
		return cnode{}, errAt(a.pos, a.end-a.pos, "booleans compare with == and != only")
	}
	return cnode{n: newCmp(a.text, l.n, r.n), t: tyBool}, nil
}

// value checks that x is a value (not a message or a whole array).
func (c *compiler) value(a *ast, x cnode) *Error {
	switch x.t {
	case tyMsg:
		return errAt(a.pos, a.end-a.pos, "%s is a message: name one of its fields (%s)", c.src[a.pos:a.end], fieldHint(c.src[a.pos:a.end], x.w))
	case tyArray:
		name := c.src[a.pos:a.end]
		return errAt(a.pos, a.end-a.pos, "%s is an array: give an index (%s[0]), every element (any(%s[*] ...)) or len(%s)", name, name, name, name)
	}
	return nil
}

func fieldHint(name string, w *walk) string {
	if w == nil || w.leaf.msg == nil || len(w.leaf.msg.Fields) == 0 {
		return name + ".FIELD"
	}
	return name + "." + w.leaf.msg.Fields[0].Name
}

func (c *compiler) regex(a *ast, l cnode) (cnode, *Error) {
	pat := a.args[1].text
	p := a.args[1]
	if len(pat) > MaxRegexp {
		return cnode{}, errAt(p.pos, p.end-p.pos, "the regular expression is longer than %d bytes", MaxRegexp)
	}
	re, err := regexp.Compile(pat)
	if err != nil {
		return cnode{}, errAt(p.pos, p.end-p.pos, "bad regular expression: %v", strings.TrimPrefix(err.Error(), "error parsing regexp: "))
	}
	return cnode{n: &regexNode{x: l.n, re: re, not: a.text == "!~"}, t: tyBool}, nil
}

// Functions and the arguments they take.
var funcHelp = map[string]string{
	"abs": "abs(x)", "len": "len(s), len(array) or len(path[*])", "norm": "norm(x, y, ...), norm(vector) or norm(array)",
	"contains": "contains(s, t)", "startswith": "startswith(s, prefix)", "endswith": "endswith(s, suffix)",
	"any": "any(condition over path[*])", "all": "all(condition over path[*])", "count": "count(condition over path[*])",
	"min": "min(x, y, ...), min(array) or min(path[*])", "max": "max(x, y, ...), max(array) or max(path[*])",
	"sum": "sum(array) or sum(path[*])", "mean": "mean(array) or mean(path[*])",
}

func (c *compiler) call(a *ast) (cnode, *Error) {
	name := a.text
	help, ok := funcHelp[name]
	if !ok {
		names := make([]string, 0, len(funcHelp))
		for n := range funcHelp {
			names = append(names, n)
		}
		sort.Strings(names)
		e := errAt(a.pos, len(name), "unknown function %s: the functions are %s", name, strings.Join(names, ", "))
		e.Suggest = rosmsg.SuggestPaths(name, names)
		return cnode{}, e
	}
	argc := func(lo, hi int) *Error {
		if len(a.args) < lo || hi >= 0 && len(a.args) > hi {
			return errAt(a.pos, a.end-a.pos, "%s takes %s", name, help)
		}
		return nil
	}
	if fn, ok := aggNames[name]; ok && len(a.args) == 1 {
		return c.aggregate(a, fn)
	}
	switch name {
	case "abs":
		if err := argc(1, 1); err != nil {
			return cnode{}, err
		}
		x, err := c.numArg(a, 0)
		if err != nil {
			return cnode{}, err
		}
		return cnode{n: &absNode{x}, t: tyNum}, nil
	case "contains", "startswith", "endswith":
		if err := argc(2, 2); err != nil {
			return cnode{}, err
		}
		var xs [2]node
		for i := range 2 {
			x, err := c.compile(a.args[i])
			if err != nil {
				return cnode{}, err
			}
			if x.t != tyStr {
				return cnode{}, c.typeErr(a.args[i], x.t, "%s takes strings", name)
			}
			xs[i] = x.n
		}
		fn := map[string]strFunc{"contains": fContains, "startswith": fStartsWith, "endswith": fEndsWith}[name]
		return cnode{n: &strFuncNode{fn: fn, l: xs[0], r: xs[1]}, t: tyBool}, nil
	case "min", "max", "norm":
		if err := argc(2, -1); err != nil {
			return cnode{}, err
		}
		args := make([]node, len(a.args))
		for i := range a.args {
			x, err := c.numArg(a, i)
			if err != nil {
				return cnode{}, err
			}
			args[i] = x
		}
		if name == "norm" {
			return cnode{n: &hypotNode{args}, t: tyNum}, nil
		}
		return cnode{n: &minMaxNode{max: name == "max", args: args}, t: tyNum}, nil
	}
	return cnode{}, argc(1, 1)
}

func (c *compiler) numArg(a *ast, i int) (node, *Error) {
	x, err := c.compile(a.args[i])
	if err != nil {
		return nil, err
	}
	if err := c.value(a.args[i], x); err != nil {
		return nil, err
	}
	if x.t != tyNum {
		return nil, c.typeErr(a.args[i], x.t, "%s takes numbers", a.text)
	}
	return x.n, nil
}

// aggregate compiles a one-argument any, all, count, len, min, max, sum,
// mean or norm: over the elements its [*] paths read, or over an array
// named whole, or (len, norm) of a string or a message.
func (c *compiler) aggregate(a *ast, fn aggFunc) (cnode, *Error) {
	scope := len(c.scopes)
	c.scopes = append(c.scopes, c.cur)
	outer, before := c.cur, c.nuses
	c.cur = scope
	x, err := c.compile(a.args[0])
	c.cur = outer
	if err != nil {
		return cnode{}, err
	}
	arg := a.args[0]
	fanout := c.nuses > before
	resT := tyNum
	switch fn {
	case gAny, gAll:
		resT = tyBool
	}
	if fn == gNorm && x.t == tyMsg {
		return c.msgNorm(arg, x)
	}
	if !fanout {
		switch {
		case x.t == tyArray && (fn == gLen || x.w.leaf.field.Kind != rosmsg.KindString && x.w.leaf.field.Kind != rosmsg.KindWString &&
			(x.w.leaf.field.Kind != rosmsg.KindMessage || rosmsg.IsTimeMsg(x.w.leaf.field.Msg)) && fn != gAny && fn != gAll && fn != gCount):
			return cnode{n: &arrayNode{fn: fn, w: x.w}, t: tyNum}, nil
		case fn == gLen && x.t == tyStr:
			return cnode{n: &strLenNode{x.n}, t: tyNum}, nil
		case fn == gLen:
			return cnode{}, c.typeErr(arg, x.t, "len takes a string, an array or a path with [*]")
		}
	}
	switch fn {
	case gAny, gAll, gCount:
		if err := c.value(arg, x); err != nil {
			return cnode{}, err
		}
		if x.t != tyBool {
			return cnode{}, c.typeErr(arg, x.t, "%s takes a condition", a.text)
		}
	case gLen:
		if x.t == tyArray {
			return cnode{}, c.value(arg, x)
		}
	default:
		if err := c.value(arg, x); err != nil {
			return cnode{}, err
		}
		if x.t != tyNum {
			return cnode{}, c.typeErr(arg, x.t, "%s takes numbers", a.text)
		}
	}
	n := &aggNode{fn: fn, arg: x.n}
	c.aggs[scope] = n
	return cnode{n: n, t: resT}, nil
}

// msgNorm compiles norm(vector): the norm of the message's number fields.
func (c *compiler) msgNorm(a *ast, x cnode) (cnode, *Error) {
	m := x.w.leaf.msg
	var fields []int
	for i := range m.Fields {
		f := &m.Fields[i]
		if !f.Array && f.Kind.Plottable() && f.Kind != rosmsg.KindBool {
			fields = append(fields, i)
		}
	}
	if len(fields) == 0 {
		return cnode{}, errAt(a.pos, a.end-a.pos, "%s (%s) has no number fields to take the norm of: name a vector inside it", c.src[a.pos:a.end], m.Type)
	}
	n := &msgNormNode{w: x.w, fields: fields}
	if base, ok := plainPath(x.w); ok {
		// Each number field through its rosmsg.Path, as a term's.
		var ids []int
		for _, k := range fields {
			f := &m.Fields[k]
			id := 0
			if scalarKind(f.Kind) {
				id = c.fastID(base+"."+f.Name, f.Kind)
			}
			if id == 0 {
				ids = nil
				break
			}
			ids = append(ids, id)
		}
		n.fast = ids
	}
	return cnode{n: n, t: tyNum}, nil
}

// bind hands each var to the aggregates that walk it: each use sits in
// the innermost aggregate around it, and of these the outermost ones walk
// the var (an aggregate inside another that walks it sees the element
// the outer one is at). Aggregates side by side each walk it on their own.
func (c *compiler) bind() *Error {
	ids := make([]int, 0, len(c.vars))
	byID := map[int]*varDef{}
	for _, v := range c.vars {
		ids = append(ids, v.id)
		byID[v.id] = v
	}
	sort.Ints(ids)
	for _, id := range ids {
		v := byID[id]
		var scopes []int
		for _, u := range c.uses[id] {
			s := u.scope
			for s >= 0 && c.aggs[s] == nil {
				s = c.scopes[s] // norm(vector) per element: not an aggregate
			}
			if s < 0 {
				return errAt(u.pos, u.end-u.pos, "%s reads every element of %s: use it inside any(...), all(...), count(...), len(...), min, max, sum, mean or norm",
					c.src[u.pos:u.end], v.text)
			}
			if !slices.Contains(scopes, s) {
				scopes = append(scopes, s)
			}
		}
		for _, s := range scopes {
			outer := false
			for a := c.scopes[s]; a >= 0 && !outer; a = c.scopes[a] {
				outer = slices.Contains(scopes, a)
			}
			if !outer {
				c.aggs[s].vars = append(c.aggs[s].vars, v)
			}
		}
	}
	return nil
}

// constant resolves a name that is no field as a constant of the
// definition: of the top-level type, else of the types inside it, when
// those that have it agree on its value.
func (c *compiler) constant(name string) (cnode, bool) {
	var found *rosmsg.Constant
	for i := range c.plan.Root.Constants {
		if c.plan.Root.Constants[i].Name == name {
			found = &c.plan.Root.Constants[i]
			break
		}
	}
	if found == nil {
		seen := map[*rosmsg.MsgPlan]bool{}
		ambiguous := false
		var visit func(m *rosmsg.MsgPlan, depth int)
		visit = func(m *rosmsg.MsgPlan, depth int) {
			if m == nil || seen[m] || depth > 16 {
				return
			}
			seen[m] = true
			for i := range m.Constants {
				k := &m.Constants[i]
				if k.Name == name {
					ambiguous = ambiguous || found != nil && found.Value != k.Value
					found = k
				}
			}
			for i := range m.Fields {
				visit(m.Fields[i].Msg, depth+1)
			}
		}
		visit(c.plan.Root, 0)
		if ambiguous {
			return cnode{}, false
		}
	}
	if found == nil {
		return cnode{}, false
	}
	switch found.Type {
	case "string":
		return cnode{n: &constNode{val{k: vStr, s: []byte(found.Value)}}, t: tyStr}, true
	case "bool":
		b := found.Value == "True" || found.Value == "true" || found.Value == "1"
		return cnode{n: &constNode{boolVal(b)}, t: tyBool}, true
	case "float32", "float64":
		f, err := strconv.ParseFloat(found.Value, 64)
		if err != nil {
			return cnode{}, false
		}
		return cnode{n: &constNode{val{k: vFloat, f: f}}, t: tyNum}, true
	}
	if i, err := strconv.ParseInt(found.Value, 0, 64); err == nil {
		return cnode{n: &constNode{val{k: vInt, i: i}}, t: tyNum}, true
	}
	if u, err := strconv.ParseUint(found.Value, 0, 64); err == nil {
		return cnode{n: &constNode{val{k: vFloat, f: float64(u)}}, t: tyNum}, true
	}
	if f, err := strconv.ParseFloat(found.Value, 64); err == nil && !math.IsNaN(f) {
		return cnode{n: &constNode{val{k: vFloat, f: f}}, t: tyNum}, true
	}
	return cnode{}, false
}
