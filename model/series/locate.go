package series

import (
	"context"
	"errors"
	"fmt"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/msgref"
)

// ErrNotFound means Locate found no message for a point.
var ErrNotFound = errors.New("message not found")

// locateWindow is how far, in receive time, Locate first looks around a
// header stamp before reading the whole topic.
const locateWindow = 10e9

// Locate returns where the message of point i lives, for "click a point,
// select its message". With KeepIndex it is a lookup. Otherwise the message
// is found again through the iterator: on the receive time base, the
// messages of the topic at exactly T[i] (one chunk or a few); on the stamp
// and publish time bases, the messages received within 10 s of the time, or
// the whole topic when that window does not account for every point with
// this time; on the clock time base, the whole topic.
// Among messages with equal times, the point's rank (ties keep receive
// order) picks the message, counting the points each message gives the
// series, as extraction does.
func (s *Series) Locate(ctx context.Context, b bag.Storage, i int) (msgref.Loc, error) {
	n := s.Len()
	if i < 0 || i >= n {
		return msgref.Loc{}, fmt.Errorf("point %d of %s: %w", i, s.Name, ErrNotFound)
	}
	if s.Loc != nil {
		return s.Loc[i], nil
	}
	t := s.Time(i)
	first, last := i, i
	for first > 0 && s.Time(first-1) == t {
		first--
	}
	for last+1 < n && s.Time(last+1) == t {
		last++
	}
	rank, ties := i-first, last-first+1
	if s.base == ReceiveTime {
		tt := bag.TimeFromNanos(t)
		return s.find(ctx, b, bag.MessageFilter{Topics: []string{s.Ref.Topic}, Start: tt, End: tt}, t, rank, -1)
	}
	if s.base != ClockTime {
		// A stamp or a publish time lies near its receive time; a sim
		// time need not.
		w := bag.MessageFilter{Topics: []string{s.Ref.Topic}, Start: bag.TimeFromNanos(t - locateWindow), End: bag.TimeFromNanos(t + locateWindow)}
		if loc, err := s.find(ctx, b, w, t, rank, ties); err == nil || !errors.Is(err, ErrNotFound) {
			return loc, err
		}
	}
	return s.find(ctx, b, bag.MessageFilter{Topics: []string{s.Ref.Topic}}, t, rank, -1)
}

// find returns the rank-th message (0-based) among those f selects whose
// time on the series' base is t and whose field reads. When ties >= 0 the
// filter must see exactly ties such messages, or the answer is ErrNotFound
// (the window may have cut some off).
func (s *Series) find(ctx context.Context, b bag.Storage, f bag.MessageFilter, t int64, rank, ties int) (msgref.Loc, error) {
	it := b.Messages(f)
	defer it.Close()
	n := 0
	var found msgref.Loc
	count := pointCounter{name: s.Name}
	for it.Next() {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return msgref.Loc{}, err
			}
		}
		m := it.Message()
		path, ok := s.paths[m.Conn.ID]
		if !ok {
			continue
		}
		mt := m.Time.Nanos()
		if sp, ok := s.stamps[m.Conn.ID]; ok {
			st, err := sp.Nanos(m.Data)
			if err != nil {
				continue
			}
			if s.base == HeaderStamp {
				mt = st
			}
		}
		switch s.base {
		case PublishTime:
			mt = m.PublishTime.Nanos()
		case ClockTime:
			var ok bool
			if mt, ok = s.clock.At(m.Time.Nanos()); !ok {
				continue
			}
		}
		if mt != t {
			continue
		}
		points := 1
		if path != nil {
			count.n = 0
			count.buf = append(append(count.buf[:0], s.Ref.Topic...), '.')
			count.buf, _ = path.Walk(m.Data, count.buf, &count)
			points = count.n
		}
		if n <= rank && rank < n+points {
			found = msgref.Loc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}
			if ties < 0 {
				return found, nil
			}
		}
		n += points
	}
	if err := it.Err(); err != nil {
		return msgref.Loc{}, err
	}
	if n > rank && (ties < 0 || n == ties) {
		return found, nil
	}
	return msgref.Loc{}, fmt.Errorf("point at %s of %s: %w", bag.TimeFromNanos(t), s.Name, ErrNotFound)
}

// pointCounter counts the values of one series a message holds.
type pointCounter struct {
	name string
	buf  []byte
	n    int
}

func (c *pointCounter) Value(name []byte, _ float64) {
	if string(name) == c.name {
		c.n++
	}
}
