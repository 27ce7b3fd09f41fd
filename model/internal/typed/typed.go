// Package typed reads the messages of one kind of topic decoded, as the
// transform tree (model/tf) and the diagnostics (model/diag) read theirs:
// in receive order, with progress, cancel, the undecodable ones said, and
// each message's tree reusing the last one's nodes.
package typed

import (
	"context"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// Reader says what to do with the messages Each reads.
type Reader struct {
	// Progress, when set, is told the messages read so far of the total
	// the index counts for the connections.
	Progress func(done, total int64)
	// Done, when set, is given the finished iterator before it is closed,
	// to ask what the read skipped (bag.DamageAfter).
	Done func(it bag.MessageIter)
	// Visit gets each decoded message. The tree is valid until Visit
	// returns: keep copies (its strings are).
	Visit func(m *bag.Message, n *rosmsg.Node)
	// Undecodable gets each message that could not be decoded.
	Undecodable func(m *bag.Message, err error)
}

// Each reads the messages of f (its Conns: the topics of the kind) of st
// with r. A read that stops (cancelled, checked every 256 messages, or on
// damage) returns its error; what was read before was visited.
func Each(ctx context.Context, st bag.Storage, f bag.MessageFilter, r Reader) error {
	var total int64
	if s, _ := st.Summary(); s != nil {
		for _, id := range f.Conns {
			total += int64(s.ConnMessages[id])
		}
	}
	var cache rosmsg.Cache
	var scratch rosmsg.Scratch
	it := st.Messages(f)
	defer it.Close()
	var done int64
	for it.Next() {
		if done%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if r.Progress != nil {
				r.Progress(done, total)
			}
		}
		done++
		m := it.Message()
		plan, err := cache.GetSchema(m.Conn.SchemaEncoding, m.Conn.Encoding, m.Conn.Type, m.Conn.Definition)
		var n *rosmsg.Node
		if err == nil {
			n, err = plan.DecodeScratch(m.Data, &scratch)
		}
		if err != nil {
			r.Undecodable(m, err)
			continue
		}
		r.Visit(m, n)
	}
	if r.Progress != nil {
		r.Progress(done, total)
	}
	if r.Done != nil {
		r.Done(it)
	}
	return it.Err()
}

// StampOf reads a time field: a ROS 1 time, or a ROS 2
// builtin_interfaces/Time message (sec, nanosec).
func StampOf(n *rosmsg.Node) (bag.Time, bool) {
	if n == nil {
		return bag.Time{}, false
	}
	if n.Kind == rosmsg.KindTime && !n.Array {
		t := n.Time()
		return bag.Time{Sec: t.Sec, NSec: t.Nsec}, true
	}
	s, ns := n.Field("sec"), n.Field("nanosec")
	if s == nil || ns == nil {
		return bag.Time{}, false
	}
	sec := s.Int()
	if sec < 0 || sec > 1<<32-1 || ns.Uint() >= 1e9 {
		return bag.Time{}, false
	}
	return bag.Time{Sec: uint32(sec), NSec: uint32(ns.Uint())}, true
}
