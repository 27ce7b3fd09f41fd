package cli

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
)

// plotArg is one series argument of plot, in the syntax of the window's
// Plots view: a field path (which may select several elements, each a
// series), a derived series (plot.Expr), or an XY path "X vs Y".
type plotArg struct {
	text string
	ref  series.FieldRef // a field path
	expr *plot.Expr      // a derived series
	x, y *plot.Expr      // an XY path
	// refs are the fields of the leaves of expr, or of x and y, each once,
	// in the order of leafPaths.
	refs []series.FieldRef
}

func (a *plotArg) isXY() bool   { return a.x != nil }
func (a *plotArg) isPath() bool { return a.expr == nil && a.x == nil }

// leafPaths are the (canonical) paths of a's leaves, each once.
func (a *plotArg) leafPaths() []string {
	var out []string
	for _, e := range []*plot.Expr{a.expr, a.x, a.y} {
		e.Walk(func(l *plot.Expr) {
			for _, p := range out {
				if p == l.Path {
					return
				}
			}
			out = append(out, l.Path)
		})
	}
	return out
}

// argError is a mistake in a series argument and where it is.
type argError struct {
	arg string
	off int // byte offset in arg
	err error
}

func (e *argError) Error() string {
	col := utf8.RuneCountInString(e.arg[:min(max(e.off, 0), len(e.arg))]) + 1
	// The argument, then a caret under the column (tabs kept, so that
	// the caret lines up in a terminal).
	var pad strings.Builder
	for i, r := range e.arg {
		if i >= e.off {
			break
		}
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	return fmt.Sprintf("%s: column %d: %v\n    %s\n    %s^", e.arg, col, e.err, e.arg, pad.String())
}

func (e *argError) Unwrap() error { return e.err }

// parseExprAt parses the part of arg at byte offset off, s, so that a
// syntax error gives its place in arg.
func parseExprAt(arg, s string, off int) (*plot.Expr, error) {
	e, err := plot.ParseExpr(s)
	if err != nil {
		at := off
		if se, ok := err.(*plot.SyntaxError); ok {
			at += se.Offset
		}
		return nil, &argError{arg: arg, off: at, err: err}
	}
	e.Walk(func(l *plot.Expr) { l.Pos += off }) // only leaves' places are used
	return e, nil
}

// parsePlotArg reads a series argument and resolves its fields against
// the recording. A leaf of an expression must name one value per message
// (no [*] or range), as in the window.
func parsePlotArg(b bag.Storage, cache *rosmsg.Cache, text string) (*plotArg, error) {
	a := &plotArg{text: text}
	if xs, ys, ok := plot.SplitXY(text); ok {
		xOff := len(text) - len(strings.TrimLeftFunc(text, unicode.IsSpace))
		yOff := len(strings.TrimRightFunc(text, unicode.IsSpace)) - len(ys)
		var err error
		if a.x, err = parseExprAt(text, xs, xOff); err != nil {
			return nil, err
		}
		if a.y, err = parseExprAt(text, ys, yOff); err != nil {
			return nil, err
		}
	} else {
		e, err := parseExprAt(text, text, 0)
		if err != nil {
			return nil, err
		}
		if e.IsLeaf() {
			ref, err := series.ResolveField(b, cache, e.Path)
			if err != nil {
				return nil, err
			}
			a.ref = ref
			return a, nil
		}
		a.expr = e
	}
	// Leaves are named by their fields as the recording spells them, so
	// that "odom.x" and "/odom.x" are one field and names are canonical.
	resolved := map[string]series.FieldRef{}
	var failed error
	for _, e := range []*plot.Expr{a.expr, a.x, a.y} {
		e.Walk(func(l *plot.Expr) {
			if failed != nil {
				return
			}
			if _, ok := resolved[l.Path]; ok {
				return
			}
			ref, err := series.ResolveField(b, cache, l.Path)
			if err == nil && !singleValued(b, cache, ref) {
				err = fmt.Errorf("%s selects several elements, but each path of a derived series or an XY plot must name one value: give an index ([3]) or a key ([NAME], [FIELD=VALUE])", l.Path)
			}
			if err != nil {
				failed = &argError{arg: text, off: l.Pos, err: err}
				return
			}
			resolved[l.Path] = ref
		})
	}
	if failed != nil {
		return nil, failed
	}
	for _, e := range []*plot.Expr{a.expr, a.x, a.y} {
		e.Walk(func(l *plot.Expr) { l.Path = resolved[l.Path].String() })
	}
	for _, p := range a.leafPaths() {
		for _, ref := range resolved {
			if ref.String() == p {
				a.refs = append(a.refs, ref)
				break
			}
		}
	}
	return a, nil
}

// singleValued reports whether ref reads one value per message on every
// connection of its topic: its path has no [*] and no range.
func singleValued(b bag.Storage, cache *rosmsg.Cache, ref series.FieldRef) bool {
	if ref.IsLatency() {
		return true
	}
	for _, c := range b.Connections() {
		if c.Topic != ref.Topic {
			continue
		}
		plan, err := model.PlanFor(cache, c)
		if err != nil {
			continue
		}
		sel, err := rosmsg.CompileSelection(plan, ref.Path)
		if err == nil && !sel.Fixed() {
			return false
		}
	}
	return true
}

// evalArg computes a derived series or an XY path from the extracted
// columns of its leaves, given by canonical path.
func evalArg(a *plotArg, leaves map[string]plot.Series) (plot.Series, plot.XY, error) {
	leaf := func(p string) (plot.Series, bool) {
		s, ok := leaves[p]
		return s, ok
	}
	if a.isXY() {
		x, err := a.x.Eval(leaf)
		if err != nil {
			return plot.Series{}, plot.XY{}, err
		}
		y, err := a.y.Eval(leaf)
		if err != nil {
			return plot.Series{}, plot.XY{}, err
		}
		return plot.Series{}, plot.JoinXY(x, y), nil
	}
	s, err := a.expr.Eval(leaf)
	return s, plot.XY{}, err
}
