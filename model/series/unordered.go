package series

import (
	"context"
	"sync"
	"sync/atomic"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// ExtractUnordered is Extract for a caller that summarises the points
// without needing their order (plot --stats: a count, the extremes, an
// exact sum): the fields are read on the goroutines that decompress the
// chunks (bag.VisitMessagesSkipped), every core busy, with no time-ordered
// merge. A point sink made by newSink has one caller at a time, so it
// needs no lock; newSink is called whenever the reading goroutines need
// another (at least once each, more when the garbage collector empties
// their pool), and the caller merges what every sink it made gathered
// once ExtractUnordered returns. A sink is handed each point's field
// (index in req.Fields), series, time and value, as req.Points is.
//
// The Set's series count their Points and Missing as Extract's do and keep
// none; Skipped lists the ranges the visit could not read (in no
// particular order); LostMessages stays 0. On the clock time base the
// reading goroutines share req.Clock, whose At must be safe for
// concurrent use (query.ClockIndex's is: it only reads), and the series
// count BeforeClock as Extract's do. Where the order matters or the
// visit would not run in parallel, it is Extract in time order with one
// sink: for a path of several elements (their series are made in the
// order the elements first appear), a remote file (the ordered read
// fetches its window ahead) and a storage that does not visit in parallel
// (bag.ParallelVisit), where Extract reads the fields on the workers while
// this would read them on one goroutine. req.Points is ignored.
//
// The messages that progress counts up to are counted from the index
// (Blocks: on MCAP every chunk's message index records) on a goroutine
// of its own beside the read, or not at all when progress is nil, so
// that the count costs the read no wall time.
func ExtractUnordered(ctx context.Context, b bag.Storage, cache *rosmsg.Cache, req Request,
	newSink func() func(field int, s *Series, t int64, v float64), progress func(done, total int64, stage string)) (*Set, error) {
	ordered := func() (*Set, error) {
		sink := newSink()
		req.Points = sink
		return Extract(ctx, b, cache, req, progress)
	}
	if req.Base == ClockTime && req.Clock == nil || !bag.ParallelVisit(b) || bag.TransferOf(b).Remote {
		return ordered()
	}
	req.MaxPoints, req.KeepIndex, req.Compact, req.Points = 0, false, false, nil
	byConn, topics, sinks, err := slotsFor(b, cache, req)
	if err != nil {
		return nil, err
	}
	series := make([]*Series, len(sinks))
	for i, r := range sinks {
		if r.fixed == nil {
			return ordered()
		}
		series[i] = r.fixed
	}
	set := &Set{Base: req.Base}
	set.BagStart, set.BagEnd = timeRange(b)
	f := bag.MessageFilter{Topics: topics, Start: req.Start, End: req.End}
	lo, hi := int64(-1<<63), int64(1<<63-1)
	if !req.Start.IsZero() {
		lo = req.Start.Nanos()
	}
	if !req.End.IsZero() {
		hi = req.End.Nanos()
	}
	var (
		total   atomic.Int64 // the index's count, once counted
		counted sync.WaitGroup
	)
	if progress != nil {
		counted.Go(func() { total.Store(messageCount(b, f, byConn)) })
	}

	var (
		mu      sync.Mutex // guards workers and progress's calls
		workers []*visitWorker
		done    atomic.Int64 // messages, counted by the workers 1024 at a time
	)
	pool := sync.Pool{New: func() any {
		w := &visitWorker{sink: newSink(), series: series, clock: req.Clock,
			points: make([]int, len(sinks)), missing: make([]int, len(sinks)), noClock: make([]int, len(sinks))}
		mu.Lock()
		workers = append(workers, w)
		mu.Unlock()
		return w
	}}
	visit := func(m *bag.Message) {
		recv := m.Time.Nanos()
		if recv < lo || recv > hi {
			return
		}
		w := pool.Get().(*visitWorker)
		if w.n++; w.n&1023 == 0 {
			if n := done.Add(1024); progress != nil && n&16383 == 0 {
				mu.Lock()
				progress(n, total.Load(), StageExtract)
				mu.Unlock()
			}
		}
		if cs := byConn[m.Conn.ID]; cs != nil {
			w.message(cs, req.Base, m, recv)
		}
		pool.Put(w)
	}
	skipped, err := bag.VisitMessagesSkipped(ctx, b, f, visit)
	counted.Wait()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	points, missing, noClock := make([]int, len(sinks)), make([]int, len(sinks)), make([]int, len(sinks))
	for _, w := range workers {
		set.Messages += w.n
		for i := range sinks {
			points[i] += w.points[i]
			missing[i] += w.missing[i]
			noClock[i] += w.noClock[i]
		}
	}
	for i, r := range sinks {
		r.fixed.Points, r.fixed.Missing, r.fixed.BeforeClock = points[i], missing[i], noClock[i]
		set.Series = append(set.Series, r.fixed)
		set.Field = append(set.Field, i)
	}
	set.Skipped = skipped
	if progress != nil {
		progress(set.Messages, max(total.Load(), set.Messages), StageExtract)
	}
	return set, nil
}

// visitWorker is one reading goroutine's share of ExtractUnordered: its
// sink and, per field, the points it handed on, the messages the field
// could not be read from and those received before the first /clock
// (ClockTime). It is the rosmsg Sink its walks call.
type visitWorker struct {
	sink    func(field int, s *Series, t int64, v float64)
	series  []*Series // by field
	clock   Clock     // the ClockTime base's
	n       int64     // messages
	points  []int
	missing []int
	noClock []int
	name    []byte
	// The value being walked.
	field int
	t     int64
	got   int
}

// Value hands a walked value to the sink.
func (w *visitWorker) Value(_ []byte, v float64) {
	w.got++
	w.points[w.field]++
	w.sink(w.field, w.series[w.field], w.t, v)
}

// message reads one message's fields as Extract's loop does.
func (w *visitWorker) message(cs *connSlots, base TimeBase, m *bag.Message, recv int64) {
	t, stamp := recv, int64(0)
	if cs.needStamp {
		var err error
		if stamp, err = cs.stamp.Nanos(m.Data); err != nil {
			for _, sl := range cs.slots {
				w.missing[sl.r.field]++
			}
			return
		}
		if base == HeaderStamp {
			t = stamp
		}
	}
	switch base {
	case PublishTime:
		t = m.PublishTime.Nanos()
	case ClockTime:
		var ok bool
		if t, ok = w.clock.At(recv); !ok {
			for _, sl := range cs.slots {
				w.noClock[sl.r.field]++
			}
			return
		}
	}
	for _, sl := range cs.slots {
		w.field, w.t, w.got = sl.r.field, t, 0
		if sl.sel == nil {
			w.Value(nil, float64(stamp-recv)/1e9)
			continue
		}
		w.name = append(w.name[:0], sl.r.ref.Topic...)
		w.name = append(w.name, '.')
		var err error
		w.name, err = sl.sel.Walk(m.Data, w.name, w)
		if err != nil || w.got == 0 {
			w.missing[sl.r.field]++
		}
	}
}

// messageCount is the number of messages the index counts for byConn's
// connections in the blocks f reads, as reserve's total.
func messageCount(b bag.Storage, f bag.MessageFilter, byConn map[uint32]*connSlots) int64 {
	var total int64
	for _, blk := range b.Blocks() {
		if !f.End.IsZero() && f.End.Before(blk.Start) || !f.Start.IsZero() && blk.End.Before(f.Start) {
			continue
		}
		for conn, n := range blk.Counts {
			if byConn[conn] != nil {
				total += int64(n)
			}
		}
	}
	return total
}
