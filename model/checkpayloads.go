package model

import (
	"context"
	"fmt"
	"sort"

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
// that does not decode or does not consume exactly its bytes, and for each
// connection whose definition cannot be compiled. Messages of encodings
// bagscope does not decode are not findings.
func CheckPayloads(ctx context.Context, s bag.Storage) ([]bag.Finding, error) {
	var cache rosmsg.Cache
	type connState struct {
		plan *rosmsg.Plan
		bad  int
	}
	conns := map[uint32]*connState{}
	var out []bag.Finding
	for _, c := range s.Connections() {
		st := &connState{}
		conns[c.ID] = st
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
	it := s.Messages(bag.MessageFilter{})
	defer it.Close()
	for n := 0; it.Next(); n++ {
		if n&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return out, err
			}
		}
		m := it.Message()
		st := conns[m.Conn.ID]
		if st == nil || st.plan == nil {
			continue
		}
		err := st.plan.Validate(m.Data)
		if err == nil {
			continue
		}
		if st.bad++; st.bad > maxPayloadFindings {
			continue
		}
		out = append(out, bag.Finding{Severity: bag.Error, Offset: m.Loc.Block, Record: "message",
			Message: fmt.Sprintf("message on %s at %s (record at %d in the chunk or record at %d) does not decode as %s: %v", m.Conn.Topic, m.Time, m.Loc.Offset, m.Loc.Block, m.Conn.Type, err)})
	}
	if err := it.Err(); err != nil {
		return out, err
	}
	for _, c := range s.Connections() {
		if st := conns[c.ID]; st.bad > maxPayloadFindings {
			out = append(out, bag.Finding{Severity: bag.Error, Offset: c.Offset, Record: "connection",
				Message: fmt.Sprintf("%s: %d more messages do not decode as %s", c.Topic, st.bad-maxPayloadFindings, c.Type)})
		}
	}
	return out, nil
}
