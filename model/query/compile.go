package query

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/bag/rosmsg/expr"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/series"
)

// Compiled is an expression compiled for the connections of one recording
// that it can read: those of the topic it names, else those the filter
// selects whose definitions have the fields it reads. It is safe for
// concurrent use.
type Compiled struct {
	// Expr is the parsed expression.
	Expr *expr.Expr
	// Topic is the topic the expression names, or "".
	Topic string
	// Topics lists the topics whose messages the expression is evaluated
	// on, sorted.
	Topics []string
	// Unread lists the selected topics it cannot read, and why (a field
	// their type lacks, a definition bagscope does not decode), sorted by
	// topic.
	Unread []Unread

	progs    map[uint32]*connProg
	byID     []*connProg // the same, for small IDs
	progList []*connProg // each once, by index
	conns    []uint32
	clock    bool // the expression reads @clock
}

// Unread is a topic an expression cannot read.
type Unread struct {
	Topic, Type string
	Err         error
}

// connProg is the program of one connection.
type connProg struct {
	prog  *expr.Program
	index int // in Compiled.progList
}

// CompileError is an expression that no selected topic can read. Err is
// the *expr.Error of the topic the expression names, or of the first
// topic tried (for the column and the suggestions).
type CompileError struct {
	Expr   string
	Err    error
	Unread []Unread
}

func (e *CompileError) Error() string {
	if len(e.Unread) == 1 {
		u := e.Unread[0]
		return fmt.Sprintf("%s (%s): %v", u.Topic, u.Type, u.Err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "no selected topic has what the expression reads")
	for i, u := range e.Unread {
		if i == 8 {
			fmt.Fprintf(&b, "; and %d more topics", len(e.Unread)-i)
			break
		}
		fmt.Fprintf(&b, "; %s (%s): %v", u.Topic, u.Type, u.Err)
	}
	return b.String()
}

// Unwrap returns the expression error.
func (e *CompileError) Unwrap() error { return e.Err }

// Compile parses text and compiles it for the connections of s that f
// selects (its Topics; Conns and the time range are not looked at). A
// syntax error, a topic the expression names that f leaves out, or an
// expression no selected topic can read is an error; errors.As finds the
// *expr.Error with the column and suggestions.
func Compile(s bag.Storage, cache *rosmsg.Cache, text string, f bag.MessageFilter) (*Compiled, error) {
	e, err := expr.Parse(text)
	if err != nil {
		return nil, err
	}
	topics := series.Topics(s)
	topic, err := e.Topic(topics)
	if err != nil {
		return nil, err
	}
	if topic != "" && len(f.Topics) > 0 && !slices.Contains(f.Topics, topic) {
		return nil, fmt.Errorf("the expression reads %s, which the selected topics (%s) leave out", topic, strings.Join(f.Topics, ", "))
	}
	c := &Compiled{Expr: e, Topic: topic, progs: map[uint32]*connProg{}, clock: e.Uses("@clock")}
	var firstErr error
	seen := map[string]bool{}
	for _, conn := range s.Connections() {
		switch {
		case topic != "" && conn.Topic != topic:
			continue
		case topic == "" && len(f.Topics) > 0 && !slices.Contains(f.Topics, conn.Topic):
			continue
		}
		plan, err := model.PlanFor(cache, conn)
		if err != nil {
			if conn.Definition == "" && (conn.Encoding == "cdr" || conn.Encoding == "ros1") {
				err = errors.New(model.MissingDefinitionHint(conn))
			}
			c.Unread = append(c.Unread, Unread{conn.Topic, conn.Type, err})
			continue
		}
		prog, err := e.Compile(plan, conn.Topic)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			c.Unread = append(c.Unread, Unread{conn.Topic, conn.Type, err})
			continue
		}
		cp := &connProg{prog: prog, index: len(c.progList)}
		c.progList = append(c.progList, cp)
		c.progs[conn.ID] = cp
		if conn.ID < 1<<16 {
			if int(conn.ID) >= len(c.byID) {
				c.byID = append(c.byID, make([]*connProg, int(conn.ID)+1-len(c.byID))...)
			}
			c.byID[conn.ID] = cp
		}
		c.conns = append(c.conns, conn.ID)
		if !seen[conn.Topic] {
			seen[conn.Topic] = true
			c.Topics = append(c.Topics, conn.Topic)
		}
	}
	// A topic some of whose connections read it is read.
	c.Unread = slices.DeleteFunc(c.Unread, func(u Unread) bool { return seen[u.Topic] })
	sort.Strings(c.Topics)
	sort.SliceStable(c.Unread, func(i, j int) bool { return c.Unread[i].Topic < c.Unread[j].Topic })
	if len(c.progs) == 0 {
		if firstErr == nil {
			if len(c.Unread) == 0 {
				return nil, errors.New("the recording has no topic to search")
			}
			firstErr = c.Unread[0].Err
		}
		return nil, &CompileError{Expr: text, Err: firstErr, Unread: c.Unread}
	}
	return c, nil
}

// Conns lists the connections the expression is evaluated on.
func (c *Compiled) Conns() []uint32 { return c.conns }

// ReadsClock reports whether the expression reads @clock, which needs a
// ClockIndex.
func (c *Compiled) ReadsClock() bool { return c.clock }

func (c *Compiled) prog(id uint32) *connProg {
	if id < 1<<16 {
		// Every small ID searched is in byID: no map look-up for the
		// messages of the others (a doctor's pass hands on every one).
		if int(id) < len(c.byID) {
			return c.byID[id]
		}
		return nil
	}
	return c.progs[id]
}

// Matcher evaluates a Compiled expression on messages; one per goroutine
// (or share one with a lock).
type Matcher struct {
	c      *Compiled
	start  int64
	clock  *ClockIndex
	states map[*connProg]*expr.State
	in     expr.Input
}

// NewMatcher returns a Matcher: start is the recording's start (for @t),
// clock the /clock index when the expression reads @clock (may be nil).
func (c *Compiled) NewMatcher(start bag.Time, clock *ClockIndex) *Matcher {
	return &Matcher{c: c, start: start.Nanos(), clock: clock, states: map[*connProg]*expr.State{}}
}

// Match evaluates the expression on m: whether it holds, and the values it
// read (appended to dst) when it does. A message of a connection the
// expression does not read does not match. The error is the expression's
// (expr.ErrData, expr.ErrBudget).
func (mt *Matcher) Match(m *bag.Message, dst []expr.Value) (bool, []expr.Value, error) {
	cp := mt.c.prog(m.Conn.ID)
	if cp == nil {
		return false, dst, nil
	}
	s := mt.states[cp]
	if s == nil {
		s = cp.prog.NewState()
		mt.states[cp] = s
	}
	mt.fill(m)
	ok, err := cp.prog.Match(s, &mt.in)
	if ok {
		dst = s.Values(dst)
	}
	return ok, dst, err
}

func (mt *Matcher) fill(m *bag.Message) {
	mt.in = expr.Input{Data: m.Data, Log: m.Time.Nanos(), Publish: m.PublishTime.Nanos(), Start: mt.start, Topic: m.Conn.Topic, Type: m.Conn.Type}
	if mt.clock != nil {
		mt.in.Clock, mt.in.HasClock = mt.clock.At(mt.in.Log)
	}
}
