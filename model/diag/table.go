package diag

import (
	"context"
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// Table is the statuses at one time: each status's latest report at or
// before it.
type Table struct {
	// At is the time (receive time); zero for each status's latest
	// report in the recording.
	At bag.Time
	// Rows are the statuses, by topic then name.
	Rows []Status
	Unread
}

// TableAt reads the statuses at receive time at (zero: each status's
// latest report). With h, the history of the same recording, it reads
// only the time buckets that hold each status's latest report
// (h.ReadRanges), however long ago it was; without, from the start. A
// read that stops returns the table so far with the error.
func TableAt(ctx context.Context, st bag.Storage, h *History, at bag.Time, opt Options) (*Table, error) {
	t := &Table{At: at}
	filters := []bag.MessageFilter{{End: at}}
	if h != nil && !at.IsZero() {
		filters = filters[:0]
		for _, r := range h.ReadRanges(at.Nanos()) {
			filters = append(filters, bag.MessageFilter{Start: bag.TimeFromNanos(max(r[0], 0)), End: bag.TimeFromNanos(r[1])})
		}
		if len(filters) == 0 && len(Connections(st)) == 0 {
			return nil, ErrNoDiagnostics
		}
	}
	latest := map[Key]int{}
	var err error
	for _, f := range filters {
		if f.End.IsZero() && !at.IsZero() {
			continue // a range before the epoch's first nanosecond
		}
		err = each(ctx, st, f, opt, &t.Unread, func(_ *bag.Message, s Status) {
			if i, ok := latest[s.Key()]; ok {
				t.Rows[i] = s
				return
			}
			latest[s.Key()] = len(t.Rows)
			t.Rows = append(t.Rows, s)
		})
		if err != nil {
			break
		}
	}
	if err == ErrNoDiagnostics {
		return nil, err
	}
	sort.SliceStable(t.Rows, func(i, j int) bool {
		a, b := t.Rows[i], t.Rows[j]
		if a.Topic != b.Topic {
			return a.Topic < b.Topic
		}
		return a.Name < b.Name
	})
	return t, err
}

// Filter selects rows: by level (none set: every level) and by a
// substring of the name (any case).
type Filter struct {
	Levels map[Level]bool
	Name   string
}

// Match reports whether s passes the filter.
func (f Filter) Match(s *Status) bool {
	if len(f.Levels) > 0 && !f.Levels[s.Level] {
		return false
	}
	return f.Name == "" || strings.Contains(strings.ToLower(s.Name), strings.ToLower(f.Name))
}

// Filtered is the rows that pass f.
func (t *Table) Filtered(f Filter) []Status {
	var out []Status
	for i := range t.Rows {
		if f.Match(&t.Rows[i]) {
			out = append(out, t.Rows[i])
		}
	}
	return out
}

// Counts is how many rows have each level.
func (t *Table) Counts() map[Level]int {
	c := map[Level]int{}
	for _, r := range t.Rows {
		c[r.Level]++
	}
	return c
}
