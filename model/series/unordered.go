package series

import (
	"context"
	"sort"
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
// count BeforeClock as Extract's do. A path of several elements makes
// its series as the reading goroutines meet the elements, and orders them
// after the read as Extract does, in the order the elements first appear
// in the time-ordered read: each element's first message in that order
// (receive time, then place in the file, as the MCAP reader merges its
// chunks) and its place in that message's walk; a recording of several
// files, whose order this does not know, is read in time order. Where the
// visit would not run in parallel, it is Extract in time order with one
// sink: a remote file (the ordered read fetches its window ahead) and a
// storage that does not visit in parallel (bag.ParallelVisit), where
// Extract reads the fields on the workers while this would read them on
// one goroutine. req.Points is ignored.
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
	elems := make([]*elementSeries, len(sinks))
	for i, r := range sinks {
		if r.fixed == nil {
			if bag.AsMulti(b) != nil {
				return ordered()
			}
			elems[i] = &elementSeries{r: r, byName: map[string]*Series{}}
			continue
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
		w := &visitWorker{sink: newSink(), series: series, elems: elems, seen: make([]map[string]*seenElement, len(sinks)), clock: req.Clock,
			points: make([]int, len(sinks)), missing: make([]int, len(sinks)), noClock: make([]int, len(sinks))}
		for i, e := range elems {
			if e != nil {
				w.seen[i] = map[string]*seenElement{}
			}
		}
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
		if r.fixed != nil {
			r.fixed.Points, r.fixed.Missing, r.fixed.BeforeClock = points[i], missing[i], noClock[i]
			set.Series = append(set.Series, r.fixed)
			set.Field = append(set.Field, i)
			continue
		}
		// The elements' series in the order of their first appearance.
		first := map[*Series]*seenElement{}
		for _, w := range workers {
			for _, e := range w.seen[i] {
				if f := first[e.s]; f == nil {
					c := *e
					first[e.s] = &c
				} else {
					f.points += e.points
					if e.at.before(f.at) {
						f.at = e.at
					}
				}
			}
		}
		ss := make([]*seenElement, 0, len(first))
		for _, e := range first {
			ss = append(ss, e)
		}
		sort.Slice(ss, func(a, b int) bool { return ss[a].at.before(ss[b].at) })
		for _, e := range ss {
			e.s.Points, e.s.Missing, e.s.BeforeClock = e.points, missing[i], noClock[i]
			set.Series = append(set.Series, e.s)
			set.Field = append(set.Field, i)
		}
		if len(ss) == 0 {
			set.Empty = append(set.Empty, r.ref)
		}
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
	series  []*Series                 // by field: a field of one value's
	elems   []*elementSeries          // by field: a path of several elements'
	seen    []map[string]*seenElement // by field: the elements this worker met
	at      elementAt                 // the message being read, and the value's place in its walk
	clock   Clock                     // the ClockTime base's
	n       int64                     // messages
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
func (w *visitWorker) Value(name []byte, v float64) {
	w.got++
	w.points[w.field]++
	s := w.series[w.field]
	if s == nil {
		at := w.at
		at.pos = w.got
		e := w.seen[w.field][string(name)]
		if e == nil {
			e = &seenElement{s: w.elems[w.field].get(string(name)), at: at}
			w.seen[w.field][string(name)] = e
		} else if at.before(e.at) {
			e.at = at
		}
		e.points++
		s = e.s
	}
	w.sink(w.field, s, w.t, v)
}

// elementSeries makes the series of a path of several elements, one per
// element, shared by the reading goroutines.
type elementSeries struct {
	r      *refSink
	mu     sync.Mutex
	byName map[string]*Series
}

// get returns the series of the element name, made at its first call.
func (e *elementSeries) get(name string) *Series {
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.byName[name]
	if s == nil {
		r := e.r
		s = &Series{Ref: FieldRef{Topic: r.ref.Topic, Path: name[len(r.ref.Topic)+1:]}, Name: name,
			base: r.proto.base, clock: r.proto.clock, paths: r.proto.paths, stamps: r.proto.stamps}
		e.byName[name] = s
	}
	return s
}

// elementAt is where a value was met in the time-ordered read: its
// message's receive time and place in the file (the MCAP reader's order
// of messages received at the same time) and its place in the walk.
type elementAt struct {
	t     int64
	block int64
	off   uint32
	pos   int
}

func (a elementAt) before(b elementAt) bool {
	if a.t != b.t {
		return a.t < b.t
	}
	if a.block != b.block {
		return a.block < b.block
	}
	if a.off != b.off {
		return a.off < b.off
	}
	return a.pos < b.pos
}

// seenElement is what one worker met of an element: its series, where it
// first met it in the time-ordered read's order, and its points.
type seenElement struct {
	s      *Series
	at     elementAt
	points int
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
	w.at = elementAt{t: recv, block: m.Loc.Block, off: m.Loc.Offset}
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
		// A path of several elements misses only where it cannot be
		// read, as Extract counts it.
		if err != nil || sl.r.fixed != nil && w.got == 0 {
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
