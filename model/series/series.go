// Package series extracts plottable fields from a recording's messages as
// columns of times and values: field references and their completion,
// extraction on the receive, header, publish or /clock time base, reduction to a point
// budget that keeps every spike, compact times, and finding a point's
// message again.
package series

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/msgref"
	timecol "github.com/bagscope/bagscope/plot/column"
)

// StageExtract is the progress stage of Extract.
const StageExtract = "extracting series"

// TimeBase is the time a series' points are placed at.
type TimeBase int

// Time bases.
const (
	// ReceiveTime is when the recorder received the message (the bag's
	// message time).
	ReceiveTime TimeBase = iota
	// HeaderStamp is the message's own header.stamp.
	HeaderStamp
	// PublishTime is when the message was sent: MCAP's publish time
	// (rosbag2 writes its send timestamp there). ROS 1 bags and .db3 files
	// keep no send time; their messages' publish time is the receive time.
	PublishTime
	// ClockTime is the sim time of /clock when the message was received
	// (Request.Clock), as a node using sim time sees it; messages received
	// before the first /clock message have no point.
	ClockTime
)

// TimeBaseNames are the names ParseTimeBase takes, one per base in order.
var TimeBaseNames = []string{"receive", "stamp", "publish", "clock"}

// String returns "receive", "stamp", "publish" or "clock".
func (tb TimeBase) String() string {
	if tb >= 0 && int(tb) < len(TimeBaseNames) {
		return TimeBaseNames[tb]
	}
	return "receive"
}

// ParseTimeBase reads a time base's name ("receive", "stamp", "publish",
// "clock") or another name of it: "log", "header.stamp", "send", "sim".
func ParseTimeBase(s string) (TimeBase, error) {
	switch s {
	case "receive", "log", "":
		return ReceiveTime, nil
	case "stamp", "header.stamp":
		return HeaderStamp, nil
	case "publish", "send":
		return PublishTime, nil
	case "clock", "sim":
		return ClockTime, nil
	}
	return 0, fmt.Errorf("unknown time base %q: want receive, stamp, publish or clock", s)
}

// Clock maps a receive time to the sim time of /clock then (see
// query.ClockIndex); ok is false before the first /clock message.
type Clock interface {
	At(logNanos int64) (sim int64, ok bool)
}

// Request says which series Extract reads.
type Request struct {
	Fields []FieldRef
	Base   TimeBase
	// Clock gives the sim times of the ClockTime base; Extract refuses
	// that base without it.
	Clock Clock
	// Start and End bound the receive time, inclusive; zero means no bound.
	Start, End bag.Time
	// KeepIndex also records where each point's message lives (Series.Loc),
	// 16 more bytes per point. Without it a point's message is found again
	// with Series.Locate.
	KeepIndex bool
	// Compact keeps each series' times in Series.C (about 4 bytes a point,
	// exact) instead of T (8), for a window that keeps many points.
	Compact bool
	// MaxPoints, when positive, bounds the points kept of each series on
	// the receive time base: a field whose topic has more messages than
	// that in the range read is reduced to MaxPoints/4 equal time buckets
	// of at most four real points each (first, lowest, highest, last; see
	// reduce.go), which draw the same line at a bucket a pixel or
	// coarser. Series.Points still counts every point.
	MaxPoints int
	// Whole lists fields (by index in Fields) kept whole despite
	// MaxPoints, such as the operands of a derivative.
	Whole []bool
	// Points, when set, is handed every point as it is read, with the
	// index in Fields of the field it comes from, in the order
	// of the read (time order on the receive time base), and the series
	// keep none (T, V, C, Loc and the suspect points stay empty; Points,
	// Missing and BeforeClock still count): a caller that summarises or
	// writes the points as they come uses memory that does not grow with
	// them. MaxPoints, KeepIndex and Compact are then ignored.
	Points func(field int, s *Series, t int64, v float64)
	// Distrust marks the points read from a unit known to be damaged
	// suspect too (SuspectT), as the Message view marks their messages:
	// a window's (model.Document.Distrust). nil: what opening found.
	Distrust *bag.Distrust
}

