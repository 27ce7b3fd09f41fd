package model

import (
	"cmp"
	"slices"
	"strings"
)

// TopicColumn names a column of the topics table.
type TopicColumn int

// The topics table's columns, in display order.
const (
	ColTopic TopicColumn = iota
	ColType
	ColMessages
	ColFrequency
	ColConnections
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
	case ColConnections:
		return "Connections"
	}
	return "?"
}

// TopicView is the topics table's rows after filtering and sorting.
type TopicView struct {
	all    []Topic
	rows   []Topic
	filter string
	col    TopicColumn
	desc   bool
}

// NewTopicView shows all topics sorted by name.
func NewTopicView(topics []Topic) *TopicView {
	v := &TopicView{all: topics}
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
}

func compareTopics(a, b Topic, col TopicColumn) int {
	switch col {
	case ColType:
		return cmp.Compare(a.Type, b.Type)
	case ColMessages:
		return cmp.Compare(a.Messages, b.Messages)
	case ColFrequency:
		return cmp.Compare(a.Frequency, b.Frequency)
	case ColConnections:
		return cmp.Compare(a.Connections, b.Connections)
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
		return Count(t.Messages)
	case ColFrequency:
		return Frequency(t.Frequency)
	case ColConnections:
		return Count(uint64(t.Connections))
	}
	return ""
}
