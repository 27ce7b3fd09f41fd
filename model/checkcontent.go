package model

import (
	"context"
	"sort"

	"github.com/bagscope/bagscope/bag"
)

// Visitors returns a message visitor that hands each message to every fn.
func Visitors(fns ...func(m *bag.Message)) func(m *bag.Message) {
	return func(m *bag.Message) {
		for _, fn := range fns {
			fn(m)
		}
	}
}

// AddContentFindings adds to rep the findings of decoding every message of
// s (pc's, see AddPayloadFindings) and of their header stamps (sc's): from
// what the doctor that made rep handed them (rep.Visited), else from one
// pass of their own.
func AddContentFindings(ctx context.Context, rep *bag.CheckReport, s bag.Storage, pc *PayloadCheck, sc *StampCheck) (*bag.CheckReport, error) {
	if pc == nil || !rep.Visited {
		pc, sc = NewPayloadCheck(s), NewStampCheck(s)
		if err := bag.VisitMessages(ctx, s, bag.MessageFilter{}, Visitors(pc.Visit, sc.Visit)); err != nil {
			return rep, err
		}
	}
	rep.Findings = append(rep.Findings, pc.Findings()...)
	rep.Undecoded += pc.Undecoded()
	rep.Findings = append(rep.Findings, sc.Findings()...)
	sort.SliceStable(rep.Findings, func(i, j int) bool { return rep.Findings[i].Offset < rep.Findings[j].Offset })
	return rep, nil
}

// AddStampFindings adds to rep the findings of the header stamps of s's
// messages, read in a pass of their own over the connections that have
// them (for a doctor that decodes the payloads itself).
func AddStampFindings(ctx context.Context, rep *bag.CheckReport, s bag.Storage) (*bag.CheckReport, error) {
	sc := NewStampCheck(s)
	if ids := sc.Conns(); len(ids) > 0 {
		if err := bag.VisitMessages(ctx, s, bag.MessageFilter{Conns: ids}, sc.Visit); err != nil {
			return rep, err
		}
	}
	rep.Findings = append(rep.Findings, sc.Findings()...)
	sort.SliceStable(rep.Findings, func(i, j int) bool { return rep.Findings[i].Offset < rep.Findings[j].Offset })
	return rep, nil
}
