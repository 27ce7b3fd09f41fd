package model

import (
	"cmp"
	"context"
	"fmt"
	"iter"
	"slices"
	"sort"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/msgref"
)

// StageMessages is the progress stage of BuildMessageIndex.
const StageMessages = "indexing messages"

// TopicMessages is one topic's messages in receive-time order (ties in
// file order), kept in a few bytes a message.
type TopicMessages struct {
	Topic string
	n     int
	data  stream       // the messages, each encoded against the one before
	cps   []checkpoint // every cpEvery-th message in full
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

// indexBatch is how many blocks' index records BuildMessageIndex asks a
// remote file for at once: one multi-range request (servers answer up to
// 100 ranges in one).
const indexBatch = 64

// BuildMessageIndex reads the index data of every chunk. Progress counts
// chunks. A chunk whose index cannot be read is recorded in Errors and
// skipped; only ctx's cancellation stops the build early.
func BuildMessageIndex(ctx context.Context, b bag.Storage, progress ProgressFunc) (*MessageIndex, error) {
	x := &MessageIndex{byName: map[string]*TopicMessages{}}
	builders := map[string]*topicBuilder{}
	byConn := map[uint32]*topicBuilder{}
	builderOf := func(conn uint32) *topicBuilder {
		if tb := byConn[conn]; tb != nil {
			return tb
		}
		name := "?"
		if c := b.Connection(conn); c != nil {
			name = c.Topic
		}
		tb := builders[name]
		if tb == nil {
			t := &TopicMessages{Topic: name}
			tb = &topicBuilder{tm: t}
			builders[name] = tb
			x.byName[name] = t
			x.Topics = append(x.Topics, t)
		}
		byConn[conn] = tb
		return tb
	}
	var scratch []msgref.Ref
	blocks := b.Blocks()
	n := int64(len(blocks))
	// A remote file fetches the index records of up to indexBatch blocks
	// at a time together (as many as its budget holds), not a round trip
	// per block.
	pf := bag.IndexPrefetcherOf(b)
	release := func() {}
	defer func() { release() }()
	next := 0 // the first block the last prefetch did not cover
	for i, blk := range blocks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if pf != nil && i == next {
			release()
			var covered int
			release, covered = pf.PrefetchBlockIndexes(blocks[i:min(i+indexBatch, len(blocks))])
			next = i + max(covered, 1)
		}
		if progress != nil && i%64 == 0 {
			progress(int64(i), n, StageMessages)
		}
		idx, err := b.BlockIndex(blk)
		if err != nil {
			x.Errors = append(x.Errors, err)
		}
		// A block lists its messages connection by connection, each in
		// file order; sorted here, a topic's messages come in index order
		// unless chunks overlap in time.
		scratch = scratch[:0]
		for _, e := range idx {
			scratch = append(scratch, msgref.Ref{T: e.Time.Nanos(), Loc: msgref.Loc{ChunkPos: e.Loc.Block, Offset: e.Loc.Offset, Conn: e.Conn}})
		}
		if !slices.IsSortedFunc(scratch, refCompare) {
			slices.SortStableFunc(scratch, refCompare)
		}
		for _, r := range scratch {
			builderOf(r.Conn).add(r)
		}
	}
	scratch = nil
	if mt := bag.MessageTimerOf(b); len(blocks) == 0 && mt != nil {
		// A .db3 lists its rows' times in file order, without the data
		// (see bag.MessageTimer).
		k := 0
		err := mt.MessageTimes(ctx, func(conn uint32, t bag.Time, loc bag.Loc) bool {
			builderOf(conn).add(msgref.Ref{T: t.Nanos(), Loc: msgref.Loc{ChunkPos: loc.Block, Offset: loc.Offset, Conn: conn}})
			k++
			return k&1023 != 0 || ctx.Err() == nil
		})
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err != nil {
			x.Errors = append(x.Errors, err)
		}
	} else if len(blocks) == 0 {
		// Messages outside any chunk (an unchunked MCAP) have no index
		// of their own: list them from the iterator.
		it := b.Messages(bag.MessageFilter{})
		for k := 0; it.Next(); k++ {
			if k&1023 == 0 && ctx.Err() != nil {
				break
			}
			m := it.Message()
			builderOf(m.Conn.ID).add(msgref.Ref{T: m.Time.Nanos(), Loc: msgref.Loc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}})
		}
		if err := it.Err(); err != nil {
			x.Errors = append(x.Errors, err)
		}
		it.Close()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
	}
	for _, tb := range builders {
		// Chunks may overlap in time; ties go in file order, as the
		// message iterator yields them.
		tb.finish()
	}
	slices.SortFunc(x.Topics, func(a, b *TopicMessages) int { return cmp.Compare(a.Topic, b.Topic) })
	if progress != nil {
		progress(n, n, StageMessages)
	}
	return x, nil
}

