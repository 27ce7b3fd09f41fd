package expr

import (
	"fmt"
	"strconv"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// Program is an expression compiled for one message definition. It is
// immutable and safe for concurrent use; each goroutine evaluates it with
// its own State.
type Program struct {
	src     string
	plan    *rosmsg.Plan
	root    node
	test    tester // root's
	vars    []*varDef
	terms   []termInfo
	termIDs map[string]int
	// fast reads the values of the fast nodes' paths in one walk of the
	// message, on the first node's need (nil: none).
	fast *rosmsg.PathSet
}

// termInfo is one term the program reads and reports.
type termInfo struct {
	name     string
	chain    []int    // the vars of its path, outermost first
	brackets [][2]int // where each var's selector sits in name
}

// Input is one message and what the program's time terms read.
type Input struct {
	// Data is the serialized message.
	Data []byte
	// Log and Publish are the log and publish (send) times in nanoseconds
	// since the epoch; Publish 0 reads as Log. Start is the recording's
	// start, for @t.
	Log, Publish, Start int64
	// Clock is the sim time of /clock at the message, when HasClock.
	Clock    int64
	HasClock bool
	// Topic and Type are what @topic and @type read.
	Topic, Type string
}

// State is one goroutine's scratch space for evaluating a Program.
type State struct {
	p      *Program
	in     *Input
	cur    rosmsg.Cursor
	root   int
	vars   []varState
	rec    []record
	wbuf   [][]byte
	keyBuf []byte
	steps  int
	err    error
	// ff finds field offsets through the layout plans, sharing the
	// variable-size fields skipped between the terms of one message.
	ff rosmsg.FieldFinder
	// Byte copies of the input's topic and type, kept between messages.
	topic, typ []byte
	// The values of the program's fast set in this message, once read.
	fv    *rosmsg.PathValues
	fread bool
}

type record struct {
	v   val
	set bool
	// fast: the value is scalarVal(vk, bits), read by a term's fast path
	// and made a val only if Values asks.
	fast bool
	vk   rosmsg.Kind
	bits uint64
	idx  [maxChain]int32
}

// DataError is a message whose data ends inside a field the expression
// reads (or whose CDR header is bad). It wraps ErrData.
type DataError struct {
	Offset int
	Err    error // the rosmsg error, when there is one
}

func (e *DataError) Error() string {
	if e.Err != nil {
		return e.Err.Error()
	}
	return fmt.Sprintf("offset %d: %v", e.Offset, ErrData)
}

// Unwrap returns ErrData.
func (e *DataError) Unwrap() []error {
	if e.Err != nil {
		return []error{ErrData, e.Err}
	}
	return []error{ErrData}
}

// NewState returns a State for evaluating p.
func (p *Program) NewState() *State {
	s := &State{p: p, vars: make([]varState, len(p.vars)), rec: make([]record, len(p.terms)), wbuf: make([][]byte, len(p.terms))}
	if p.fast != nil {
		s.fv = p.fast.NewValues()
	}
	return s
}

// fastBits returns the value of path i of the program's fast set in this
// message, reading the whole set in one walk on the first call.
func (s *State) fastBits(i int) (uint64, bool) {
	if !s.fread {
		s.readFast()
	}
	return s.fv.Bits[i], s.fv.OK[i]
}

func (s *State) readFast() {
	s.p.fast.Read(s.in.Data, s.fv)
	s.fread = true
}

// String returns the expression as written.
func (p *Program) String() string { return p.src }

// Plan returns the definition the program reads.
func (p *Program) Plan() *rosmsg.Plan { return p.plan }

// Terms lists the names of the fields and time terms the expression
// reads, each once, in the order they appear.
func (p *Program) Terms() []string {
	out := make([]string, len(p.terms))
	for i, t := range p.terms {
		out[i] = t.name
	}
	return out
}

// Match evaluates the program on one message. It reports false for a
// message whose result is unknown (a field it lacks). The error is a
// *DataError for data that ends inside a field the expression reads, or
// ErrBudget when the message would take more than MaxSteps elements.
func (p *Program) Match(s *State, in *Input) (bool, error) {
	if s.p != p {
		panic("expr: State of another Program")
	}
	s.in = in
	s.steps = 0
	s.err = nil
	for i := range s.rec {
		s.rec[i].set = false
	}
	cur, root, err := p.plan.Cursor(in.Data)
	if err != nil {
		s.err = &DataError{Offset: 0, Err: err}
		return false, s.err
	}
	s.cur, s.root = cur, root
	s.ff.Reset()
	s.fread = false
	t := p.test.test(s)
	if s.err != nil {
		return false, s.err
	}
	return t == tTrue, nil
}

// recordBits is record of the value scalarVal(vk, bits) of a term read
// by its fast path (a field path without vars).
func (s *State) recordBits(id int, vk rosmsg.Kind, bits uint64) {
	r := &s.rec[id]
	r.set, r.fast, r.vk, r.bits = true, true, vk, bits
}

func (s *State) record(id int, v val) {
	r := &s.rec[id]
	r.v, r.set, r.fast = v, true, false
	for j, vid := range s.p.terms[id].chain {
		r.idx[j] = int32(s.vars[vid].idx)
	}
}

func (s *State) topicBytes() []byte {
	if string(s.topic) != s.in.Topic {
		s.topic = append(s.topic[:0], s.in.Topic...)
	}
	return s.topic
}

func (s *State) typeBytes() []byte {
	t := s.in.Type
	if t == "" {
		t = s.p.plan.Type
	}
	if string(s.typ) != t {
		s.typ = append(s.typ[:0], t...)
	}
	return s.typ
}

// Values appends the values of the terms the last Match read, in the
// order of Terms, to dst: each field path with its [*] and ranges made
// concrete by the element read last (for any and all, the element that
// decided). Terms the evaluation did not reach (after a false &&) and
// fields the message lacks are left out.
func (s *State) Values(dst []Value) []Value {
	for id := range s.rec {
		r := &s.rec[id]
		if !r.set {
			continue
		}
		v := r.v
		if r.fast {
			v = scalarVal(r.vk, r.bits)
		}
		if v.k == vNone {
			continue
		}
		t := &s.p.terms[id]
		name := t.name
		if len(t.chain) > 0 {
			var b []byte
			from := 0
			for j, br := range t.brackets {
				b = append(b, name[from:br[0]]...)
				b = append(b, '[')
				b = strconv.AppendInt(b, int64(r.idx[j]), 10)
				b = append(b, ']')
				from = br[1]
			}
			name = string(append(b, name[from:]...))
		}
		dst = append(dst, v.export(name))
	}
	return dst
}
