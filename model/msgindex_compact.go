package model

import (
	"cmp"
	"container/heap"
	"slices"
	"unsafe"
)

// The message index's compact form. A topic's messages, in index order
// (time, then file order), are one byte stream: each message is encoded
// against the one before it, as the change in its time step and in its
// offset step (delta of deltas: a steady topic's steps barely change):
//
//	uvarint(zigzag(dT - previous dT))
//	uvarint(zigzag(dOffset - previous dOffset)<<2 | newBlock<<1 | newConn)
//	[uvarint(zigzag(ChunkPos - previous ChunkPos))]   when newBlock
//	[uvarint(Conn)]                                   when newConn
//
// so a message of a steady topic inside a chunk takes 4-6 bytes instead of
// MsgRef's 24. Every cpEvery-th message is a checkpoint that keeps the
// whole MsgRef and the stream position after it, and the message after a
// checkpoint predicts steps of zero, so decoding can start at any
// checkpoint: At decodes at most cpEvery-1 messages from the checkpoint
// before it, and Search binary searches the checkpoints' times, then
// decodes forward, O(log n + cpEvery). The checkpoints add 32/cpEvery
// bytes a message.

// cpShift sets the checkpoint spacing: one message in 1<<cpShift.
const (
	cpShift = 6
	cpEvery = 1 << cpShift
)

// checkpoint is the state of the stream after one message.
type checkpoint struct {
	ref MsgRef
	pos int // stream position after the message's encoding
}

// refCompare is the index order: time, then file order.
func refCompare(a, b MsgRef) int {
	if c := cmp.Compare(a.T, b.T); c != 0 {
		return c
	}
	if c := cmp.Compare(a.ChunkPos, b.ChunkPos); c != 0 {
		return c
	}
	return cmp.Compare(a.Offset, b.Offset)
}

func zigzag(v int64) uint64   { return uint64(v<<1) ^ uint64(v>>63) }
func unzigzag(u uint64) int64 { return int64(u>>1) ^ -int64(u&1) }

// msgEncoder appends messages to a stream.
type msgEncoder struct {
	i        int    // messages so far
	prev     MsgRef // the last one
	dt, doff int64  // its steps, the next one's prediction
}

// add appends r's encoding to b.
func (e *msgEncoder) add(b []byte, r MsgRef) []byte {
	if e.i&(cpEvery-1) == 1 {
		// The message after a checkpoint: decoding may start there.
		e.dt, e.doff = 0, 0
	}
	dt := r.T - e.prev.T
	doff := int64(r.Offset) - int64(e.prev.Offset)
	b = appendUvarint(b, zigzag(dt-e.dt))
	head := zigzag(doff-e.doff) << 2
	if r.ChunkPos != e.prev.ChunkPos {
		head |= 2
	}
	if r.Conn != e.prev.Conn {
		head |= 1
	}
	b = appendUvarint(b, head)
	if head&2 != 0 {
		b = appendUvarint(b, zigzag(r.ChunkPos-e.prev.ChunkPos))
	}
	if head&1 != 0 {
		b = appendUvarint(b, uint64(r.Conn))
	}
	e.i++
	e.prev, e.dt, e.doff = r, dt, doff
	return b
}

func appendUvarint(b []byte, v uint64) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// uvarint decodes a varint at b[pos:]; the stream is our own, so it is
// well formed.
func uvarint(b []byte, pos int) (uint64, int) {
	c := b[pos]
	if c < 0x80 {
		return uint64(c), pos + 1
	}
	v := uint64(c & 0x7f)
	for s := uint(7); ; s += 7 {
		pos++
		c = b[pos]
		if c < 0x80 {
			return v | uint64(c)<<s, pos + 1
		}
		v |= uint64(c&0x7f) << s
	}
}

// msgCursor decodes a stream message by message.
type msgCursor struct {
	data     []byte
	pos      int
	i        int    // cur's position in the stream; -1 before the first
	cur      MsgRef // the message decoded last
	dt, doff int64  // its steps
}

// newCursor returns a cursor before the first message of the stream
// at data[pos:].
func newCursor(data []byte, pos int) msgCursor { return msgCursor{data: data, pos: pos, i: -1} }

// next decodes the message after cur.
func (c *msgCursor) next() {
	c.i++
	if c.i&(cpEvery-1) == 1 {
		c.dt, c.doff = 0, 0
	}
	var v uint64
	v, c.pos = uvarint(c.data, c.pos)
	c.dt += unzigzag(v)
	c.cur.T += c.dt
	var head uint64
	head, c.pos = uvarint(c.data, c.pos)
	c.doff += unzigzag(head >> 2)
	c.cur.Offset = uint32(int64(c.cur.Offset) + c.doff)
	if head&2 != 0 {
		v, c.pos = uvarint(c.data, c.pos)
		c.cur.ChunkPos += unzigzag(v)
	}
	if head&1 != 0 {
		v, c.pos = uvarint(c.data, c.pos)
		c.cur.Conn = uint32(v)
	}
}