// Topic returns a topic's messages, or nil.
func (x *MessageIndex) Topic(name string) *TopicMessages { return x.byName[name] }

// Count is the number of indexed messages.
func (x *MessageIndex) Count() int {
	n := 0
	for _, t := range x.Topics {
		n += t.Len()
	}
	return n
}

// Len is the number of the topic's messages.
func (t *TopicMessages) Len() int { return t.n }

// At returns the topic's i-th message in time order; i must be in
// [0, Len()).
func (t *TopicMessages) At(i int) msgref.Ref {
	if uint(i) >= uint(t.n) {
		panic(fmt.Sprintf("model: message %d of a topic of %d", i, t.n))
	}
	c := t.cursorAt(i)
	return c.cur
}

// All yields the topic's messages in time order with their positions.
func (t *TopicMessages) All() iter.Seq2[int, msgref.Ref] { return t.Range(0, t.n) }

// Range yields the messages at positions [lo, hi) in time order with their
// positions; the bounds are clamped to [0, Len()].
func (t *TopicMessages) Range(lo, hi int) iter.Seq2[int, msgref.Ref] {
	return func(yield func(int, msgref.Ref) bool) {
		lo, hi := max(lo, 0), min(hi, t.n)
		if lo >= hi {
			return
		}
		c := t.cursorAt(lo)
		if !yield(lo, c.cur) {
			return
		}
		for i := lo + 1; i < hi; i++ {
			c.next()
			if !yield(i, c.cur) {
				return
			}
		}
	}
}

// Search returns the index of the first message at or after t.
func (t *TopicMessages) Search(ns int64) int {
	// The first checkpoint at or after ns; the answer is after the one
	// before it and at most at it.
	j := sort.Search(len(t.cps), func(j int) bool { return t.cps[j].ref.T >= ns })
	if j == 0 {
		return 0
	}
	i := (j - 1) << cpShift
	c := newCursor(&t.data, t.cps[j-1].pos, i, t.cps[j-1].ref)
	last := min(t.n, i+cpEvery)
	for c.i+1 < last {
		c.next()
		if c.cur.T >= ns {
			return c.i
		}
	}
	return last
}

// Nearest returns the index of the message closest in time to ns (the
// earlier one on a tie), or -1 when the topic has none.
func (t *TopicMessages) Nearest(ns int64) int {
	if t.n == 0 {
		return -1
	}
	i := t.Search(ns)
	if i == t.n {
		return i - 1
	}
	if i > 0 && ns-t.At(i-1).T <= t.At(i).T-ns {
		return i - 1
	}
	return i
}

// IndexOf returns the position of the message at loc, or -1.
func (t *TopicMessages) IndexOf(ref msgref.Ref) int {
	for i, r := range t.Range(t.Search(ref.T), t.n) {
		if r.T != ref.T {
			break
		}
		if r.Loc == ref.Loc {
			return i
		}
	}
	return -1
}

// Nearest returns the message closest in time to ns among the named topics
// (all topics when topics is empty).
func (x *MessageIndex) Nearest(topics []string, ns int64) (msgref.Ref, bool) {
	var best msgref.Ref
	found := false
	consider := func(t *TopicMessages) {
		if i := t.Nearest(ns); i >= 0 {
			r := t.At(i)
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
