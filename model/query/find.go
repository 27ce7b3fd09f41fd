package query

import (
	"context"
	"errors"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/bag/rosmsg/expr"
	"github.com/bagscope/bagscope/model"
)

// DefaultMaxHits is how many hits Find keeps when Options.MaxHits is 0;
// more are counted.
const DefaultMaxHits = 1 << 20

// Hit is one message an expression holds for.
type Hit struct {
	Topic string
	Conn  uint32
	// Time is the log (receive) time, Publish the publish or send time
	// (the log time where the format stores none).
	Time, Publish bag.Time
	Loc           bag.Loc
	// Values are the fields and time terms the expression read, as it
	// names them, with [*] made concrete.
	Values []expr.Value
}

// Failure is a message the expression could not be evaluated on.
type Failure struct {
	Topic string
	Time  bag.Time
	Loc   bag.Loc
	Err   error
}

// Options tune Find.
type Options struct {
	// MaxHits bounds the hits kept (0: DefaultMaxHits); the rest are
	// counted in Result.Dropped, and OnHit still sees them.
	MaxHits int
	// OnHit, when set, receives each hit as it is found, from the
	// goroutines that read the messages, in no particular order.
	OnHit func(Hit)
	// Progress, when set, receives the messages evaluated so far and the
	// number the selection holds (from the index; 0 when unknown), from
	// the reading goroutines, every few thousand messages.
	Progress func(done, total int64)
	// Clock is the /clock index for @clock; Find reads it when the
	// expression needs it and this is nil.
	Clock *ClockIndex
	// Doctor lets the search be the quick doctor's pass (Storage.Check
	// under bag.WithQuickCheck), where the doctor can hand it the messages
	// as it decompresses them (one file, bag.DoctorVisits): the file is
	// read once, and Result.Report holds the doctor's report. When the
	// doctor finds damage, or could not hand every message on, its pass
	// is set aside and the messages are read as without Doctor, so what
	// the read met is the same (Report is still set). Elsewhere, and with
	// OnHit (a hit of a set-aside pass would be said twice), Report is
	// nil: the caller runs the doctor after the read, if it wants it.
	Doctor bool
	// Spill, when above 0, bounds the bytes of hits held in memory
	// whatever MaxHits (the hits, their values and the strings in them):
	// a pass that finds more keeps none
	// (Result.Spilled), and the caller takes them in time order from
	// Compiled.OrderedHits, which reads the messages again.
	Spill int
}

// Result is what Find found.
type Result struct {
	Compiled *Compiled
	// Hits are sorted by log time, then by where they are in the file.
	Hits []Hit
	// Dropped counts hits beyond Options.MaxHits.
	Dropped int64
	// Found counts the hits, kept or not.
	Found int64
	// Spilled says the pass found more than Options.Spill bytes of hits and kept
	// none: Hits is nil, Names lists the values' names in the order they
	// first appear in time order (for a table's columns), and
	// Compiled.OrderedHits gives the hits.
	Spilled bool
	Names   []string
	// Messages counts the messages the expression was evaluated on.
	Messages int64
	// Failed counts messages whose data does not hold what the expression
	// reads (or that cost more work than it may take); First are the
	// earliest of them.
	Failed int64
	First  []Failure
	// Skipped lists the byte ranges (damaged chunks, a scan's gaps) that
	// could not be read, sorted; LostMessages counts the messages known
	// to be in them.
	Skipped      []bag.ByteRange
	LostMessages uint64
	// Report is the quick doctor's report (Options.Doctor), nil when it
	// was not asked for or could not run.
	Report *bag.CheckReport
}

// maxFailures is how many failed messages a Result lists.
const maxFailures = 20

// Find evaluates the expression text on every message of s that f selects
// (of the topic the expression names, else of the selected topics whose
// definitions have its fields), on the goroutines that read and
// decompress the chunks, and returns the messages it holds for. It stops
// with ctx's error when cancelled; what was found so far is returned with
// it.
func Find(ctx context.Context, s bag.Storage, text string, f bag.MessageFilter, opt Options) (*Result, error) {
	var cache rosmsg.Cache
	c, err := Compile(s, &cache, text, f)
	if err != nil {
		return nil, err
	}
	clock := opt.Clock
	if c.ReadsClock() && clock == nil {
		if clock, err = ReadClock(ctx, s, &cache); err != nil && !errors.Is(err, ErrNoClock) {
			return nil, err
		}
	}
	return c.Find(ctx, s, f, clock, opt)
}

