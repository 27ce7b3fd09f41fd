package model

import (
	"context"
	"fmt"
	"sort"
	"sync"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// maxPayloadFindings is how many undecodable messages are reported per
// connection; the rest are counted in one more finding.
const maxPayloadFindings = 20

// payloadChecker is a Storage whose own Check already decodes every
// message against its definition (ROS 1's does).
type payloadChecker interface{ ChecksPayloads() bool }

// CheckStorage runs the doctor of s's format and, unless ctx asks for a
// quick check (bag.WithQuickCheck) or the format's doctor does it itself,
// decodes every message against its definition (CheckPayloads), adding a
// finding for each that does not decode or does not consume exactly its
// bytes, and (but for a quick check) looks at every header.stamp
// (StampCheck): stamps in 1970, in the future, going backwards. A doctor that reads every message anyway hands them to the
// decoding as it decompresses them (bag.WithMessageVisitor), so the file
// is read once. progress may be nil.
func CheckStorage(ctx context.Context, s bag.Storage, progress func(done, total int64)) (*bag.CheckReport, error) {
	if bag.QuickCheck(ctx) {
		return s.Check(ctx, progress)
	}
	if pc, ok := bag.Underlying(s).(payloadChecker); ok && pc.ChecksPayloads() {
		// The doctor decodes the payloads; it hands the stamps their
		// messages as it reads them, where it can.
		dctx := ctx
		var sc *StampCheck
		if bag.DoctorVisits(s) {
			sc = NewStampCheck(s)
			dctx = bag.WithMessageVisitor(ctx, sc.Visit)
		}
		rep, err := s.Check(dctx, progress)
		if err != nil {
			return rep, err
		}
		return AddVisitedStampFindings(ctx, rep, s, sc)
	}
	var pc *PayloadCheck
	var sc *StampCheck
	if _, multi := bag.Underlying(s).(*bag.MultiStorage); !multi {
		// The parts of a recording of several files number their
		// connections apart from the recording's: they are visited after.
		pc, sc = NewPayloadCheck(s), NewStampCheck(s)
		ctx = bag.WithMessageVisitor(ctx, bag.DecompressingVisitor(Visitors(pc.Visit, sc.Visit)))
	}
	rep, err := s.Check(ctx, progress)
	if err != nil {
		return rep, err
	}
	return AddContentFindings(ctx, rep, s, pc, sc)
}

// AddPayloadFindings adds to rep the findings of decoding every message of
// s: pc's, when the doctor that made rep handed it every message
// (rep.Visited), else those of a pass of their own (CheckPayloads).
func AddPayloadFindings(ctx context.Context, rep *bag.CheckReport, s bag.Storage, pc *PayloadCheck) (*bag.CheckReport, error) {
	var fs []bag.Finding
	if pc != nil && rep.Visited {
		fs = pc.Findings()
	} else {
		var err error
		if fs, err = CheckPayloads(ctx, s); err != nil {
			return rep, err
		}
	}
	rep.Findings = append(rep.Findings, fs...)
	sort.SliceStable(rep.Findings, func(i, j int) bool { return rep.Findings[i].Offset < rep.Findings[j].Offset })
	return rep, nil
}

// CheckPayloads decodes every message of s against its connection's
// definition (rosmsg.Plan.Validate: no tree is built) and returns a finding,
// with the offset of the chunk or record that holds it, for each message
// that does not decode or does not consume exactly its bytes (the first
// maxPayloadFindings of a connection in time order, then a count), and for
// each connection whose definition cannot be compiled. Messages of
// encodings bagscope does not decode are not findings. The messages are
// decoded where they are read (bag.VisitMessages): on every core, as each
// chunk is decompressed, for a format that reads chunks in parallel.
func CheckPayloads(ctx context.Context, s bag.Storage) ([]bag.Finding, error) {
	pc := NewPayloadCheck(s)
	err := bag.VisitMessages(ctx, s, bag.MessageFilter{}, pc.Visit)
	return pc.Findings(), err
}

// PayloadCheck decodes messages against their connections' definitions as
// they are handed to Visit, from any number of goroutines, and lists what
// did not decode (see CheckPayloads).
type PayloadCheck struct {
	s     bag.Storage
	conns map[uint32]*payloadConn
	// byID holds the states by connection ID when the IDs are small (a
	// map lookup per message costs more than its decoding's 5%).
	byID []*payloadConn
	list []*bag.Connection
	out  []bag.Finding // the definitions' findings
	mu   sync.Mutex    // guards the states' bad and first
}

type payloadConn struct {
	plan *rosmsg.Plan
	bad  int
	// first are the earliest bad messages, by time then location.
	first []badMsg
}

type badMsg struct {
	t     bag.Time
	loc   bag.Loc
	topic string
	typ   string
	err   error
}

func earliest(b []badMsg) []badMsg {
	sort.Slice(b, func(i, j int) bool {
		if b[i].t != b[j].t {
			return b[i].t.Before(b[j].t)
		}
		if b[i].loc.Block != b[j].loc.Block {
			return b[i].loc.Block < b[j].loc.Block
		}
		return b[i].loc.Offset < b[j].loc.Offset
	})
	return b[:min(len(b), maxPayloadFindings)]
}

// NewPayloadCheck compiles the definitions of s's connections.
func NewPayloadCheck(s bag.Storage) *PayloadCheck {
	var cache rosmsg.Cache
	p := &PayloadCheck{s: s, conns: map[uint32]*payloadConn{}, list: s.Connections()}
	for _, c := range p.list {
		st := &payloadConn{}
		p.conns[c.ID] = st
		if c.ID < 1<<16 {
			if int(c.ID) >= len(p.byID) {
				p.byID = append(p.byID, make([]*payloadConn, int(c.ID)+1-len(p.byID))...)
			}
			p.byID[c.ID] = st
		}
		plan, err := planFor(&cache, c)
		switch {
		case err == nil:
			st.plan = plan
		case c.Definition == "" && (c.Encoding == "cdr" || c.Encoding == "ros1"):
			p.out = append(p.out, bag.Finding{Severity: bag.Warning, Offset: c.Offset, Record: "connection",
				Message: fmt.Sprintf("%s (%s): %s", c.Topic, c.Type, MissingDefinitionHint(c))})
		case c.Definition != "":
			p.out = append(p.out, bag.Finding{Severity: bag.Error, Offset: c.Offset, Record: "connection",
				Message: fmt.Sprintf("%s (%s): the message definition does not compile: %v", c.Topic, c.Type, err)})
		}
	}
	return p
}

// Visit decodes m. It is safe for concurrent use.
func (p *PayloadCheck) Visit(m *bag.Message) {
	var st *payloadConn
	if id := m.Conn.ID; int(id) < len(p.byID) {
		st = p.byID[id]
	} else {
		st = p.conns[id]
	}
	if st == nil || st.plan == nil {
		return
	}
	err := st.plan.Validate(m.Data)
	if err == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	st.bad++
	st.first = append(st.first, badMsg{m.Time, m.Loc, m.Conn.Topic, m.Conn.Type, err})
	if len(st.first) > 4*maxPayloadFindings {
		st.first = earliest(st.first)
	}
}

// Undecoded counts the messages visited that did not decode.
func (p *PayloadCheck) Undecoded() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	var n uint64
	for _, c := range p.list {
		if st := p.conns[c.ID]; st != nil {
			n += uint64(st.bad)
		}
	}
	return n
}

// Findings lists the definitions that do not compile and the messages
// visited that did not decode.
func (p *PayloadCheck) Findings() []bag.Finding {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := append([]bag.Finding(nil), p.out...)
	for _, c := range p.list {
		st := p.conns[c.ID]
		for _, b := range earliest(st.first) {
			off := b.loc.Block
			if p.s != nil && bag.AsMulti(p.s) != nil {
				_, own := bag.SplitPart(off)
				off = own
			}
			out = append(out, bag.Finding{Severity: bag.Error, Offset: off, Record: "message",
				Message: fmt.Sprintf("message on %s at %s (%s) does not decode as %s: %v", b.topic, b.t, bag.Where(p.s, b.loc), b.typ, b.err)})
		}
		if st.bad > maxPayloadFindings {
			out = append(out, bag.Finding{Severity: bag.Error, Offset: c.Offset, Record: "connection",
				Message: fmt.Sprintf("%s: %d more messages do not decode as %s", c.Topic, st.bad-maxPayloadFindings, c.Type)})
		}
	}
	return out
}
