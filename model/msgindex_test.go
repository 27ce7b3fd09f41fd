package model

import (
	"context"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model/internal/reftest"
	"github.com/bagscope/bagscope/model/msgref"
)

// TestMessageIndexMatchesIterator builds the message index of every shared
// bag (indexed, unindexed and damaged ones) and checks it against the
// message iterator, which the bag tests compare with the reference: the
// same messages per topic, at the same places, in the same order.
func TestMessageIndexMatchesIterator(t *testing.T) {
	paths := reftest.SharedBagPaths(t, sharedBags)
	for _, p := range paths {
		t.Run(strings.TrimPrefix(p, sharedBags+"/"), func(t *testing.T) {
			b, err := ros1.OpenOrScan(p)
			if err != nil {
				t.Skip(err)
			}
			defer b.Close()
			if b.Scan != nil {
				b.DropUnreadableChunks()
			}
			x, err := BuildMessageIndex(context.Background(), ros1.NewStore(b), nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(x.Errors) > 0 {
				t.Fatalf("index errors: %v", x.Errors)
			}
			want := map[string][]msgref.Ref{}
			it := b.Messages(ros1.MessageFilter{})
			for it.Next() {
				m := it.Message()
				want[m.Conn.Topic] = append(want[m.Conn.Topic], msgref.Ref{T: m.Time.Nanos(), Loc: msgref.Loc{ChunkPos: m.ChunkPos, Offset: m.Offset, Conn: m.Conn.ID}})
			}
			it.Close()
			if err := it.Err(); err != nil {
				t.Fatalf("iterator: %v", err)
			}
			total := 0
			for topic, refs := range want {
				total += len(refs)
				got := x.Topic(topic)
				if got == nil {
					t.Fatalf("topic %s missing from the index", topic)
				}
				if got.Len() != len(refs) {
					t.Fatalf("%s: %d messages indexed, iterator yields %d", topic, got.Len(), len(refs))
				}
				for i := range refs {
					if got.At(i) != refs[i] {
						t.Fatalf("%s message %d: index %+v, iterator %+v", topic, i, got.At(i), refs[i])
					}
				}
			}
			if x.Count() != total {
				t.Errorf("index has %d messages, iterator %d", x.Count(), total)
			}
		})
	}
}

func TestTopicMessagesLookups(t *testing.T) {
	tm := NewTopicMessages("", []msgref.Ref{{T: 10}, {T: 20}, {T: 20, Loc: msgref.Loc{Offset: 5}}, {T: 40}})
	cases := []struct {
		ns              int64
		search, nearest int
	}{
		{0, 0, 0}, {10, 0, 0}, {14, 1, 0}, {15, 1, 0}, {16, 1, 1}, {20, 1, 1},
		{29, 3, 2}, {31, 3, 3}, {40, 3, 3}, {99, 4, 3},
	}
	for _, c := range cases {
		if got := tm.Search(c.ns); got != c.search {
			t.Errorf("Search(%d) = %d, want %d", c.ns, got, c.search)
		}
		if got := tm.Nearest(c.ns); got != c.nearest {
			t.Errorf("Nearest(%d) = %d, want %d", c.ns, got, c.nearest)
		}
	}
	if got := tm.IndexOf(tm.At(2)); got != 2 {
		t.Errorf("IndexOf = %d, want 2", got)
	}
	if got := tm.IndexOf(msgref.Ref{T: 20, Loc: msgref.Loc{Offset: 9}}); got != -1 {
		t.Errorf("IndexOf(absent) = %d, want -1", got)
	}
	if (&TopicMessages{}).Nearest(5) != -1 {
		t.Error("Nearest on an empty topic should be -1")
	}
}
