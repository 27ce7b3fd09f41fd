package model

import (
	"context"

	"github.com/bagscope/bagscope/model/stats"
)

// ComputeStats computes every topic's and connection's statistics from
// the index's sorted times. Its memory is proportional to the topics (and
// their gaps), not the messages: each figure comes from passes over the
// index, the medians from a radix selection over the intervals that keeps
// only a histogram. It stops with ctx's error.
func ComputeStats(ctx context.Context, x *MessageIndex) (*stats.Set, error) {
	set := &stats.Set{Topics: map[string]*stats.Topic{}, Conns: map[uint32]*stats.Topic{}}
	sc := stats.NewComputer()
	for _, t := range x.Topics {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		ts := sc.Of(t.All(), false, 0)
		set.Topics[t.Topic] = ts
		if t.Len() == 0 {
			continue
		}
		multi := false
		first := t.At(0).Conn
		for _, r := range t.All() {
			if r.Conn != first {
				multi = true
				break
			}
		}
		if !multi {
			set.Conns[first] = ts
			continue
		}
		for _, r := range t.All() {
			if set.Conns[r.Conn] == nil {
				set.Conns[r.Conn] = sc.Of(t.All(), true, r.Conn)
			}
		}
	}
	return set, nil
}
