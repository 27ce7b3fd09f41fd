package model

import "sort"

// A StateLane is a timeline lane of intervals coloured by state: a
// diagnostic status's level over time, an action goal's lifetime. It is
// the plain data a view hands the timeline (link.Link.SetStateLanes); the
// timeline draws each span in its tone's colour, says its Text on hover,
// and leaves the time outside every span empty.
//
// Spans are sorted by Start and do not overlap (Normalize makes them so).
type StateLane struct {
	// Name is the lane's title.
	Name  string
	Spans []StateSpan
}

// A StateSpan is one state over Start..End (nanoseconds since the
// epoch, Start inclusive, End exclusive).
type StateSpan struct {
	Start, End int64
	Tone       StateTone
	// Text says what the state is ("WARN: motor hot", "goal 3 ACTIVE").
	Text string
}

// StateTone is the colour class of a state, in rising order of concern:
// where several spans share a pixel the timeline draws the highest, so a
// short error is never hidden by the OK around it.
type StateTone uint8

// The tones. ToneNone is no state (nothing drawn).
const (
	ToneNone    StateTone = iota
	ToneNeutral           // a state with no judgement (a finished goal)
	ToneGood              // OK, succeeded
	ToneActive            // running, in progress
	ToneStale             // no fresh news (diagnostics STALE)
	ToneWarn              // WARN, cancelled
	ToneBad               // ERROR, aborted
)

// Normalize sorts the lane's spans by Start and cuts each at the next
// one's Start, so that they do not overlap; empty spans go.
func (l *StateLane) Normalize() {
	sort.SliceStable(l.Spans, func(i, j int) bool { return l.Spans[i].Start < l.Spans[j].Start })
	out := l.Spans[:0]
	for i, s := range l.Spans {
		if i+1 < len(l.Spans) && s.End > l.Spans[i+1].Start {
			s.End = l.Spans[i+1].Start
		}
		if s.End > s.Start {
			out = append(out, s)
		}
	}
	l.Spans = out
}

// At returns the span holding time t, if any.
func (l StateLane) At(t int64) (StateSpan, bool) {
	k := sort.Search(len(l.Spans), func(k int) bool { return l.Spans[k].End > t })
	if k < len(l.Spans) && l.Spans[k].Start <= t {
		return l.Spans[k], true
	}
	return StateSpan{}, false
}

// Columns is how the lane draws t0..t1 over cols pixel columns: each
// column's tone, the highest of the spans that overlap it (ToneNone where
// none does).
func (l StateLane) Columns(t0, t1 int64, cols int) []StateTone {
	if cols <= 0 || t1 <= t0 {
		return nil
	}
	out := make([]StateTone, cols)
	col := func(t int64) int {
		return int(float64(t-t0) / float64(t1-t0) * float64(cols))
	}
	k := sort.Search(len(l.Spans), func(k int) bool { return l.Spans[k].End > t0 })
	for ; k < len(l.Spans) && l.Spans[k].Start < t1; k++ {
		s := l.Spans[k]
		a := max(0, col(s.Start))
		b := min(cols-1, col(s.End-1))
		for c := a; c <= b; c++ {
			out[c] = max(out[c], s.Tone)
		}
	}
	return out
}

// NextChange returns the first span edge (a Start, or an End not followed
// at once by another span) of any lane strictly after t, when forward,
// or strictly before t otherwise.
func NextChange(lanes []StateLane, t int64, forward bool) (int64, bool) {
	best, found := int64(0), false
	take := func(e int64) {
		if forward && e > t && (!found || e < best) || !forward && e < t && (!found || e > best) {
			best, found = e, true
		}
	}
	for _, l := range lanes {
		for i, s := range l.Spans {
			take(s.Start)
			if i+1 == len(l.Spans) || l.Spans[i+1].Start != s.End {
				take(s.End)
			}
		}
	}
	return best, found
}
