package query

import (
	"context"
	"sort"
	"sync"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg/expr"
	"github.com/bagscope/bagscope/model"
)

// OrderedHits reads the messages of s that f selects (of the connections c
// searches) in time order and calls fn with each hit as it comes, with the
// message it was found in (valid during the call only), until fn returns
// an error: the hits of a search that found too many to hold
// (Result.Spilled), in bounded memory. The expression is evaluated on the
// goroutines that read the messages where s reads in parallel; the one
// that orders them evaluates it again on the hits only, for their values.
// A message the expression fails on is not a hit (the search counted it).
// It returns fn's error, the read's, or ctx's when cancelled.
func (c *Compiled) OrderedHits(ctx context.Context, s bag.Storage, f bag.MessageFilter, clock *ClockIndex, fn func(h *Hit, m *bag.Message) error) error {
	start, _ := model.TimeRange(s)
	matchers := sync.Pool{New: func() any { return c.NewMatcher(start, clock) }}
	// Prepared: one byte for a hit, none for a miss.
	prep := func(m *bag.Message, dst []byte) ([]byte, bool) {
		mt := matchers.Get().(*Matcher)
		ok, _, err := mt.Match(m, nil)
		mt.in.Data = nil
		matchers.Put(mt)
		if ok && err == nil {
			dst = append(dst, 1)
		}
		return dst, true
	}
	it := bag.PreparedMessages(s, bag.MessageFilter{Conns: c.conns, Start: f.Start, End: f.End}, prep)
	defer it.Close()
	mt := c.NewMatcher(start, clock)
	var vals []expr.Value
	for n := 0; it.Next(); n++ {
		if n&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if p, done := it.Prepared(); done && len(p) == 0 {
			continue
		}
		m := it.Message()
		var ok bool
		var err error
		ok, vals, err = mt.Match(m, vals[:0])
		if !ok || err != nil {
			continue
		}
		h := Hit{Topic: m.Conn.Topic, Conn: m.Conn.ID, Time: m.Time, Publish: m.PublishTime, Loc: m.Loc, Values: vals}
		if err := fn(&h, m); err != nil {
			return err
		}
	}
	return it.Err()
}

// firstNames records where each value name first appears among hits, so
// that a table of hits that were not all held still has its columns in
// the order they first appear in time order.
type firstNames map[string]nameAt

type nameAt struct {
	time          bag.Time
	block, offset int64
	i             int
}

func (a nameAt) before(b nameAt) bool {
	switch {
	case a.time != b.time:
		return a.time.Before(b.time)
	case a.block != b.block:
		return a.block < b.block
	case a.offset != b.offset:
		return a.offset < b.offset
	}
	return a.i < b.i
}

func (fn firstNames) note(h *Hit) {
	for i, v := range h.Values {
		at := nameAt{h.Time, int64(h.Loc.Block), int64(h.Loc.Offset), i}
		if old, ok := fn[v.Name]; !ok || at.before(old) {
			fn[v.Name] = at
		}
	}
}

func (fn firstNames) ordered() []string {
	names := make([]string, 0, len(fn))
	for n := range fn {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool { return fn[names[i]].before(fn[names[j]]) })
	return names
}
