package model

import (
	"path/filepath"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
)

// MissingSpan is a file of a recording of several that its metadata
// names but that is not there: a named gap on the chunk lane, from the
// damage model's lost range of unit file (bag.DamageOf).
type MissingSpan struct {
	// Name is the file's base name: "wbag_2.db3".
	Name string
	// T0, T1 is the span it leaves, inside the timeline's Start..End
	// (nanoseconds); T0 == T1 when the span is not known (see
	// missingSpans): the view draws it as a narrow mark there.
	T0, T1 int64
	// Messages is what it lost, as every command counts it.
	Messages bag.Count
	// Text says it for people: "wbag_2.db3 is missing: 1,240 messages
	// lost (metadata.yaml counts them)".
	Text string
	// By names what counts the lost messages ("metadata.yaml"), or "".
	By string
}

// MissingText says what several missing files drawn at one place lost
// together (files that all end before the first file there sit at the
// timeline's start), short enough for a tooltip: "12 files missing
// (soccer_goal_0.mcap … soccer_goal_11.mcap): 249 messages lost
// (metadata.yaml counts them)"; one file's own Text.
func MissingText(gs []MissingSpan) string {
	switch len(gs) {
	case 0:
		return ""
	case 1:
		return gs[0].Text
	}
	sum := bag.Exactly(0)
	for _, g := range gs {
		sum = sum.Plus(g.Messages)
	}
	names := gs[0].Name + ", " + gs[1].Name
	if len(gs) > 2 {
		names = gs[0].Name + " … " + gs[len(gs)-1].Name
	}
	return human.Plural(uint64(len(gs)), "file") + " missing (" + names + "): " + lostWords(sum, gs[0].By)
}

// lostWords says a count lost and what counts it: "1,240 messages lost
// (metadata.yaml counts them)".
func lostWords(c bag.Count, by string) string {
	s := human.Messages(c) + " lost"
	if by != "" && (c.Bounded || c.Min > 0) {
		s += " (" + by + " counts them)"
	}
	return s
}

// missingSpans are the missing files of d, in file order, each placed
// where the damage model places it: metadata.yaml's own start and
// duration for the file where it gives them, else between its
// neighbours, from the end of the file before it to the start of the
// file after it.
//
// Where that span is not known the gap is a point, drawn as a narrow
// mark: a missing first file has no neighbour before it, so it sits at
// the start of the first file there (the timeline's start); a missing
// last file sits at the end of the last file there; and where the
// neighbours overlap in time (the file after starts before the one
// before ends) it sits at the end of the file before it, the damage
// model's First. A span metadata.yaml gives outside what was read is cut
// to the timeline's Start..End, so the gap stays at the edge it is past
// instead of stretching the axis of what was read.
func missingSpans(d *bag.Damage, start, end int64) []MissingSpan {
	if d == nil {
		return nil
	}
	var out []MissingSpan
	for _, r := range d.Ranges {
		if r.Unit != bag.UnitFile || r.Part >= 0 {
			continue
		}
		t0, t1 := r.First.Nanos(), r.Last.Nanos()
		if r.First.IsZero() {
			t0 = t1 // first of its files: no neighbour before it
		}
		if r.Last.IsZero() || t1 < t0 {
			t1 = t0
		}
		t0, t1 = min(max(t0, start), end), min(max(t1, start), end)
		name := filepath.Base(r.File)
		by := ""
		if d.Claim != nil {
			by = d.Claim.By
		}
		out = append(out, MissingSpan{Name: name, T0: t0, T1: t1, Messages: r.Messages, By: by,
			Text: name + " is missing: " + lostWords(r.Messages, by)})
	}
	return out
}
