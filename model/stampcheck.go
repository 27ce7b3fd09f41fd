package model

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/series"
)

// Limits of the stamp check.
const (
	// maxStampRuns bounds the runs a connection keeps for the check of
	// stamps going backwards (see stampRun): beyond it the earliest half
	// are folded into one, so the memory is bounded by the connections,
	// not the messages.
	maxStampRuns = 64
	// stampAhead is how far a header.stamp may be after its receive time
	// before it is said to be in the future (clocks of two machines
	// disagree by a little).
	stampAhead = time.Second
	// epochYear is the first year after the epoch: a stamp before it is
	// "in 1970".
	epochYear = 365 * 24 * time.Hour
)

// StampCheck looks at the header.stamp of every message handed to Visit,
// from any number of goroutines, for the doctor: stamps in 1970 (a clock
// not set, or sim time in a wall-clock recording), stamps after the time
// they were received or after now (a clock ahead), and stamps that go
// backwards on a connection.
type StampCheck struct {
	conns map[uint32]*stampConn
	byID  []*stampConn
	list  []*bag.Connection
	now   int64
}

type stampConn struct {
	paths series.Stamp
	mu    sync.Mutex
	n     int64        // stamps read
	runs  []stampRun   // for the order, in the order they were started
	loose bool         // runs overlapped: the order was counted approximately
	old   stampFinding // in 1970
	ahead stampFinding // after the receive time
	later stampFinding // after now
}

// stampObs is one message's times and where it is.
type stampObs struct {
	log, stamp int64
	loc        bag.Loc
}

// stampFinding counts messages of one kind of bad stamp, with the earliest
// and the worst.
type stampFinding struct {
	n     int64
	first stampObs
	worst int64 // nanoseconds (ahead, back)
}

func (f *stampFinding) add(o stampObs, by int64) {
	if f.n == 0 || o.log < f.first.log {
		f.first = o
	}
	f.n++
	f.worst = max(f.worst, by)
}

// NewStampCheck compiles the header.stamp readers of s's connections (those
// without a header are not looked at).
func NewStampCheck(s bag.Storage) *StampCheck {
	var cache rosmsg.Cache
	c := &StampCheck{conns: map[uint32]*stampConn{}, list: s.Connections(), now: time.Now().UnixNano()}
	// byID covers every connection of a small ID, those without a stamp
	// too (nil), so that Visit looks none of them up in the map.
	for _, conn := range c.list {
		if conn.ID < 1<<16 && int(conn.ID) >= len(c.byID) {
			c.byID = append(c.byID, make([]*stampConn, int(conn.ID)+1-len(c.byID))...)
		}
	}
	for _, conn := range c.list {
		plan, err := planFor(&cache, conn)
		if err != nil {
			continue
		}
		sp, err := series.CompileStamp(plan)
		if err != nil {
			continue
		}
		st := &stampConn{paths: sp}
		c.conns[conn.ID] = st
		if conn.ID < 1<<16 {
			c.byID[conn.ID] = st
		}
	}
	return c
}

