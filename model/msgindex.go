package model

import (
	"cmp"
	"context"
	"iter"
	"slices"
	"sort"

	"github.com/bagscope/bagscope/bag"
)

// StageMessages is the progress stage of BuildMessageIndex.
const StageMessages = "indexing messages"

// MsgRef is one message as the index data lists it: its receive time and
// where it lives. 24 bytes, so a million messages cost 24 MB.
type MsgRef struct {
	T int64 // receive time, nanoseconds since the epoch
	MessageLoc
}

// TopicMessages is one topic's messages in receive-time order (ties in
// file order).
type TopicMessages struct {
	Topic string
	Refs  []MsgRef
}

// MessageIndex lists every message of a bag per topic, in time order. It is
// built from the index data records that follow each chunk, so no chunk is
// decompressed (but for a scanned bag's chunks whose index was missing).
type MessageIndex struct {
	// Topics are sorted by name.
	Topics []*TopicMessages
	// Errors are the chunks whose index could not be read, with why; their
	// messages are missing from the index.
	Errors []error
	byName map[string]*TopicMessages
}

// BuildMessageIndex reads the index data of every chunk. Progress counts
// chunks. A chunk whose index cannot be read is recorded in Errors and
// skipped; only ctx's cancellation stops the build early.
func BuildMessageIndex(ctx context.Context, b bag.Storage, progress ProgressFunc) (*MessageIndex, error) {
	x := &MessageIndex{byName: map[string]*TopicMessages{}}
	topicOf := func(conn uint32) *TopicMessages {
		name := "?"
		if c := b.Connection(conn); c != nil {
			name = c.Topic
		}
		t := x.byName[name]
		if t == nil {
			t = &TopicMessages{Topic: name}
			x.byName[name] = t
			x.Topics = append(x.Topics, t)
		}
		return t
	}
	blocks := b.Blocks()
	n := int64(len(blocks))
	for i, blk := range blocks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if progress != nil && i%64 == 0 {
			progress(int64(i), n, StageMessages)
		}
		idx, err := b.BlockIndex(blk)
		if err != nil {
			x.Errors = append(x.Errors, err)
		}
		for _, e := range idx {
			t := topicOf(e.Conn)
			t.Refs = append(t.Refs, MsgRef{T: e.Time.Nanos(), MessageLoc: MessageLoc{ChunkPos: e.Loc.Block, Offset: e.Loc.Offset, Conn: e.Conn}})
		}
	}
	if len(blocks) == 0 {
		// Messages outside any chunk (an unchunked MCAP) have no index
		// of their own: list them from the iterator.
		it := b.Messages(bag.MessageFilter{})
		for k := 0; it.Next(); k++ {
			if k&1023 == 0 && ctx.Err() != nil {
				break
			}
			m := it.Message()
			t := topicOf(m.Conn.ID)
			t.Refs = append(t.Refs, MsgRef{T: m.Time.Nanos(), MessageLoc: MessageLoc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}})
		}
		if err := it.Err(); err != nil {
			x.Errors = append(x.Errors, err)
		}
		it.Close()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	for _, t := range x.Topics {
		// Chunks may overlap in time; ties go in file order, as the
		// message iterator yields them.
		slices.SortFunc(t.Refs, func(a, b MsgRef) int {
			if c := cmp.Compare(a.T, b.T); c != 0 {
				return c
			}
			if c := cmp.Compare(a.ChunkPos, b.ChunkPos); c != 0 {
				return c
			}
			return cmp.Compare(a.Offset, b.Offset)
		})
	}
	slices.SortFunc(x.Topics, func(a, b *TopicMessages) int { return cmp.Compare(a.Topic, b.Topic) })
	if progress != nil {
		progress(n, n, StageMessages)
	}
	return x, nil
}

// Len is the number of the topic's messages.
func (t *TopicMessages) Len() int { return len(t.Refs) }

// At returns the topic's i-th message in time order; i must be in
// [0, Len()).
func (t *TopicMessages) At(i int) MsgRef { return t.Refs[i] }

// All yields the topic's messages in time order with their positions.
func (t *TopicMessages) All() iter.Seq2[int, MsgRef] {
	return func(yield func(int, MsgRef) bool) {
		for i, r := range t.Refs {
			if !yield(i, r) {
				return
			}
		}
	}
}

// Range yields the messages at positions [lo, hi) in time order with their
// positions; the bounds are clamped to [0, Len()].
func (t *TopicMessages) Range(lo, hi int) iter.Seq2[int, MsgRef] {
	return func(yield func(int, MsgRef) bool) {
		lo, hi := max(lo, 0), min(hi, len(t.Refs))
		for i := lo; i < hi; i++ {
			if !yield(i, t.Refs[i]) {
				return
			}
		}
	}
}

// Topic returns a topic's messages, or nil.
func (x *MessageIndex) Topic(name string) *TopicMessages { return x.byName[name] }

// Count is the number of indexed messages.
func (x *MessageIndex) Count() int {
	n := 0
	for _, t := range x.Topics {
		n += len(t.Refs)
	}
	return n
}

// Search returns the index of the first message at or after t.
func (t *TopicMessages) Search(ns int64) int {
	return sort.Search(len(t.Refs), func(i int) bool { return t.Refs[i].T >= ns })
}

// Nearest returns the index of the message closest in time to ns (the
// earlier one on a tie), or -1 when the topic has none.
func (t *TopicMessages) Nearest(ns int64) int {
	if len(t.Refs) == 0 {
		return -1
	}
	i := t.Search(ns)
	if i == len(t.Refs) {
		return i - 1
	}
	if i > 0 && ns-t.Refs[i-1].T <= t.Refs[i].T-ns {
		return i - 1
	}
	return i
}

// IndexOf returns the position of the message at loc, or -1.
func (t *TopicMessages) IndexOf(ref MsgRef) int {
	for i := t.Search(ref.T); i < len(t.Refs) && t.Refs[i].T == ref.T; i++ {
		if t.Refs[i].MessageLoc == ref.MessageLoc {
			return i
		}
	}
	return -1
}

// Nearest returns the message closest in time to ns among the named topics
// (all topics when topics is empty).
func (x *MessageIndex) Nearest(topics []string, ns int64) (MsgRef, bool) {
	var best MsgRef
	found := false
	consider := func(t *TopicMessages) {
		if i := t.Nearest(ns); i >= 0 {
			r := t.Refs[i]
			if !found || absDiff(r.T, ns) < absDiff(best.T, ns) {
				best, found = r, true
			}
		}
	}
	if len(topics) == 0 {
		for _, t := range x.Topics {
			consider(t)
		}
	} else {
		for _, name := range topics {
			if t := x.byName[name]; t != nil {
				consider(t)
			}
		}
	}
	return best, found
}

func absDiff(a, b int64) int64 {
	if a > b {
		return a - b
	}
	return b - a
}