// Find is Find with an expression already compiled for s.
func (c *Compiled) Find(ctx context.Context, s bag.Storage, f bag.MessageFilter, clock *ClockIndex, opt Options) (*Result, error) {
	vf := bag.MessageFilter{Conns: c.conns, Start: f.Start, End: f.End}
	var rep *bag.CheckReport
	// A doctor's report of several files is not split by file: the
	// caller runs the doctor on each.
	if opt.Doctor && bag.AsMulti(s) == nil {
		if opt.OnHit == nil && bag.DoctorVisits(s) {
			// The doctor's pass is the search's, when it can be.
			run := c.newRun(s, vf, clock, opt)
			lo, hi := vf.Start.Nanos(), int64(-1)
			if !vf.End.IsZero() {
				hi = vf.End.Nanos()
			}
			visit := func(m *bag.Message) {
				if t := m.Time.Nanos(); t >= lo && (hi < 0 || t <= hi) {
					run.visit(m)
				}
			}
			dctx := bag.WithMessageVisitor(bag.WithQuickCheck(ctx), bag.DecompressingVisitor(visit))
			// Only the expression's connections: a doctor that can
			// then hands on no other message.
			dctx = bag.WithVisitedConns(dctx, c.conns)
			r, err := s.Check(dctx, nil)
			if err != nil && ctx.Err() != nil {
				return run.finish(nil, err), err
			}
			if err == nil {
				rep = r
				if r.Visited && intact(s, r) {
					res := run.finish(nil, nil)
					res.Report = rep
					return res, nil
				}
			}
		}
	}
	run := c.newRun(s, vf, clock, opt)
	skipped, err := bag.VisitMessagesSkipped(ctx, s, vf, run.visit)
	res := run.finish(skipped, err)
	res.Report = rep
	return res, err
}

// intact reports whether neither the opening of s nor its doctor's report
// rep found damage: then a read of s through its index meets none, and
// reads the messages the doctor's walk of the file met.
func intact(s bag.Storage, rep *bag.CheckReport) bool {
	if d := bag.DamageOf(s); d != nil && len(d.Ranges) > 0 {
		return false
	}
	for _, f := range rep.Findings {
		if f.Severity == bag.Error {
			return false
		}
	}
	return true
}

// findRun is one pass of a search: the visitor the reading goroutines
// call with each message, and what it found.
type findRun struct {
	visit  func(m *bag.Message)
	finish func(skipped []bag.ByteRange, err error) *Result
}

// newRun returns a pass of c over the messages vf selects of s.
func (c *Compiled) newRun(s bag.Storage, vf bag.MessageFilter, clock *ClockIndex, opt Options) *findRun {
	maxHits := opt.MaxHits
	if maxHits <= 0 {
		maxHits = DefaultMaxHits
	}
	start, _ := model.TimeRange(s)
	startNs := start.Nanos()
	total := selectedCount(s, vf)
	res := &Result{Compiled: c}
	var (
		mu      sync.Mutex // guards res's hits, failures, names and held
		held    hitArena   // the kept hits' values
		names   = firstNames{}
		done    atomic.Int64
		dropped atomic.Int64
	)
	// Each reading goroutine takes a scratch from the pool per message (a
	// per-P cache: in practice its own), holding its expression states
	// and its count of messages, added up at the end.
	type scratch struct {
		in     expr.Input
		vals   []expr.Value
		states []*expr.State
		n      int64
	}
	var all []*scratch
	scratchPool := sync.Pool{New: func() any {
		sc := &scratch{states: make([]*expr.State, len(c.progList))}
		mu.Lock()
		all = append(all, sc)
		mu.Unlock()
		return sc
	}}
	visit := func(m *bag.Message) {
		cp := c.prog(m.Conn.ID)
		if cp == nil {
			return
		}
		sc := scratchPool.Get().(*scratch)
		sc.n++
		if opt.Progress != nil && sc.n&4095 == 0 {
			opt.Progress(done.Add(4096), total)
		}
		st := sc.states[cp.index]
		if st == nil {
			st = cp.prog.NewState()
			sc.states[cp.index] = st
		}
		sc.in = expr.Input{Data: m.Data, Log: m.Time.Nanos(), Publish: m.PublishTime.Nanos(), Start: startNs, Topic: m.Conn.Topic, Type: m.Conn.Type}
		if clock != nil {
			sc.in.Clock, sc.in.HasClock = clock.At(sc.in.Log)
		}
		ok, err := cp.prog.Match(st, &sc.in)
		var hit Hit
		if ok {
			sc.vals = st.Values(sc.vals[:0])
			hit = Hit{Topic: m.Conn.Topic, Conn: m.Conn.ID, Time: m.Time, Publish: m.PublishTime, Loc: m.Loc,
				Values: sc.vals}
		}
		sc.in.Data = nil
		switch {
		case err != nil:
			mu.Lock()
			res.Failed++
			res.First = append(res.First, Failure{Topic: m.Conn.Topic, Time: m.Time, Loc: m.Loc, Err: err})
			if len(res.First) > 4*maxFailures {
				res.First = earliest(res.First)
			}
			mu.Unlock()
		case ok:
			if opt.OnHit != nil {
				h := hit
				h.Values = append([]expr.Value(nil), hit.Values...)
				opt.OnHit(h)
			}
			mu.Lock()
			res.Found++
			switch {
			case res.Spilled:
				names.note(&hit)
			case opt.Spill > 0 && held.bytes(len(res.Hits)+1, &hit) > int64(opt.Spill):
				res.Spilled = true
				for i := range res.Hits {
					names.note(&res.Hits[i])
				}
				names.note(&hit)
				res.Hits = nil
				held = hitArena{}
			case len(res.Hits) < maxHits:
				hit.Values = held.keep(hit.Values)
				res.Hits = append(res.Hits, hit)
			default:
				dropped.Add(1)
			}
			mu.Unlock()
		}
		scratchPool.Put(sc)
	}
	finish := func(skipped []bag.ByteRange, err error) *Result {
		for _, sc := range all {
			res.Messages += sc.n
		}
		if res.Spilled {
			res.Names = names.ordered()
		} else {
			res.Dropped = dropped.Load()
		}
		if opt.Progress != nil {
			opt.Progress(res.Messages, max(total, res.Messages))
		}
		sortHits(res.Hits)
		res.First = earliest(res.First)
		res.Skipped, res.LostMessages = AddScanLoss(skipped, s)
		return res
	}
	return &findRun{visit: visit, finish: finish}
}

