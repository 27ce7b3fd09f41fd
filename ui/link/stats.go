package link

import (
	"context"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/stats"
)

// WithStats calls f on the UI goroutine with the window's topic
// statistics (for the Topics tab and the timeline's gap marks), computing
// them in the background from the message index the first time they are
// asked for.
func (l *Hub) WithStats(f func(*stats.Set)) {
	if l.stats != nil {
		f(l.stats)
		return
	}
	l.statsWaiters = append(l.statsWaiters, f)
	if l.computing {
		return
	}
	l.computing = true
	l.WithIndex(func(x *model.MessageIndex) {
		var set *stats.Set
		l.Go(func(ctx context.Context) {
			set, _ = model.ComputeStats(ctx, x)
		}, func() {
			if set == nil {
				return // cancelled: the window closed
			}
			l.stats = set
			waiters := l.statsWaiters
			l.statsWaiters = nil
			for _, w := range waiters {
				w(set)
			}
		})
	})
}
