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
	// maxStampSamples bounds the (log time, stamp) pairs kept for the
	// check of stamps going backwards: beyond it every other one is
	// dropped, and the finding says it was checked on a sample.
	maxStampSamples = 4 << 20
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
	s     []stampObs   // samples, for the order
	thin  int          // 2^thin: samples kept one in so many
	skip  int          // samples to drop before the next kept one
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
			if int(conn.ID) >= len(c.byID) {
				c.byID = append(c.byID, make([]*stampConn, int(conn.ID)+1-len(c.byID))...)
			}
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
	if st.skip > 0 {
		st.skip--
		return
	}
	st.s = append(st.s, o)
	st.skip = 1<<st.thin - 1
	if len(st.s) >= maxStampSamples/max(1, len(c.conns)) {
		n := 0
		for i := 0; i < len(st.s); i += 2 {
			st.s[n] = st.s[i]
			n++
		}
		st.s = st.s[:n]
		st.thin++
	}
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
		if back, n := backwards(st.s); n > 0 {
			sampled := ""
			if st.thin > 0 {
				sampled = fmt.Sprintf(" (checked on one message in %d)", 1<<st.thin)
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

// backwards sorts the samples by receive time (then file position) and
// counts the stamps earlier than the one before.
func backwards(s []stampObs) (backStep, int64) {
	sort.Slice(s, func(i, j int) bool {
		if s[i].log != s[j].log {
			return s[i].log < s[j].log
		}
		if s[i].loc.Block != s[j].loc.Block {
			return s[i].loc.Block < s[j].loc.Block
		}
		return s[i].loc.Offset < s[j].loc.Offset
	})
	var b backStep
	var n int64
	for i := 1; i < len(s); i++ {
		if d := s[i-1].stamp - s[i].stamp; d > 0 {
			if n == 0 {
				b.first, b.firstBy = s[i], d
			}
			n++
			b.worst = max(b.worst, d)
		}
	}
	return b, n
}

// stampText writes a stamp as seconds since the epoch.
func stampText(ns int64) string {
	if ns < 0 {
		return fmt.Sprintf("-%s", bag.TimeFromNanos(-ns))
	}
	return bag.TimeFromNanos(ns).String()
}