// Series is one extracted field in columnar form: 16 bytes per point (an
// int64 time in nanoseconds, ascending, and a float64 value), or about 12
// with the times compact in C (Request.Compact; T is then nil). Messages are
// never kept. A field reference whose path selects several elements
// ("/joint_states.position[*]") makes one Series per element, named by it
// ("/joint_states.position[shoulder_pan]"); see rosmsg.Selection.
type Series struct {
	// Ref is the series' own field: for an element of a multi-element
	// path, the element's path ("position[shoulder_pan]").
	Ref FieldRef
	// Name is the label for legends and CSV headers.
	Name string
	T    []int64
	V    []float64
	// C holds the times instead of T when the request asked for Compact.
	C *timecol.Times
	// Points counts the field's points in the range read: Len, unless
	// the series is reduced.
	Points int
	// Bucket is the width in nanoseconds of a reduced series' time
	// buckets, and From and To the receive times they cover; Bucket is 0
	// when every point is kept.
	Bucket, From, To int64
	// Missing counts messages the field could not be read from (an array
	// shorter than the path's index, a key missing, a message without a
	// readable stamp, bad data); they have no point. For the elements of
	// a path with [*] or a range, which come and go, it counts only the
	// messages the path could not be read from at all.
	Missing int
	// BeforeClock counts, on the clock time base, the messages received
	// before the first /clock message: they have no sim time and no point.
	BeforeClock int
	// Loc is where each point's message lives, when the request asked for
	// KeepIndex; nil otherwise.
	Loc []msgref.Loc
	// SuspectT and SuspectV are the points read from suspect messages
	// (bag.Message.Suspect: from a damaged chunk or page), in time order,
	// all of them even when the series is reduced (at most maxSuspect):
	// the plots draw them hollow.
	SuspectT []int64
	SuspectV []float64

	base   TimeBase
	clock  Clock     // the ClockTime base's
	paths  connPaths // the requested path's selections, by connection
	stamps map[uint32]Stamp
	tb     *timecol.Builder                               // builds C during a compact extraction
	red    *reducer                                       // reduces the points during the extraction
	sink   func(field int, s *Series, t int64, v float64) // Request.Points
}

// Len returns the number of points.
func (s *Series) Len() int {
	if s.C != nil {
		return s.C.Len()
	}
	return len(s.T)
}

// Time returns point i's time in nanoseconds.
func (s *Series) Time(i int) int64 {
	if s.C != nil {
		return s.C.At(i)
	}
	return s.T[i]
}

// Set is the result of one extraction.
type Set struct {
	Series []*Series
	// Field is, for each of Series, the index in the request's Fields of
	// the field it came from, so that a caller asking for several fields
	// in one pass can hand each its series.
	Field []int
	Base  TimeBase
	// BagStart and BagEnd are the bag's time range; BagStart is the usual
	// origin of a relative time axis.
	BagStart, BagEnd bag.Time
	// Messages is the number of messages read.
	Messages int64
	// Empty lists the requested fields with [*] or a range that no
	// message read held an element of: they have no series.
	Empty []FieldRef
	// Skipped lists what the read could not use, from the message
	// iterator; LostMessages counts the messages known to be in it.
	Skipped      []bag.ByteRange
	LostMessages uint64
}

// refSink receives the values one field reference reads from a message
// and appends them to its series, creating the series of elements seen
// for the first time. It keeps the previous message's series in order,
// so that a message holding the same elements as the last one finds each
// series without a map lookup.
type refSink struct {
	ref    FieldRef
	field  int     // index in the request's Fields
	fixed  *Series // the path names one series (no [*], no range)
	byName map[string]*Series
	series []*Series // in order of first appearance
	last   []*Series // the series of the previous message's values, in order
	pos    int       // values of the current message so far
	// The current message.
	t       int64
	loc     msgref.Loc
	suspect bool
	keep    bool
	// remaining counts the ref's messages still to read, to size new series.
	remaining int
	compact   bool // build compact times
	whole     bool // never reduced (Request.Whole)
	reduce    *reduction
	budget    *elementBudget // a path of several elements, until decided
	proto     Series         // base, paths, stamps of new series
	missing   int            // messages the path could not be read from
	noClock   int            // messages before the first /clock (ClockTime)
}

// Value appends one value of the current message.
func (r *refSink) Value(name []byte, v float64) {
	s := r.fixed
	if s == nil {
		if r.pos < len(r.last) && r.last[r.pos].Name == string(name) {
			s = r.last[r.pos]
		} else {
			if s = r.byName[string(name)]; s == nil {
				s = r.newSeries(string(name))
			}
			if r.pos < len(r.last) {
				r.last[r.pos] = s
			} else {
				r.last = append(r.last, s)
			}
		}
	}
	r.pos++
	if s.sink != nil {
		s.Points++
		s.sink(r.field, s, r.t, v)
		return
	}
	s.add(r.t, v, r.loc, r.compact, r.keep)
	if r.suspect && len(s.SuspectT) < maxSuspect {
		s.SuspectT = append(s.SuspectT, r.t)
		s.SuspectV = append(s.SuspectV, v)
	}
}

