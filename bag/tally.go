package bag

import (
	"fmt"
	"sort"
)

// Tally is what a read of a recording's messages gave: the messages read
// and the suspect ones among them, in all and by connection. ReadDamage
// compares it with what the recording claims of each topic (TopicClaim),
// so that a loss names the topics that lost messages and how many. It is
// not safe for concurrent use.
type Tally struct {
	Read, Suspects uint64
	conn           map[uint32]*[2]uint64 // read, suspect; nil: not counted by connection
}

// Add counts m.
func (t *Tally) Add(m *Message) {
	if m.Conn == nil {
		t.Read++
		if m.Suspect != "" {
			t.Suspects++
		}
		return
	}
	var s uint64
	if m.Suspect != "" {
		s = 1
	}
	t.AddConn(m.Conn.ID, 1, s)
}

// AddConn counts n messages of connection id, suspect of them suspect.
func (t *Tally) AddConn(id uint32, n, suspect uint64) {
	t.Read += n
	t.Suspects += suspect
	if t.conn == nil {
		t.conn = map[uint32]*[2]uint64{}
	}
	c := t.conn[id]
	if c == nil {
		c = new([2]uint64)
		t.conn[id] = c
	}
	c[0] += n
	c[1] += suspect
}

// ByConn reports whether t counts by connection.
func (t Tally) ByConn() bool { return t.conn != nil }

// Conn returns the messages of connection id read (0 when t does not
// count by connection).
func (t Tally) Conn(id uint32) uint64 {
	if c := t.conn[id]; c != nil {
		return c[0]
	}
	return 0
}

// TopicClaimer is a Storage whose structure claims how many messages each
// topic holds, apart from the messages themselves: a ROS 1 bag's chunk
// infos (written when it was closed, each with its chunk's count per
// connection). MCAP's statistics record and metadata.yaml claim it in
// FileInfo().Claim.Topics.
type TopicClaimer interface {
	// TopicClaim returns the claim, or nil when the structure does not
	// give one it can stand by (a bag opened by a scan).
	TopicClaim() *Claim
}

// TopicClaimOf returns what s claims of each topic (its Claim's counts,
// else its structure's: TopicClaimer), or nil when it claims nothing per
// topic.
func TopicClaimOf(s Storage) *Claim { return topicClaim(s, DamageOf(s)) }

// topicClaim returns what s claims of each topic: its Claim's counts,
// else those its structure gives (TopicClaimer).
func topicClaim(s Storage, d *Damage) *Claim {
	if c := d.Claim; c != nil && len(c.Topics) > 0 {
		return c
	}
	for x := s; x != nil; {
		if tc, ok := x.(TopicClaimer); ok {
			if c := tc.TopicClaim(); c != nil && len(c.Topics) > 0 {
				return c
			}
			return nil
		}
		u, ok := x.(interface{ Unwrap() Storage })
		if !ok {
			break
		}
		x = u.Unwrap()
	}
	return nil
}

// TopicLoss is what one topic lost: the recording claims Claimed of its
// messages (By says where), Read of them were read, Suspect of those from
// damaged units. Lost is the difference, exact when none read is suspect
// (each suspect one may stand for one recorded and lost).
type TopicLoss struct {
	Topic         string
	Claimed, Read uint64
	Suspect       uint64
	Lost          Count
	By            string
}

// String says it as "/imu: 33 lost" or "/imu: 2 to 5 lost".
func (t TopicLoss) String() string { return fmt.Sprintf("%s: %v lost", t.Topic, t.Lost) }

// topicLosses compares what a read of every message gave per topic with
// what the recording claims per topic: the topics that lost messages,
// most lost first. nil when the read was not counted by connection or the
// recording claims nothing per topic. A topic read more often than
// claimed contradicts the claim: it is left out, as is one that lost none.
func topicLosses(s Storage, d *Damage, t Tally) []TopicLoss {
	if t.conn == nil {
		return nil
	}
	c := topicClaim(s, d)
	if c == nil {
		return nil
	}
	read := map[string]*[2]uint64{}
	for id, n := range t.conn {
		topic := ""
		if conn := s.Connection(id); conn != nil {
			topic = conn.Topic
		}
		r := read[topic]
		if r == nil {
			r = new([2]uint64)
			read[topic] = r
		}
		r[0] += n[0]
		r[1] += n[1]
	}
	var out []TopicLoss
	for topic, claimed := range c.Topics {
		var r [2]uint64
		if p := read[topic]; p != nil {
			r = *p
		}
		if r[0] > claimed || r[0] == claimed && r[1] == 0 {
			continue
		}
		lo := claimed - r[0]
		out = append(out, TopicLoss{Topic: topic, Claimed: claimed, Read: r[0], Suspect: r[1], Lost: Between(lo, lo+r[1]), By: c.By})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Lost.Min != out[j].Lost.Min {
			return out[i].Lost.Min > out[j].Lost.Min
		}
		return out[i].Topic < out[j].Topic
	})
	return out
}
