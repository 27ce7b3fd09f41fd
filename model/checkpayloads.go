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
// bytes. progress may be nil.
func CheckStorage(ctx context.Context, s bag.Storage, progress func(done, total int64)) (*bag.CheckReport, error) {
	rep, err := s.Check(ctx, progress)
	if err != nil || bag.QuickCheck(ctx) {
		return rep, err
	}
	if pc, ok := bag.Underlying(s).(payloadChecker); ok && pc.ChecksPayloads() {
		return rep, nil
	}
	fs, err := CheckPayloads(ctx, s)
	if err != nil {
		return rep, err
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
	var cache rosmsg.Cache
	type badMsg struct {
		t     bag.Time
		loc   bag.Loc
		topic string
		typ   string
		err   error
	}
	type connState struct {
		plan *rosmsg.Plan
		bad  int
		// first are the earliest bad messages, by time then location.
		first []badMsg
	}
	earliest := func(b []badMsg) []badMsg {
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
	// The states by connection ID, in a slice when the IDs are small (a
	// map lookup per message costs more than its decoding's 5%).
	conns := map[uint32]*connState{}
	var byID []*connState
	var out []bag.Finding
	for _, c := range s.Connections() {
		st := &connState{}
		conns[c.ID] = st
		if c.ID < 1<<16 {
			if int(c.ID) >= len(byID) {
				byID = append(byID, make([]*connState, int(c.ID)+1-len(byID))...)
			}
			byID[c.ID] = st
		}
		p, err := planFor(&cache, c)
		switch {
		case err == nil:
			st.plan = p
		case c.Definition == "" && (c.Encoding == "cdr" || c.Encoding == "ros1"):
			out = append(out, bag.Finding{Severity: bag.Warning, Offset: c.Offset, Record: "connection",
				Message: fmt.Sprintf("%s (%s): %s", c.Topic, c.Type, MissingDefinitionHint(c))})
		case c.Definition != "":
			out = append(out, bag.Finding{Severity: bag.Error, Offset: c.Offset, Record: "connection",
				Message: fmt.Sprintf("%s (%s): the message definition does not compile: %v", c.Topic, c.Type, err)})
		}
	}
	var mu sync.Mutex // guards the states' bad and first
	err := bag.VisitMessages(ctx, s, bag.MessageFilter{}, func(m *bag.Message) {
		var st *connState
		if id := m.Conn.ID; int(id) < len(byID) {
			st = byID[id]
		} else {
			st = conns[id]
		}
		if st == nil || st.plan == nil {
			return
		}
		err := st.plan.Validate(m.Data)
		if err == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		st.bad++
		st.first = append(st.first, badMsg{m.Time, m.Loc, m.Conn.Topic, m.Conn.Type, err})
		if len(st.first) > 4*maxPayloadFindings {
			st.first = earliest(st.first)
		}
	})
	for _, c := range s.Connections() {
		st := conns[c.ID]
		for _, b := range earliest(st.first) {
			out = append(out, bag.Finding{Severity: bag.Error, Offset: b.loc.Block, Record: "message",
				Message: fmt.Sprintf("message on %s at %s (record at %d in the chunk or record at %d) does not decode as %s: %v", b.topic, b.t, b.loc.Offset, b.loc.Block, b.typ, b.err)})
		}
		if st.bad > maxPayloadFindings {
			out = append(out, bag.Finding{Severity: bag.Error, Offset: c.Offset, Record: "connection",
				Message: fmt.Sprintf("%s: %d more messages do not decode as %s", c.Topic, st.bad-maxPayloadFindings, c.Type)})
		}
	}
	return out, err
}