// maxSuspect bounds the suspect points a series keeps (a damaged chunk of
// a long recording may hold many).
const maxSuspect = 1 << 16

// newSeries starts the series of an element seen for the first time.
func (r *refSink) newSeries(name string) *Series {
	s := &Series{Ref: FieldRef{Topic: r.ref.Topic, Path: name[len(r.ref.Topic)+1:]}, Name: name,
		base: r.proto.base, clock: r.proto.clock, paths: r.proto.paths, stamps: r.proto.stamps, sink: r.proto.sink}
	r.byName[name] = s
	r.series = append(r.series, s)
	if s.sink != nil {
		return s
	}
	n := min(max(r.remaining, 1), 4096)
	if r.compact {
		s.tb = &timecol.Builder{}
		s.tb.Grow(n)
	} else {
		s.T = make([]int64, 0, n)
	}
	s.V = make([]float64, 0, n)
	if r.keep {
		s.Loc = make([]msgref.Loc, 0, n)
	}
	if r.reduce != nil {
		s.red = newReducer(r.reduce)
	}
	return s
}

// slot is one field reference fed by a connection.
type slot struct {
	r   *refSink
	sel *rosmsg.Selection // nil for the latency series
}

// connSlots is what one connection's messages feed.
type connSlots struct {
	slots []slot
	stamp Stamp
	// needStamp: the stamp is read (stamp time base or a latency series).
	needStamp bool
}

// Extract reads the requested fields in one pass over the messages of
// their topics, using the compiled paths, into per-series columns: one
// series per field, or per element for a path with [*] or a range (in the
// order the elements first appear), in the order of req.Fields. It reports
// progress in messages (out of the count the index gives for the selected
// connections and chunks) and stops with ctx's error when ctx is
// cancelled. progress may be nil.
func Extract(ctx context.Context, b bag.Storage, cache *rosmsg.Cache, req Request, progress func(done, total int64, stage string)) (*Set, error) {
	set := &Set{Base: req.Base}
	if req.Base == ClockTime && req.Clock == nil {
		return nil, errors.New("the clock time base needs the recording's /clock messages")
	}
	set.BagStart, set.BagEnd = timeRange(b)
	if req.Points != nil {
		req.MaxPoints, req.KeepIndex, req.Compact = 0, false, false
	}
	byConn, topics, sinks, err := slotsFor(b, cache, req)
	if err != nil {
		return nil, err
	}
	f := bag.MessageFilter{Topics: topics, Start: req.Start, End: req.End}
	lo, hi := set.BagStart.Nanos(), set.BagEnd.Nanos()
	if !req.Start.IsZero() {
		lo = max(lo, req.Start.Nanos())
	}
	if !req.End.IsZero() {
		hi = min(hi, req.End.Nanos())
	}
	// A caller handed the points (req.Points) keeps no series to size
	// and no suspect point: the index's count is then only the
	// progress's, made beside the read (or not at all without progress),
	// and no message's unit is asked about (Distrust reads every block's
	// counts and damage first), so that the merging goroutine only merges.
	var (
		total   atomic.Int64
		counted sync.WaitGroup
	)
	defer counted.Wait()
	if req.Points != nil {
		if progress != nil {
			counted.Go(func() { total.Store(messageCount(b, f, byConn)) })
		}
	} else {
		total.Store(reserve(b, f, byConn, req.KeepIndex, keepPoints(req, lo, hi)))
	}

	distrust := req.Distrust
	if distrust == nil && req.Points == nil {
		distrust = bag.NewDistrust(b)
	}
	// The fields are read on the goroutines that read the messages
	// (prepare), this loop handing them to the series in time order.
	it := bag.PreparedMessages(b, f, func(m *bag.Message, dst []byte) ([]byte, bool) { return prepare(byConn, m, dst) })
	defer it.Close()
	var done int64
	var name []byte
	for it.Next() {
		m := it.Message()
		body, prepared := it.Prepared()
		cs := byConn[m.Conn.ID]
		done++
		if done&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			if progress != nil && done&16383 == 0 {
				progress(done, total.Load(), StageExtract)
			}
		}
		if cs == nil {
			continue
		}
		recv := m.Time.Nanos()
		t, stamp := recv, int64(0)
		ok := true
		if cs.needStamp {
			if prepared {
				body, stamp, ok = preparedStamp(body)
			} else {
				var err error
				stamp, err = cs.stamp.Nanos(m.Data)
				ok = err == nil
			}
			if ok && req.Base == HeaderStamp {
				t = stamp
			}
		}
		if !ok {
			for _, sl := range cs.slots {
				sl.r.missing++
			}
			continue
		}
		switch req.Base {
		case PublishTime:
			t = m.PublishTime.Nanos()
		case ClockTime:
			if t, ok = req.Clock.At(recv); !ok {
				for _, sl := range cs.slots {
					sl.r.noClock++
				}
				continue
			}
		}
		loc := msgref.Loc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}
		suspect := distrust != nil && distrust.Why(m) != ""
		for _, sl := range cs.slots {
			r := sl.r
			r.t, r.loc, r.pos, r.suspect = t, loc, 0, suspect
			r.remaining--
			if sl.sel == nil {
				r.Value(nil, float64(stamp-recv)/1e9)
				continue
			}
			var failed bool
			if prepared {
				body, failed = replay(body, r)
			} else {
				name = append(name[:0], r.ref.Topic...)
				name = append(name, '.')
				var err error
				name, err = sl.sel.Walk(m.Data, name, r)
				failed = err != nil
			}
			if failed || r.fixed != nil && r.pos == 0 {
				r.missing++
			}
			if r.fixed == nil {
				r.last = r.last[:min(len(r.last), r.pos)]
				if r.budget != nil && r.pos > 0 {
					r.budget.decide(r, r.pos)
				}
			}
		}
	}
	if err := it.Err(); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, r := range sinks {
		for _, s := range r.series {
			s.Missing, s.BeforeClock = r.missing, r.noClock
			set.Field = append(set.Field, i)
		}
		set.Series = append(set.Series, r.series...)
		if len(r.series) == 0 {
			set.Empty = append(set.Empty, r.ref)
		}
	}
	set.Messages = done
	if sk, ok := it.(interface{ Skipped() []bag.ByteRange }); ok {
		set.Skipped = sk.Skipped()
	}
	if l, ok := it.(interface{ LostMessages() uint64 }); ok {
		set.LostMessages = l.LostMessages()
	}
	counted.Wait()
	if progress != nil {
		progress(done, max(total.Load(), done), StageExtract)
	}
	for i, s := range set.Series {
		if red := sinks[set.Field[i]].reduce; red != nil {
			s.finishReduction(req.Compact, req.KeepIndex)
			s.Bucket, s.From, s.To = red.width, lo, hi
		}
		if req.Base != ReceiveTime {
			s.sortByTime()
			sortSuspects(s)
		}
		switch {
		case s.tb != nil:
			s.C, s.tb = s.tb.Times(), nil
		case req.Compact:
			s.C, s.T = timecol.FromSlice(s.T), nil
		}
	}
	return set, nil
}

