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

// AddVisitedStampFindings is AddStampFindings for a doctor that decodes
// the payloads itself and handed sc every message as it read them: sc's
// findings are taken when they are those of a read (StampsAsRead), else
// the stamps take a pass of their own.
func AddVisitedStampFindings(ctx context.Context, rep *bag.CheckReport, s bag.Storage, sc *StampCheck) (*bag.CheckReport, error) {
	if sc == nil || !StampsAsRead(rep) {
		return AddStampFindings(ctx, rep, s)
	}
	rep.Findings = append(rep.Findings, sc.Findings()...)
	sort.SliceStable(rep.Findings, func(i, j int) bool { return rep.Findings[i].Offset < rep.Findings[j].Offset })
	return rep, nil
}

// StampsAsRead reports whether a StampCheck the doctor that made rep
// visited says what one of a read (VisitMessages) would: the doctor handed
// on every message (rep.Visited), found each connection's in time order in
// the file (rep.Ordered: the stamps then follow one another as in a read)
// and found nothing wrong (no warning or error), so a read through the
// index meets the messages the doctor's walk met.
func StampsAsRead(rep *bag.CheckReport) bool {
	if !rep.Visited || !rep.Ordered {
		return false
	}
	for _, f := range rep.Findings {
		if f.Severity >= bag.Warning {
			return false
		}
	}
	return true
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
