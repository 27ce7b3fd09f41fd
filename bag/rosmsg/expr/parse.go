package expr

import (
	"strings"
)

// astKind is what a syntax node is.
type astKind uint8

const (
	aNum    astKind = iota // a number literal: text
	aStr                   // a string literal: text
	aBool                  // true or false: text
	aPath                  // a field path, topic path, @term or constant: text
	aCall                  // a function call: text is the name
	aUnary                 // ! or -: text is the operator
	aBinary                // text is the operator
)

// ast is a node of the syntax tree. [pos, end) are its bytes in the source.
type ast struct {
	kind     astKind
	text     string
	pos, end int
	args     []*ast
}

// Expr is a parsed expression, not yet compiled for a message type.
type Expr struct {
	src  string
	root *ast
}

// String returns the expression as written.
func (e *Expr) String() string { return e.src }

// Parse reads an expression. Its errors are *Error.
func Parse(src string) (*Expr, error) {
	if len(src) > MaxLen {
		return nil, errAt(MaxLen, 1, "the expression is longer than %d bytes", MaxLen)
	}
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	if toks[0].kind == tEOF {
		return nil, errAt(0, 1, "empty expression")
	}
	root, err := p.or(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tEOF {
		if t.text == ")" {
			return nil, errAt(t.pos, 1, "unmatched ')'")
		}
		return nil, errAt(t.pos, t.end-t.pos, "unexpected %s: expected an operator", describe(t))
	}
	return &Expr{src: src, root: root}, nil
}

type parser struct {
	toks  []token
	i     int
	nodes int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tEOF {
		p.i++
	}
	return t
}

func (p *parser) isOp(texts ...string) bool {
	t := p.peek()
	if t.kind != tOp {
		return false
	}
	for _, s := range texts {
		if t.text == s {
			return true
		}
	}
	return false
}

func describe(t token) string {
	switch t.kind {
	case tEOF:
		return "end of expression"
	case tNum:
		return "number " + t.text
	case tStr:
		return "string"
	case tPath:
		return "name " + t.text
	}
	return "'" + t.text + "'"
}

func (p *parser) node(kind astKind, text string, pos, end int, args ...*ast) (*ast, *Error) {
	p.nodes++
	if p.nodes > maxNodes {
		return nil, errAt(pos, end-pos, "the expression has more than %d terms", maxNodes)
	}
	return &ast{kind: kind, text: text, pos: pos, end: end, args: args}, nil
}

func (p *parser) deep(depth int) *Error {
	if depth > maxDepth {
		t := p.peek()
		return errAt(t.pos, 1, "the expression nests more than %d levels deep", maxDepth)
	}
	return nil
}

// binary parses a left-associative level of binary operators.
func (p *parser) binary(depth int, sub func(int) (*ast, *Error), ops ...string) (*ast, *Error) {
	if err := p.deep(depth); err != nil {
		return nil, err
	}
	l, err := sub(depth + 1)
	if err != nil {
		return nil, err
	}
	for p.isOp(ops...) {
		op := p.next()
		r, err := sub(depth + 1)
		if err != nil {
			return nil, err
		}
		if l, err = p.node(aBinary, op.text, l.pos, r.end, l, r); err != nil {
			return nil, err
		}
		depth++
		if err := p.deep(depth); err != nil {
			return nil, err
		}
	}
	return l, nil
}

func (p *parser) or(depth int) (*ast, *Error) { return p.binary(depth, p.and, "||") }

func (p *parser) and(depth int) (*ast, *Error) { return p.binary(depth, p.cmp, "&&") }

var cmpOps = []string{"==", "!=", "<", "<=", ">", ">=", "~", "!~"}

func (p *parser) cmp(depth int) (*ast, *Error) {
	if err := p.deep(depth); err != nil {
		return nil, err
	}
	l, err := p.sum(depth + 1)
	if err != nil {
		return nil, err
	}
	if !p.isOp(cmpOps...) {
		return l, nil
	}
	op := p.next()
	r, err := p.sum(depth + 1)
	if err != nil {
		return nil, err
	}
	if p.isOp(cmpOps...) {
		t := p.peek()
		return nil, errAt(t.pos, len(t.text), "comparisons do not chain: write a < b && b < c")
	}
	return p.node(aBinary, op.text, l.pos, r.end, l, r)
}

func (p *parser) sum(depth int) (*ast, *Error) { return p.binary(depth, p.prod, "+", "-") }

func (p *parser) prod(depth int) (*ast, *Error) { return p.binary(depth, p.unary, "*", "/", "%") }

func (p *parser) unary(depth int) (*ast, *Error) {
	if err := p.deep(depth); err != nil {
		return nil, err
	}
	if p.isOp("!", "-") {
		op := p.next()
		x, err := p.unary(depth + 1)
		if err != nil {
			return nil, err
		}
		return p.node(aUnary, op.text, op.pos, x.end, x)
	}
	return p.primary(depth + 1)
}

func (p *parser) primary(depth int) (*ast, *Error) {
	if err := p.deep(depth); err != nil {
		return nil, err
	}
	t := p.next()
	switch t.kind {
	case tNum:
		return p.node(aNum, t.text, t.pos, t.end)
	case tStr:
		return p.node(aStr, t.text, t.pos, t.end)
	case tPath:
		if t.text == "true" || t.text == "false" {
			return p.node(aBool, t.text, t.pos, t.end)
		}
		if p.isOp("(") {
			return p.call(t, depth)
		}
		return p.node(aPath, t.text, t.pos, t.end)
	case tOp:
		if t.text == "(" {
			x, err := p.or(depth + 1)
			if err != nil {
				return nil, err
			}
			if !p.isOp(")") {
				c := p.peek()
				return nil, errAt(c.pos, c.end-c.pos, "expected ')' to close the '(' at column %d, found %s", t.pos+1, describe(c))
			}
			p.next()
			x.pos, x.end = t.pos, p.toks[p.i-1].end
			return x, nil
		}
	}
	if t.kind == tEOF {
		return nil, errAt(t.pos, 1, "the expression ends early: expected a value")
	}
	return nil, errAt(t.pos, t.end-t.pos, "unexpected %s: expected a value", describe(t))
}

func (p *parser) call(name token, depth int) (*ast, *Error) {
	open := p.next()
	if strings.ContainsAny(name.text, ".[/@") {
		return nil, errAt(name.pos, name.end-name.pos, "%s is not a function", name.text)
	}
	var args []*ast
	if !p.isOp(")") {
		for {
			a, err := p.or(depth + 1)
			if err != nil {
				return nil, err
			}
			args = append(args, a)
			if !p.isOp(",") {
				break
			}
			p.next()
		}
	}
	if !p.isOp(")") {
		c := p.peek()
		return nil, errAt(c.pos, c.end-c.pos, "expected ',' or ')' in the call of %s at column %d, found %s", name.text, open.pos+1, describe(c))
	}
	end := p.next().end
	return p.node(aCall, name.text, name.pos, end, args...)
}