// keepPoints is reserve's keep for Extract: how many points of n a
// field's series keep, its reduction set up when MaxPoints bounds them.
func keepPoints(req Request, lo, hi int64) func(r *refSink, n int) int {
	return func(r *refSink, n int) int {
		if r.whole {
			return n
		}
		if r.fixed == nil {
			// Elements multiply the points: decided once the first
			// message shows how many (see elementBudget).
			r.budget = &elementBudget{lo: lo, hi: hi, max: req.MaxPoints}
			return n
		}
		if n <= req.MaxPoints {
			return n
		}
		r.reduce = newReduction(lo, hi, req.MaxPoints)
		r.fixed.red = newReducer(r.reduce)
		return req.MaxPoints
	}
}

// slotsFor compiles req's fields against b's connections: what each
// connection's messages feed (a slot per field reference it serves, and
// its stamp when the time base or a latency series needs one), the
// topics to read, and a sink per field, in req.Fields' order.
func slotsFor(b bag.Storage, cache *rosmsg.Cache, req Request) (map[uint32]*connSlots, []string, []*refSink, error) {
	byConn := map[uint32]*connSlots{}
	var topics []string
	var sinks []*refSink
	for fi, ref := range req.Fields {
		paths, err := compileRef(b, cache, ref)
		if err != nil {
			return nil, nil, nil, err
		}
		// Times other than the receive time are sorted once read, in a
		// plain column, and made compact after.
		r := &refSink{ref: ref, field: fi, keep: req.KeepIndex, byName: map[string]*Series{},
			compact: req.Compact && req.Base == ReceiveTime,
			whole:   req.MaxPoints <= 0 || req.Base != ReceiveTime || fi < len(req.Whole) && req.Whole[fi],
			proto:   Series{base: req.Base, clock: req.Clock, paths: paths, stamps: map[uint32]Stamp{}, sink: req.Points}}
		fixed := true
		for _, sel := range paths {
			if sel != nil && !sel.Fixed() {
				fixed = false
			}
		}
		if fixed {
			r.fixed = &Series{Ref: ref, Name: seriesName(ref), base: req.Base, clock: req.Clock, paths: paths, stamps: r.proto.stamps, sink: req.Points}
			r.series = []*Series{r.fixed}
		}
		sinks = append(sinks, r)
		if !containsString(topics, ref.Topic) {
			topics = append(topics, ref.Topic)
		}
		for id, sel := range paths {
			cs := byConn[id]
			if cs == nil {
				cs = &connSlots{}
				byConn[id] = cs
			}
			cs.slots = append(cs.slots, slot{r, sel})
			if req.Base == HeaderStamp || ref.IsLatency() {
				c := b.Connection(id)
				plan, err := planFor(cache, c)
				if err != nil {
					return nil, nil, nil, err
				}
				sp, err := CompileStamp(plan)
				if err != nil {
					return nil, nil, nil, fmt.Errorf("%w: %s (%s) has no header.stamp; use the receive time base", ErrUnknownField, c.Topic, c.Type)
				}
				cs.stamp, cs.needStamp = sp, true
				r.proto.stamps[id] = sp
			}
		}
	}
	return byConn, topics, sinks, nil
}