// sortHits orders hits by log time, then file position.
func sortHits(h []Hit) {
	sort.Slice(h, func(i, j int) bool {
		a, b := &h[i], &h[j]
		if a.Time != b.Time {
			return a.Time.Before(b.Time)
		}
		if a.Loc.Block != b.Loc.Block {
			return a.Loc.Block < b.Loc.Block
		}
		return a.Loc.Offset < b.Loc.Offset
	})
}

// earliest keeps the first maxFailures failures by time.
func earliest(f []Failure) []Failure {
	sort.SliceStable(f, func(i, j int) bool {
		if f[i].Time != f[j].Time {
			return f[i].Time.Before(f[j].Time)
		}
		return f[i].Loc.Block < f[j].Loc.Block
	})
	return f[:min(len(f), maxFailures)]
}

// selectedCount is the number of messages f selects, from the summary's
// per-connection counts (and, for a time range, the blocks that overlap
// it); 0 when unknown.
func selectedCount(s bag.Storage, f bag.MessageFilter) int64 {
	sum, _ := s.Summary()
	if sum == nil {
		return 0
	}
	want := map[uint32]bool{}
	for _, id := range f.Conns {
		want[id] = true
	}
	if f.Start.IsZero() && f.End.IsZero() {
		var n uint64
		for id := range want {
			n += sum.ConnMessages[id]
		}
		return int64(n)
	}
	var n uint64
	for _, b := range s.Blocks() {
		if b.End.Before(f.Start) || !f.End.IsZero() && f.End.Before(b.Start) {
			continue
		}
		for id, k := range b.Counts {
			if want[id] {
				n += k
			}
		}
	}
	return int64(n)
}

// hitArena holds the values of the hits a search keeps in slabs, so that
// keeping a hit does not allocate, and counts the bytes they hold with
// the strings in them (Options.Spill).
type hitArena struct {
	slab  []expr.Value
	vals  int64 // values kept
	strs  int64 // bytes of the strings in them
	slabs int64 // values allocated in slabs
}

// arenaSlab is how many values a slab holds.
const arenaSlab = 4096

var (
	hitSize   = int64(unsafe.Sizeof(Hit{}))
	valueSize = int64(unsafe.Sizeof(expr.Value{}))
)

// keep copies vals into the arena and returns the copy (its capacity its
// length, so that an append to it never writes over the next hit's).
func (a *hitArena) keep(vals []expr.Value) []expr.Value {
	if len(vals) == 0 {
		return nil
	}
	if cap(a.slab)-len(a.slab) < len(vals) {
		n := max(arenaSlab, len(vals))
		a.slab = make([]expr.Value, 0, n)
		a.slabs += int64(n)
	}
	i := len(a.slab)
	a.slab = append(a.slab, vals...)
	a.vals += int64(len(vals))
	for _, v := range vals {
		a.strs += int64(len(v.Str))
	}
	return a.slab[i:len(a.slab):len(a.slab)]
}

// bytes returns what n hits held, h the last of them, take: the hits (with
// room for their slice to grow into), the arena's slabs (or h's values
// beside the arena's) and the strings in the values; the topics and the
// values' names are shared.
func (a *hitArena) bytes(n int, h *Hit) int64 {
	strs := a.strs
	for _, v := range h.Values {
		strs += int64(len(v.Str))
	}
	return 2*int64(n)*hitSize + max(a.slabs, a.vals+int64(len(h.Values)))*valueSize + strs
}