// Conns lists the connections whose stamps are looked at.
func (c *StampCheck) Conns() []uint32 {
	var ids []uint32
	for id := range c.conns {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	return ids
}

// Visit reads m's stamp. It is safe for concurrent use.
func (c *StampCheck) Visit(m *bag.Message) {
	var st *stampConn
	if id := m.Conn.ID; int(id) < len(c.byID) {
		st = c.byID[id]
	} else {
		st = c.conns[id]
	}
	if st == nil {
		return
	}
	stamp, err := st.paths.Nanos(m.Data)
	if err != nil {
		return // the payload check says what is wrong with the data
	}
	o := stampObs{log: m.Time.Nanos(), stamp: stamp, loc: m.Loc}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.n++
	if stamp < int64(epochYear) && o.log >= int64(epochYear) {
		st.old.add(o, 0)
		return // an unset stamp is said once, not as a step back too
	}
	if d := stamp - o.log; d > int64(stampAhead) {
		st.ahead.add(o, d)
	}
	if stamp > c.now+int64(stampAhead) {
		st.later.add(o, stamp-c.now)
	}
	st.see(o)
}

// stampRun is a run of one connection's messages read one after the other
// from one chunk (bag.Loc.Block), in the order of the check (receive time,
// then place in the file): its first and last message and the stamps
// going backwards inside it. A doctor reads each chunk's messages in file
// order, on any number of goroutines at once, so a connection's messages
// come as a few runs at a time; runs that do not overlap join into one
// exactly (the last stamp of one against the first of the next), and the
// order is checked in memory bounded by the connections, not the messages.
type stampRun struct {
	block       int64 // the chunk the run still grows in; -1 once folded
	first, last stampObs
	back        backStep
	n           int64 // stamps going backwards
}

// before reports whether a comes before b in the order of the check.
func before(a, b stampObs) bool {
	if a.log != b.log {
		return a.log < b.log
	}
	if a.loc.Block != b.loc.Block {
		return a.loc.Block < b.loc.Block
	}
	return a.loc.Offset < b.loc.Offset
}

// see adds o to the run of its chunk that it follows, or starts a run.
// The caller holds st.mu.
func (st *stampConn) see(o stampObs) {
	for i := len(st.runs) - 1; i >= 0; i-- {
		r := &st.runs[i]
		if r.block != o.loc.Block {
			continue
		}
		if before(o, r.last) {
			break // out of order inside the chunk: a run of its own
		}
		r.step(o)
		return
	}
	st.runs = append(st.runs, stampRun{block: o.loc.Block, first: o, last: o})
	if len(st.runs) > maxStampRuns {
		st.fold()
	}
}

// step appends o, which comes after r.last, to r.
func (r *stampRun) step(o stampObs) {
	if d := r.last.stamp - o.stamp; d > 0 {
		if r.n == 0 {
			r.back.first, r.back.firstBy = o, d
		}
		r.n++
		r.back.worst = max(r.back.worst, d)
	}
	r.last = o
}

// join appends run b, which starts after a ends (else the check is loose),
// to a.
func (st *stampConn) join(a *stampRun, b stampRun) {
	if before(b.first, a.last) {
		st.loose = true
	}
	a.step(b.first)
	if b.n > 0 {
		if a.n == 0 {
			a.back.first, a.back.firstBy = b.back.first, b.back.firstBy
		}
		a.n += b.n
		a.back.worst = max(a.back.worst, b.back.worst)
	}
	a.last = b.last
}

// sortRuns orders st's runs by their first message.
func (st *stampConn) sortRuns() {
	sort.SliceStable(st.runs, func(i, j int) bool { return before(st.runs[i].first, st.runs[j].first) })
}

// fold joins the earliest half of st's runs into one: the chunks being
// read are among the latest, whose runs still grow.
func (st *stampConn) fold() {
	st.sortRuns()
	k := len(st.runs) / 2
	acc := st.runs[0]
	for _, r := range st.runs[1:k] {
		st.join(&acc, r)
	}
	acc.block = -1
	st.runs[0] = acc
	st.runs = append(st.runs[:1], st.runs[k:]...)
}

// order joins st's runs and returns the stamps going backwards.
func (st *stampConn) order() (backStep, int64) {
	if len(st.runs) == 0 {
		return backStep{}, 0
	}
	st.sortRuns()
	acc := st.runs[0]
	for _, r := range st.runs[1:] {
		st.join(&acc, r)
	}
	return acc.back, acc.n
}

// Findings lists what the stamps visited show, one finding per connection
// and kind, at the chunk (or record) of the earliest message concerned.
func (c *StampCheck) Findings() []bag.Finding {
	var out []bag.Finding
	for _, conn := range c.list {
		st := c.conns[conn.ID]
		if st == nil {
			continue
		}
		st.mu.Lock()
		if f := st.old; f.n > 0 {
			out = append(out, bag.Finding{Severity: bag.Warning, Offset: f.first.loc.Block, Record: "message",
				Message: fmt.Sprintf("%s: %d of %d messages have a header.stamp in 1970 (the first received at %s, stamped %s): stamped before the clock was set, or with sim time in a recording of wall time",
					conn.Topic, f.n, st.n, bag.TimeFromNanos(f.first.log), stampText(f.first.stamp))})
		}
		if f := st.ahead; f.n > 0 {
			out = append(out, bag.Finding{Severity: bag.Warning, Offset: f.first.loc.Block, Record: "message",
				Message: fmt.Sprintf("%s: %d of %d messages have a header.stamp after the time they were received (the first received at %s, stamped %.3f s later; at most %.3f s): the publisher's clock runs ahead of the recorder's",
					conn.Topic, f.n, st.n, bag.TimeFromNanos(f.first.log), float64(f.first.stamp-f.first.log)/1e9, float64(f.worst)/1e9)})
		}
		if f := st.later; f.n > 0 {
			out = append(out, bag.Finding{Severity: bag.Warning, Offset: f.first.loc.Block, Record: "message",
				Message: fmt.Sprintf("%s: %d of %d messages have a header.stamp in the future, after this check ran (the first received at %s, stamped %s)",
					conn.Topic, f.n, st.n, bag.TimeFromNanos(f.first.log), stampText(f.first.stamp))})
		}
		if back, n := st.order(); n > 0 {
			sampled := ""
			if st.loose {
				sampled = " (counted approximately: its messages are far out of time order in the file)"
			}
			out = append(out, bag.Finding{Severity: bag.Warning, Offset: back.first.loc.Block, Record: "message",
				Message: fmt.Sprintf("%s: %d messages have a header.stamp earlier than the message received before them%s (the first received at %s, %.6f s back; at most %.6f s): a clock set back, or several publishers on one topic",
					conn.Topic, n, sampled, bag.TimeFromNanos(back.first.log), float64(back.firstBy)/1e9, float64(back.worst)/1e9)})
		}
		st.mu.Unlock()
	}
	return out
}

// backStep is the stamps going backwards in a connection.
type backStep struct {
	first   stampObs
	firstBy int64
	worst   int64
}

// stampText writes a stamp as seconds since the epoch.
func stampText(ns int64) string {
	if ns < 0 {
		return fmt.Sprintf("-%s", bag.TimeFromNanos(-ns))
	}
	return bag.TimeFromNanos(ns).String()
}
