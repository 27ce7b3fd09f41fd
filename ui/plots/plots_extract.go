package plots

import (
	"context"
	"sync"

	"fyne.io/fyne/v2"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/series"
)

// extractJob is a series waiting for its fields to be read: gen is the
// series' generation when it was queued (a later one means it was
// removed, cancelled or restarted since).
type extractJob struct {
	p   *plotPanel
	s   *plotSeries
	gen int
}

// current reports whether j is still wanted.
func (j extractJob) current() bool { return j.s.gen == j.gen }

// scheduleFlush starts the queued reads once the message index is built
// (at once when it is), unless a batch is being queued.
func (g *View) scheduleFlush() {
	if g.batching > 0 || g.flushPending {
		return
	}
	g.flushPending = true
	g.l.WithIndex(func(*model.MessageIndex) {
		g.flushPending = false
		g.flush()
	})
}

// batch runs f, which queues reads, and starts them together after it, so
// that the fields of one topic f asks for are read in one pass.
func (g *View) batch(f func()) {
	g.batching++
	f()
	g.batching--
	if g.batching == 0 && len(g.queue) > 0 {
		g.scheduleFlush()
	}
}

// flush starts the queued reads: the series whose fields are all on one
// topic are read together, one pass per topic (a topic's messages are
// decoded once, and a single pass holds one set of columns in growth at
// a time); a series over several topics is read on its own.
func (g *View) flush() {
	jobs := g.queue
	g.queue = nil
	var groups [][]extractJob
	byTopic := map[string]int{}
	for _, j := range jobs {
		if !j.current() {
			continue
		}
		topic, one := "", true
		for _, f := range j.s.fields() {
			if topic != "" && f.Topic != topic {
				one = false
			}
			topic = f.Topic
		}
		if i, ok := byTopic[topic]; ok && one {
			groups[i] = append(groups[i], j)
			continue
		}
		if one {
			byTopic[topic] = len(groups)
		}
		groups = append(groups, []extractJob{j})
	}
	for _, grp := range groups {
		g.read(grp)
	}
}

// read extracts the fields of a group of series in one pass and hands each
// its series. The pass is cancelled when every series of the group has
// been stopped.
func (g *View) read(grp []extractJob) {
	ctx, cancel := context.WithCancel(g.l.Context())
	// Compact times: about 12 bytes a point instead of 16 (plot/column).
	// A field with more messages than plotMaxPoints is kept reduced (see
	// plotdetail.go); the operands of derived series and XY paths whole.
	req := series.Request{Base: g.base, Clock: g.clockOrNil(), Compact: true, MaxPoints: plotMaxPoints, Distrust: g.l.Doc().Distrust()}
	from := make([]int, len(grp)+1) // job k's fields are req.Fields[from[k]:from[k+1]]
	live := len(grp)
	for k, j := range grp {
		for _, f := range j.s.fields() {
			req.Fields = append(req.Fields, f)
			req.Whole = append(req.Whole, j.s.isDerived() || j.s.isXY())
		}
		from[k+1] = len(req.Fields)
		j.s.cancel = func() {
			if live--; live == 0 {
				cancel()
			}
		}
	}
	progress := func(done, total int64, _ string) {
		fyne.Do(func() {
			for _, j := range grp {
				if j.current() {
					j.s.done, j.s.total = done, total
					j.p.showProgress()
				}
			}
		})
	}
	var mu sync.Mutex
	var set *series.Set
	var err error
	g.l.Go(func(context.Context) {
		r, e := series.Extract(ctx, g.l.Doc().Storage, &g.cache, req, progress)
		mu.Lock()
		set, err = r, e
		mu.Unlock()
	}, func() {
		cancel()
		mu.Lock()
		defer mu.Unlock()
		for k, j := range grp {
			if !j.current() {
				continue // removed, cancelled or restarted meanwhile
			}
			var mine []*series.Series
			if err == nil {
				for i, f := range set.Field {
					if f >= from[k] && f < from[k+1] {
						mine = append(mine, set.Series[i])
					}
				}
			}
			j.p.finish(j.s, mine, err)
		}
		if err == nil {
			// What this read skipped marks its units for every view (and
			// reads these series again, marked, when it is news).
			g.l.LearnDamage(set.Skipped)
		}
	})
}