// reserve sizes every fixed series for the messages the index counts for
// its connections in the chunks the filter reads, so columns do not
// over-grow, notes how many messages each field reference will read (to
// size the series of elements as they appear) and returns the total count
// for progress. keep says how many points a reference's series keep of n
// (fewer when reduced).
func reserve(b bag.Storage, f bag.MessageFilter, byConn map[uint32]*connSlots, keepIndex bool, keep func(r *refSink, n int) int) int64 {
	perRef := map[*refSink]int{}
	var total int64
	for _, blk := range b.Blocks() {
		if !f.End.IsZero() && f.End.Before(blk.Start) || !f.Start.IsZero() && blk.End.Before(f.Start) {
			continue
		}
		for conn, n := range blk.Counts {
			cs := byConn[conn]
			if cs == nil {
				continue
			}
			total += int64(n)
			for _, sl := range cs.slots {
				perRef[sl.r] += int(n)
			}
		}
	}
	for r, n := range perRef {
		r.remaining = n
		n = keep(r, n)
		if s := r.fixed; s != nil && s.sink == nil {
			if r.compact {
				s.tb = &timecol.Builder{}
				s.tb.Grow(n)
			} else {
				s.T = make([]int64, 0, n)
			}
			s.V = make([]float64, 0, n)
			if keepIndex {
				s.Loc = make([]msgref.Loc, 0, n)
			}
		}
	}
	return total
}

// SeriesName is the label of the series of a field that names one value.
func SeriesName(ref FieldRef) string { return seriesName(ref) }

// seriesName is the label of a series.
func seriesName(ref FieldRef) string {
	if ref.IsLatency() {
		return ref.Topic + " latency (stamp − receive, s)"
	}
	return ref.String()
}

// sortByTime orders the points by time, keeping equal times in receive
// order (header stamps need not be monotonic).
func (s *Series) sortByTime() {
	if sort.SliceIsSorted(s.T, func(i, j int) bool { return s.T[i] < s.T[j] }) {
		return
	}
	sort.Stable(byTime{s})
}

// sortSuspects orders the suspect points by time.
func sortSuspects(s *Series) {
	idx := make([]int, len(s.SuspectT))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return s.SuspectT[idx[a]] < s.SuspectT[idx[b]] })
	t, v := make([]int64, len(idx)), make([]float64, len(idx))
	for k, i := range idx {
		t[k], v[k] = s.SuspectT[i], s.SuspectV[i]
	}
	s.SuspectT, s.SuspectV = t, v
}

type byTime struct{ s *Series }

func (b byTime) Len() int           { return len(b.s.T) }
func (b byTime) Less(i, j int) bool { return b.s.T[i] < b.s.T[j] }
func (b byTime) Swap(i, j int) {
	s := b.s
	s.T[i], s.T[j] = s.T[j], s.T[i]
	s.V[i], s.V[j] = s.V[j], s.V[i]
	if s.Loc != nil {
		s.Loc[i], s.Loc[j] = s.Loc[j], s.Loc[i]
	}
}

func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Names returns the series' names, for a legend or a CSV header.
func (set *Set) Names() []string {
	out := make([]string, len(set.Series))
	for i, s := range set.Series {
		out[i] = s.Name
	}
	return out
}
