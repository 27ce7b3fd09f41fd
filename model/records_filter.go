package model

import (
	"slices"

	"github.com/bagscope/bagscope/bag/ros1"
)

// TopicRows returns the indices of the records of set that belong to the
// given topics: message data records of their connections and their
// connection records. Records that belong to no topic (chunks, index data,
// chunk infos, the bag header) are left out; so is a message data record
// whose header cannot be read. No topics means no filter: nil.
func TopicRows(set RecordSet, b *ros1.Bag, topics []string) []int {
	if len(topics) == 0 {
		return nil
	}
	rows := []int{}
	for i := range set.Len() {
		rec, err := set.Record(i)
		if err != nil {
			continue
		}
		var topic string
		switch rec.Op {
		case ros1.OpMessageData:
			m, err := ros1.ParseMessageData(rec)
			if err != nil {
				continue
			}
			if c := b.Connection(m.Conn); c != nil {
				topic = c.Topic
			}
		case ros1.OpConnection:
			topic = rec.Header.String("topic")
		default:
			continue
		}
		if slices.Contains(topics, topic) {
			rows = append(rows, i)
		}
	}
	return rows
}
