package diag

import (
	"context"
	"sort"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
)

// Span is one level of a status over Start..End (receive times,
// nanoseconds; End exclusive), with the message of the report that began
// it.
type Span struct {
	Start, End int64
	Level      Level
	Message    string
}

// Track is one status's history: its level over time, and what bounds the
// read of its latest report at a time.
type Track struct {
	Key
	HardwareID string
	// Spans are its levels, one per change, the last ending just after
	// the recording's end (End is exclusive), or, where the status
	// stopped reporting (no report for more than twice its longest
	// interval before the end), one longest interval after its last
	// report.
	Spans []Span
	// First and Last are its first and last report's receive times;
	// MaxGap the longest time between two of its reports.
	First, Last, MaxGap int64
	Reports             uint64
	// buckets are the time buckets it reported in (statusIndex).
	buckets []uint64
}

// History is every status's level over the recording.
type History struct {
	// Tracks are the statuses, by topic then name.
	Tracks []*Track
	// Topics are the diagnostics topics.
	Topics []string
	// End is the recording's end (nanoseconds): the last spans end just
	// after it.
	End int64
	Unread
	// index finds the buckets holding each status's latest report at a
	// time (ReadRanges).
	index statusIndex
}

// ReadHistory reads every diagnostics message of st once and returns each
// status's levels over time. A read that stops returns the history so far
// with the error.
func ReadHistory(ctx context.Context, st bag.Storage, opt Options) (*History, error) {
	h := &History{Topics: Topics(st), End: recordingEnd(st)}
	start, _ := model.TimeRange(st)
	h.index = statusIndex{start: start.Nanos(), width: max((h.End-start.Nanos())/indexBuckets+1, 1)}
	byKey := map[Key]*Track{}
	err := each(ctx, st, bag.MessageFilter{}, opt, &h.Unread, func(m *bag.Message, s Status) {
		t := m.Time.Nanos()
		tr := byKey[s.Key()]
		if tr == nil {
			tr = &Track{Key: s.Key(), First: t, Last: t}
			byKey[s.Key()] = tr
			h.Tracks = append(h.Tracks, tr)
		}
		tr.MaxGap = max(tr.MaxGap, t-tr.Last)
		tr.Last = t
		tr.Reports++
		h.index.mark(tr, t)
		tr.HardwareID = s.HardwareID
		if n := len(tr.Spans); n == 0 || tr.Spans[n-1].Level != s.Level {
			if n > 0 {
				tr.Spans[n-1].End = t
			}
			tr.Spans = append(tr.Spans, Span{Start: t, Level: s.Level, Message: s.Message})
		}
	})
	if err == ErrNoDiagnostics {
		return nil, err
	}
	for _, tr := range h.Tracks {
		if n := len(tr.Spans); n > 0 {
			tr.Spans[n-1].End = tr.holdsUntil(h.End)
		}
	}
	sort.Slice(h.Tracks, func(i, j int) bool {
		a, b := h.Tracks[i], h.Tracks[j]
		if a.Topic != b.Topic {
			return a.Topic < b.Topic
		}
		return a.Name < b.Name
	})
	return h, err
}

// holdsUntil is where the track's last span ends (exclusive) in a
// recording that ends at end: just after the end, unless the status
// stopped reporting (no report for more than twice its longest interval
// before the end), where it ends one longest interval after its last
// report, so that the lane shows it stopped.
func (tr *Track) holdsUntil(end int64) int64 {
	if tr.Reports > 1 && end-tr.Last > 2*tr.MaxGap {
		return tr.Last + tr.MaxGap
	}
	return max(end, tr.Last) + 1
}

// Stopped reports whether the status stopped reporting before the
// recording's end (see Spans).
func (tr *Track) Stopped(end int64) bool { return tr.holdsUntil(end) <= end }

// Track returns the track of k, or nil.
func (h *History) Track(k Key) *Track {
	for _, t := range h.Tracks {
		if t.Key == k {
			return t
		}
	}
	return nil
}

// LevelAt returns the track's level at receive time t (nanoseconds), and
// false before its first report.
func (tr *Track) LevelAt(t int64) (Span, bool) {
	k := sort.Search(len(tr.Spans), func(k int) bool { return tr.Spans[k].End > t })
	if k < len(tr.Spans) && tr.Spans[k].Start <= t {
		return tr.Spans[k], true
	}
	return Span{}, false
}

// WindowStart is the earliest receive time (nanoseconds) that can hold the
// latest report at or before t of any status reported by then: for a
// status still reporting at t, t less its longest gap; for one that
// stopped, its last report.
func (h *History) WindowStart(t int64) int64 {
	start := t
	for _, tr := range h.Tracks {
		switch {
		case tr.First > t:
		case tr.Last <= t:
			start = min(start, tr.Last)
		default:
			start = min(start, t-tr.MaxGap)
		}
	}
	return start
}

// Lanes are the statuses' timeline lanes: each status's levels, coloured
// by level, titled with its name (and topic, where there are several).
func (h *History) Lanes() []model.StateLane {
	lanes := make([]model.StateLane, 0, len(h.Tracks))
	for _, tr := range h.Tracks {
		l := model.StateLane{Name: h.Title(tr.Key)}
		for _, s := range tr.Spans {
			text := s.Level.String()
			if s.Message != "" {
				text += ": " + s.Message
			}
			l.Spans = append(l.Spans, model.StateSpan{Start: s.Start, End: s.End, Tone: s.Level.Tone(), Text: text})
		}
		lanes = append(lanes, l)
	}
	return lanes
}

// Title is how a status is named where all are listed: its name, after
// its topic where another topic reports a status of the same name.
func (h *History) Title(k Key) string {
	for _, tr := range h.Tracks {
		if tr.Name == k.Name && tr.Topic != k.Topic {
			return k.Topic + ": " + k.Name
		}
	}
	return k.Name
}
