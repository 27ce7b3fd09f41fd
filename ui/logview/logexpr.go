package logview

import (
	"context"
	"strings"
	"sync"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/model/query"
	"github.com/bagscope/bagscope/ui/widgets"
)

// LooksLikeExpression says whether the filter's text is meant as an
// expression: it compares, matches, negates, joins or calls. Other text
// filters as plain text, as it always has.
func LooksLikeExpression(s string) bool {
	return strings.ContainsAny(s, "=<>~!&|(") || strings.HasPrefix(strings.TrimSpace(s), "@")
}

// textChanged filters by the text typed: plain text at once, or an
// expression evaluated on the log topics in the background. An
// expression that does not compile filters as plain text, and says
// where it is wrong.
func (p *logPanel) textChanged(s string) {
	p.exprGen++
	gen := p.exprGen
	p.keep = nil
	p.filter.Text = s
	if !LooksLikeExpression(s) || len(p.topics) == 0 {
		p.showExprProblem("")
		p.refilter()
		return
	}
	st := p.l.Doc().Storage
	var cache rosmsg.Cache
	f := bag.MessageFilter{Topics: p.topics}
	c, err := query.Compile(st, &cache, strings.TrimSpace(s), f)
	if err != nil {
		p.showExprProblem("Read as plain text, not as an expression: " + widgets.ExprErrorText(strings.TrimSpace(s), err))
		p.refilter()
		return
	}
	p.showExprProblem("")
	p.filter.Text = ""
	var (
		mu   sync.Mutex
		keep map[msgref.Loc]bool
		ferr error
	)
	p.l.Go(func(ctx context.Context) {
		var clock *query.ClockIndex
		if c.ReadsClock() {
			clock, _ = query.ReadClock(ctx, st, &cache)
		}
		res, err := c.Find(ctx, st, f, clock, query.Options{})
		k := map[msgref.Loc]bool{}
		if res != nil {
			for _, h := range res.Hits {
				k[msgref.Loc{ChunkPos: h.Loc.Block, Offset: h.Loc.Offset, Conn: h.Conn}] = true
			}
		}
		mu.Lock()
		keep, ferr = k, err
		mu.Unlock()
	}, func() {
		if gen != p.exprGen {
			return // the text has changed since
		}
		mu.Lock()
		defer mu.Unlock()
		p.keep = keep
		if ferr != nil {
			p.showExprProblem("The expression's search stopped: " + ferr.Error())
		}
		p.refilter()
	})
}

// showExprProblem says what is wrong with the filter's expression, below
// the filters (a read problem said there stays when s is "").
func (p *logPanel) showExprProblem(s string) {
	if s == "" {
		if p.exprProblem {
			p.exprProblem = false
			p.problem.SetText(p.readProblem)
			if p.readProblem == "" {
				p.problem.Hide()
			}
		}
		return
	}
	p.exprProblem = true
	p.problem.SetText(s)
	p.problem.Show()
}
