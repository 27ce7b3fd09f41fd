package model

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/stats"
)

// TopicColumn names a column of the topics table.
type TopicColumn int

// The topics table's columns, in display order.
const (
	ColTopic TopicColumn = iota
	ColType
	ColMessages
	ColFrequency
	ColBytes
	ColConnections
	ColQoS
	NumTopicColumns
)

// String returns the column's header text.
func (c TopicColumn) String() string {
	switch c {
	case ColTopic:
		return "Topic"
	case ColType:
		return "Type"
	case ColMessages:
		return "Messages"
	case ColFrequency:
		return "Frequency (Hz)"
	case ColBytes:
		return "Bytes"
	case ColConnections:
		return "Connections"
	case ColQoS:
		return "QoS"
	}
	return "?"
}

// TopicView is the topics table's rows after filtering and sorting.
type TopicView struct {
	all      []Topic
	rows     []Topic
	lines    []TopicLine
	expanded map[string]bool
	filter   string
	col      TopicColumn
	desc     bool
	// bytesWait says the bytes are not being counted: they wait for
	// the user (a remote recording), so an unknown count is not "…".
	bytesWait bool
}

// NotCounted is the Bytes cell of a topic whose bytes wait for the user
// to count them (a remote recording), where "…" would say they are being
// counted.
const NotCounted = "—"

// SetBytesWaiting says whether unknown bytes wait for the user (true) or
// are being counted (false, the default).
func (v *TopicView) SetBytesWaiting(wait bool) { v.bytesWait = wait }

// LineCell is the text of line's column col, as the table shows it.
func (v *TopicView) LineCell(line TopicLine, col TopicColumn) string {
	text := line.Topic.Cell(col)
	if line.Conn != nil {
		text = line.Conn.Cell(col)
	}
	if col == ColBytes && v.bytesWait && text == "…" {
		return NotCounted
	}
	return text
}

// NewTopicView shows all topics sorted by name.
func NewTopicView(topics []Topic) *TopicView {
	v := &TopicView{all: slices.Clone(topics)}
	v.apply()
	return v
}

// Rows returns the visible rows.
func (v *TopicView) Rows() []Topic { return v.rows }

// Total returns the number of topics before filtering.
func (v *TopicView) Total() int { return len(v.all) }

// Sorting returns the sort column and direction.
func (v *TopicView) Sorting() (col TopicColumn, desc bool) { return v.col, v.desc }

// SetFilter keeps the topics whose name or type contains q, ignoring case.
func (v *TopicView) SetFilter(q string) {
	v.filter = strings.TrimSpace(q)
	v.apply()
}

// SortBy sorts by col; sorting again by the same column reverses the order.
// Numeric columns start with the largest value first.
func (v *TopicView) SortBy(col TopicColumn) {
	if col == v.col {
		v.desc = !v.desc
	} else {
		v.col = col
		v.desc = col != ColTopic && col != ColType
	}
	v.apply()
}

func (v *TopicView) apply() {
	q := strings.ToLower(v.filter)
	v.rows = v.rows[:0]
	for _, t := range v.all {
		if q == "" || strings.Contains(strings.ToLower(t.Topic), q) || strings.Contains(strings.ToLower(t.Type), q) {
			v.rows = append(v.rows, t)
		}
	}
	slices.SortStableFunc(v.rows, func(a, b Topic) int {
		if c := cmp.Compare(a.Member, b.Member); c != 0 {
			// Several recordings: the first's topics, then the next
			// one's (B:…), each sorted by the column in either
			// direction, as the timeline's lanes are grouped: a
			// column's order across recordings would mix two
			// recordings' rows whose names differ only by B:.
			return c
		}
		c := compareTopics(a, b, v.col)
		if c == 0 {
			c = cmp.Compare(a.Topic, b.Topic)
			if v.desc {
				c = -c // keep ties in name order whatever the direction
			}
		}
		if v.desc {
			return -c
		}
		return c
	})
	v.lines = v.lines[:0]
	for i := range v.rows {
		t := &v.rows[i]
		v.lines = append(v.lines, TopicLine{Topic: t})
		if t.Expandable() && v.expanded[t.Topic] {
			for j := range t.Conns {
				v.lines = append(v.lines, TopicLine{Topic: t, Conn: &t.Conns[j]})
			}
		}
	}
}

func compareTopics(a, b Topic, col TopicColumn) int {
	switch col {
	case ColType:
		return cmp.Compare(a.Type, b.Type)
	case ColMessages:
		return cmp.Compare(a.Messages, b.Messages)
	case ColFrequency:
		return compareRates(a.Stats, b.Stats)
	case ColBytes:
		return cmp.Compare(a.Bytes, b.Bytes)
	case ColConnections:
		return cmp.Compare(a.Connections, b.Connections)
	case ColQoS:
		return cmp.Compare(a.QoS, b.QoS)
	}
	return cmp.Compare(a.Topic, b.Topic)
}