// cursorAt returns a cursor whose cur is message i (0 <= i < n).
func (t *TopicMessages) cursorAt(i int) msgCursor {
	k := i >> cpShift
	cp := &t.cps[k]
	c := msgCursor{data: t.data, pos: cp.pos, i: k << cpShift, cur: cp.ref}
	for c.i < i {
		c.next()
	}
	return c
}

// topicBuilder appends a topic's messages as they come. Messages that
// come in index order extend the current segment; one that sorts before
// the previous starts a new segment (encoded from the zero state), and
// finish merges the segments. A bag whose chunks do not overlap in time
// makes one segment per topic.
type topicBuilder struct {
	tm   *TopicMessages
	enc  msgEncoder // the current segment's
	segs []segment
}

// segment is a sorted run of the stream under construction.
type segment struct{ start, end, n int }

func (b *topicBuilder) add(r MsgRef) {
	tm := b.tm
	if len(b.segs) == 0 || refCompare(r, b.enc.prev) < 0 {
		b.segs = append(b.segs, segment{start: len(tm.data)})
		b.enc = msgEncoder{}
	}
	tm.data = b.enc.add(tm.data, r)
	s := &b.segs[len(b.segs)-1]
	s.end, s.n = len(tm.data), s.n+1
	tm.n++
}

// finish merges the segments into one stream in index order, trims the
// stream's spare capacity and sets the checkpoints.
func (b *topicBuilder) finish() {
	tm := b.tm
	if len(b.segs) > 1 {
		tm.data = mergeSegments(tm.data, b.segs)
	}
	b.segs = nil
	if cap(tm.data)-len(tm.data) > len(tm.data)/16 {
		tm.data = slices.Clone(tm.data)
	}
	tm.cps = make([]checkpoint, (tm.n+cpEvery-1)/cpEvery)
	c := newCursor(tm.data, 0)
	for i := range tm.n {
		c.next()
		if i&(cpEvery-1) == 0 {
			tm.cps[i>>cpShift] = checkpoint{ref: c.cur, pos: c.pos}
		}
	}
}

// mergeSegments returns data's sorted segments merged into one stream, in
// index order; ties keep segment order, so messages equal in time and
// place stay in the order they came.
func mergeSegments(data []byte, segs []segment) []byte {
	h := make(segHeap, 0, len(segs))
	for i, s := range segs {
		c := segCursor{msgCursor: newCursor(data, s.start), end: s.end, seg: i}
		c.next()
		h = append(h, c)
	}
	heap.Init(&h)
	out := make([]byte, 0, len(data))
	var enc msgEncoder
	for len(h) > 0 {
		c := &h[0]
		out = enc.add(out, c.cur)
		if c.pos == c.end {
			heap.Pop(&h)
			continue
		}
		c.next()
		heap.Fix(&h, 0)
	}
	return out
}

type segCursor struct {
	msgCursor
	end, seg int
}

type segHeap []segCursor

func (h segHeap) Len() int { return len(h) }
func (h segHeap) Less(i, j int) bool {
	if c := refCompare(h[i].cur, h[j].cur); c != 0 {
		return c < 0
	}
	return h[i].seg < h[j].seg
}
func (h segHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *segHeap) Push(x any)   { *h = append(*h, x.(segCursor)) }
func (h *segHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// NewTopicMessages returns a topic's index of refs, which it sorts into
// index order (time, then ChunkPos and Offset); refs itself is not
// changed. It is how tests and tools make synthetic indexes.
func NewTopicMessages(topic string, refs []MsgRef) *TopicMessages {
	sorted := slices.Clone(refs)
	slices.SortStableFunc(sorted, refCompare)
	b := topicBuilder{tm: &TopicMessages{Topic: topic}}
	for _, r := range sorted {
		b.add(r)
	}
	b.finish()
	return b.tm
}

// NewMessageIndex returns an index of the given topics (made by
// NewTopicMessages), sorted by name.
func NewMessageIndex(topics ...*TopicMessages) *MessageIndex {
	x := &MessageIndex{byName: map[string]*TopicMessages{}}
	for _, t := range topics {
		x.Topics = append(x.Topics, t)
		x.byName[t.Topic] = t
	}
	slices.SortFunc(x.Topics, func(a, b *TopicMessages) int { return cmp.Compare(a.Topic, b.Topic) })
	return x
}

// Bytes is the memory the topic's index takes, its stream and checkpoints.
func (t *TopicMessages) Bytes() int {
	return cap(t.data) + cap(t.cps)*int(unsafe.Sizeof(checkpoint{}))
}
