package model

import (
	"context"
	"testing"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model/series"
)

// TestTopicRows checks the records kept for a topic against the chunk
// infos: in every chunk, as many message data records as the index counts
// for the topic's connections, and only records of that topic.
func TestTopicRows(t *testing.T) {
	for _, p := range []string{"../testdata/lz4-multichunk.bag", "../assets/sample.bag"} {
		t.Run(p, func(t *testing.T) {
			d, err := Open(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			topics := series.Topics(d.Storage)
			if len(topics) < 2 {
				t.Fatalf("need two topics, have %v", topics)
			}
			for _, topic := range topics[:2] {
				for _, ci := range d.Bag.ChunkInfos {
					recs, err := ReadChunkRecords(context.Background(), d.Bag, ci.ChunkPos)
					if err != nil {
						t.Fatal(err)
					}
					if TopicRows(recs, d.Bag, nil) != nil {
						t.Fatal("no topics must mean no filter")
					}
					want := 0
					for _, cc := range ci.Conns {
						if c := d.Bag.Connection(cc.Conn); c != nil && c.Topic == topic {
							want += int(cc.Count)
						}
					}
					msgs := 0
					for _, i := range TopicRows(recs, d.Bag, []string{topic}) {
						r, _ := recs.Record(i)
						switch r.Op {
						case ros1.OpMessageData:
							m, err := ros1.ParseMessageData(r)
							if err != nil || d.Bag.Connection(m.Conn).Topic != topic {
								t.Fatalf("record %d is not a message of %s", i, topic)
							}
							msgs++
						case ros1.OpConnection:
							if r.Header.String("topic") != topic {
								t.Fatalf("connection record %d is for %q", i, r.Header.String("topic"))
							}
						default:
							t.Fatalf("record %d is a %s", i, r.Op)
						}
					}
					if msgs != want {
						t.Errorf("chunk at %d, %s: %d message records, the index counts %d", ci.ChunkPos, topic, msgs, want)
					}
				}
			}
		})
	}
}