// Cell returns the text of row r's column col.
func (t Topic) Cell(col TopicColumn) string {
	switch col {
	case ColTopic:
		return t.Topic
	case ColType:
		if len(t.Types) > 1 {
			return strings.Join(t.Types, ", ")
		}
		return t.Type
	case ColMessages:
		return claimedCount(t.Messages, t.Claimed, t.HasClaim)
	case ColFrequency:
		return t.Stats.RateText()
	case ColBytes:
		if !t.BytesKnown {
			return "…"
		}
		return human.Size(int64(t.Bytes))
	case ColConnections:
		return human.Count(uint64(t.Connections))
	case ColQoS:
		return t.QoS
	}
	return ""
}

// Cell returns the text of a connection row's column col.
func (c ConnRow) Cell(col TopicColumn) string {
	switch col {
	case ColTopic:
		s := fmt.Sprintf("connection %d", c.ID)
		if c.CallerID != "" {
			s += " · " + c.CallerID
		}
		if c.Latching {
			s += " · latched"
		}
		return s
	case ColType:
		return c.Type
	case ColMessages:
		return claimedCount(c.Messages, c.Claimed, c.HasClaim)
	case ColFrequency:
		return c.Stats.RateText()
	case ColBytes:
		if !c.BytesKnown {
			return "…"
		}
		return human.Size(int64(c.Bytes))
	case ColConnections:
		if len(c.MD5Sum) > 8 {
			return "md5 " + c.MD5Sum[:8]
		}
		return c.MD5Sum
	case ColQoS:
		return c.QoS
	}
	return ""
}

// TopicLine is one line of the topics table: a topic, or (Conn set) one
// of the connections of an expanded topic.
type TopicLine struct {
	Topic *Topic
	Conn  *ConnRow
}

// Lines returns the visible rows with the connections of expanded topics
// under them.
func (v *TopicView) Lines() []TopicLine { return v.lines }

// Expandable says whether a topic has several connections to show.
func (t *Topic) Expandable() bool { return len(t.Conns) > 1 }

// Expanded says whether a topic's connections are shown.
func (v *TopicView) Expanded(topic string) bool { return v.expanded[topic] }

// ToggleExpanded shows or hides a topic's connections.
func (v *TopicView) ToggleExpanded(topic string) {
	if v.expanded == nil {
		v.expanded = map[string]bool{}
	}
	v.expanded[topic] = !v.expanded[topic]
	v.apply()
}

// SetBytes fills in the payload bytes per connection (and so per topic),
// once they have been counted.
func (v *TopicView) SetBytes(perConn map[uint32]uint64) {
	for i := range v.all {
		t := &v.all[i]
		t.Bytes, t.BytesKnown = 0, true
		for j := range t.Conns {
			c := &t.Conns[j]
			c.Bytes, c.BytesKnown = perConn[c.ID], true
			t.Bytes += c.Bytes
		}
	}
	v.apply()
}

// SetRead makes every topic's and connection's count the messages a read
// of every message gave (read, by connection ID), so the table says what
// was read; where the recording claims another number, it is kept beside
// it (Claimed: "355 of 356"): claim's count of the topic (metadata.yaml,
// a statistics record, a ROS 1 bag's chunk infos) when it gives one, else
// what the index or summary counted.
func (v *TopicView) SetRead(read func(id uint32) uint64, claim *bag.Claim) {
	for i := range v.all {
		t := &v.all[i]
		var sum uint64
		for j := range t.Conns {
			c := &t.Conns[j]
			n := read(c.ID)
			if n != c.Messages && !c.HasClaim {
				c.Claimed, c.HasClaim = c.Messages, true
			}
			c.Messages = n
			sum += n
		}
		if n, ok := claim.Count(t.Topic); ok && !t.HasClaim {
			t.Claimed, t.HasClaim = n, n != sum
		} else if sum != t.Messages && !t.HasClaim {
			t.Claimed, t.HasClaim = t.Messages, true
		}
		t.Messages = sum
	}
	v.apply()
}

// claimedCount says a count read, with what the recording claimed beside
// it when that differs: "355 of 356".
func claimedCount(n, claimed uint64, has bool) string {
	if has && claimed != n {
		return human.Count(n) + " of " + human.Count(claimed)
	}
	return human.Count(n)
}

// SetStats fills in every topic's and connection's timing statistics once
// computed; a topic or connection without messages gets empty ones.
func (v *TopicView) SetStats(set *stats.Set) {
	for i := range v.all {
		t := &v.all[i]
		t.Stats = set.Topic(t.Topic)
		if t.Stats == nil {
			t.Stats = &stats.Topic{}
		}
		for j := range t.Conns {
			c := &t.Conns[j]
			c.Stats = set.Conn(c.ID)
			if c.Stats == nil {
				c.Stats = &stats.Topic{}
			}
		}
	}
	v.apply()
}

// compareRates orders by rate: not yet computed first, then no rate,
// then by rate.
func compareRates(a, b *stats.Topic) int {
	key := func(s *stats.Topic) (int, float64) {
		switch {
		case s == nil:
			return 0, 0
		case !s.HasRate:
			return 1, 0
		}
		return 2, s.Rate
	}
	ka, ra := key(a)
	kb, rb := key(b)
	if c := cmp.Compare(ka, kb); c != 0 {
		return c
	}
	return cmp.Compare(ra, rb)
}
