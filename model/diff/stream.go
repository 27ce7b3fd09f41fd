package diff

import (
	"context"

	"github.com/bagscope/bagscope/bag"
)

// rec is one message read, its data held by its batch.
type rec struct {
	topic int32 // index in Result.Topics
	ns    int64
	conn  *bag.Connection
	loc   bag.Loc
	data  []byte
	// ordinal is the message's position on its topic (from 0).
	ordinal int64
}

// batch is a run of messages of one recording, in read order.
type batch struct {
	recs []rec
}

// batchSize bounds a batch: this many messages or batchBytes of data.
const (
	batchSize  = 1024
	batchBytes = 1 << 20
)

// source reads one recording on its own goroutine and hands its messages
// over in batches: at most a few batches are in flight, so memory stays
// bounded whatever the recording's size.
type source struct {
	ch  chan batch
	it  bag.MessageIter
	err error
	// suspects counts the suspect messages read.
	suspects uint64

	cur batch
	pos int
}

// topicIndex finds a connection's topic by its ID.
type topicIndex struct {
	dense []int32 // -1: not compared
	other map[uint32]int32
}

func newTopicIndex(s bag.Storage, byName map[string]int32) *topicIndex {
	ti := &topicIndex{other: map[uint32]int32{}}
	for _, c := range s.Connections() {
		i, ok := byName[c.Topic]
		if !ok {
			continue
		}
		if c.ID < 1<<16 {
			for int(c.ID) >= len(ti.dense) {
				ti.dense = append(ti.dense, -1)
			}
			ti.dense[c.ID] = i
		} else {
			ti.other[c.ID] = i
		}
	}
	return ti
}

func (ti *topicIndex) get(id uint32) int32 {
	if int(id) < len(ti.dense) {
		return ti.dense[id]
	}
	if i, ok := ti.other[id]; ok {
		return i
	}
	return -1
}

// start begins reading s's messages on the topics of ti. Two batches wait
// in the channel: a batch of images is one message of ~1 MB, and four
// waiting on each of diff's two readers put diff of images.bag at 63-68
// MiB of peak RSS (issue 29); with two, 60-61, at the same CPU.
func start(ctx context.Context, s bag.Storage, topics []string, ti *topicIndex) *source {
	src := &source{ch: make(chan batch, 2)}
	src.it = s.Messages(bag.MessageFilter{Topics: topics})
	go func() {
		defer close(src.ch)
		it := src.it
		var b batch
		var arena []byte
		// A batch's arena starts small, so that a batch of small
		// messages, which a message still being matched keeps alive,
		// does not hold batchBytes.
		arenaSize := 64 << 10
		flush := func() bool {
			if len(b.recs) == 0 {
				return true
			}
			select {
			case src.ch <- b:
			case <-ctx.Done():
				return false
			}
			b = batch{}
			arena = nil
			return true
		}
		for it.Next() {
			m := it.Message()
			ti := ti.get(m.Conn.ID)
			if ti < 0 {
				continue
			}
			if m.Suspect != "" {
				src.suspects++
			}
			if arena == nil {
				arena = make([]byte, 0, max(arenaSize, len(m.Data)))
				b.recs = make([]rec, 0, batchSize)
			}
			if len(arena)+len(m.Data) > cap(arena) {
				// This message's data goes into a batch of its own
				// arena, larger (up to batchBytes) for large messages.
				if !flush() {
					return
				}
				arenaSize = min(2*arenaSize, batchBytes)
				arena = make([]byte, 0, max(arenaSize, len(m.Data)))
				b.recs = make([]rec, 0, batchSize)
			}
			n := len(arena)
			arena = append(arena, m.Data...)
			b.recs = append(b.recs, rec{topic: ti, ns: m.Time.Nanos(), conn: m.Conn, loc: m.Loc, data: arena[n:len(arena):len(arena)]})
			if len(b.recs) == batchSize {
				if !flush() {
					return
				}
			}
		}
		src.err = it.Err()
		flush()
	}()
	return src
}

// peek returns the next message without taking it (nil at the end).
func (s *source) peek() *rec {
	for s.pos >= len(s.cur.recs) {
		b, ok := <-s.ch
		if !ok {
			return nil
		}
		s.cur, s.pos = b, 0
	}
	return &s.cur.recs[s.pos]
}

// take takes the message peek returned.
func (s *source) take() rec {
	r := s.cur.recs[s.pos]
	s.pos++
	return r
}

// drain discards what is left, so the reading goroutine ends.
func (s *source) drain() {
	for range s.ch {
	}
}
