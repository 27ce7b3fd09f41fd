package model

import (
	"cmp"
	"container/heap"
	"github.com/bagscope/bagscope/model/msgref"
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
// msgref.Ref's 24. Every cpEvery-th message is a checkpoint that keeps the
// whole msgref.Ref and the stream position after it, and the message after a
// checkpoint predicts steps of zero, so decoding can start at any
// checkpoint: At decodes at most cpEvery-1 messages from the checkpoint
// before it, and Search binary searches the checkpoints' times, then
// decodes forward, O(log n + cpEvery). The checkpoints add 32/cpEvery
// bytes a message.
//
// The stream is kept in pages (256 bytes for the first, doubling to
// 64 KB), no message's encoding crossing a page's end, so that it grows
// without copying: building the index of a large bag leaves no garbage
// of outgrown arrays, and its peak is what it keeps.

// cpShift sets the checkpoint spacing: one message in 1<<cpShift.
const (
	cpShift = 6
	cpEvery = 1 << cpShift
)

// Page sizes, and the most one message's encoding takes.
const (
	minPage  = 256
	maxPage  = 64 << 10
	maxEntry = 4 * 10
)

// stream is a topic's encoded messages.
type stream struct{ pages [][]byte }

// tail returns the page to append a message to.
func (s *stream) tail() *[]byte {
	if n := len(s.pages); n == 0 || cap(s.pages[n-1])-len(s.pages[n-1]) < maxEntry {
		s.pages = append(s.pages, make([]byte, 0, min(minPage<<min(n, 16), maxPage)))
	}
	return &s.pages[len(s.pages)-1]
}

// end is the position after the last byte.
func (s *stream) end() spos {
	if len(s.pages) == 0 {
		return spos{}
	}
	return spos{int32(len(s.pages) - 1), int32(len(s.pages[len(s.pages)-1]))}
}

// bytes is the memory the stream holds.
func (s *stream) bytes() int {
	n := cap(s.pages) * int(unsafe.Sizeof([]byte(nil)))
	for _, p := range s.pages {
		n += cap(p)
	}
	return n
}

// spos is a position in a stream: a page and an offset in it.
type spos struct{ page, off int32 }

// checkpoint is the state of the stream after one message.
type checkpoint struct {
	ref msgref.Ref
	pos spos // stream position after the message's encoding
}

// refCompare is the index order: time, then file order.
func refCompare(a, b msgref.Ref) int {
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
	i        int        // messages so far
	prev     msgref.Ref // the last one
	dt, doff int64      // its steps, the next one's prediction
}

// add appends r's encoding to b.
func (e *msgEncoder) add(b []byte, r msgref.Ref) []byte {
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
	pages    [][]byte
	data     []byte // pages[page]
	page     int
	pos      int        // in data
	i        int        // cur's position in the stream; -1 before the first
	cur      msgref.Ref // the message decoded last
	dt, doff int64      // its steps
}

// newCursor returns a cursor at p with cur (message i) decoded; a zero
// cur and i -1 start a stream or segment.
func newCursor(s *stream, p spos, i int, cur msgref.Ref) msgCursor {
	c := msgCursor{pages: s.pages, page: int(p.page), pos: int(p.off), i: i, cur: cur}
	if c.page < len(s.pages) {
		c.data = s.pages[c.page]
	}
	return c
}

// next decodes the message after cur.
func (c *msgCursor) next() {
	if c.pos == len(c.data) {
		c.page++
		c.data, c.pos = c.pages[c.page], 0
	}
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

// position is where the cursor is in its stream.
func (c *msgCursor) position() spos { return spos{int32(c.page), int32(c.pos)} }

// cursorAt returns a cursor whose cur is message i (0 <= i < n).
func (t *TopicMessages) cursorAt(i int) msgCursor {
	k := i >> cpShift
	cp := &t.cps[k]
	c := newCursor(&t.data, cp.pos, k<<cpShift, cp.ref)
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
type segment struct {
	start spos
	n     int
}

func (b *topicBuilder) add(r msgref.Ref) {
	tm := b.tm
	page := tm.data.tail()
	if len(b.segs) == 0 || refCompare(r, b.enc.prev) < 0 {
		b.segs = append(b.segs, segment{start: tm.data.end()})
		b.enc = msgEncoder{}
	}
	*page = b.enc.add(*page, r)
	b.segs[len(b.segs)-1].n++
	tm.n++
}

// finish merges the segments into one stream in index order, trims the
// stream's spare capacity and sets the checkpoints.
func (b *topicBuilder) finish() {
	tm := b.tm
	if len(b.segs) > 1 {
		tm.data = mergeSegments(&tm.data, b.segs)
	}
	b.segs = nil
	if n := len(tm.data.pages); n > 0 {
		last := tm.data.pages[n-1]
		if cap(last)-len(last) > len(last)/8 {
			tm.data.pages[n-1] = slices.Clone(last)
		}
		tm.data.pages = slices.Clip(tm.data.pages)
	}
	tm.cps = make([]checkpoint, (tm.n+cpEvery-1)/cpEvery)
	c := newCursor(&tm.data, spos{}, -1, msgref.Ref{})
	for i := range tm.n {
		c.next()
		if i&(cpEvery-1) == 0 {
			tm.cps[i>>cpShift] = checkpoint{ref: c.cur, pos: c.position()}
		}
	}
}

// mergeSegments returns data's sorted segments merged into one stream, in
// index order; ties keep segment order, so messages equal in time and
// place stay in the order they came.
func mergeSegments(data *stream, segs []segment) stream {
	h := make(segHeap, 0, len(segs))
	for i, s := range segs {
		c := segCursor{msgCursor: newCursor(data, s.start, -1, msgref.Ref{}), left: s.n - 1, seg: i}
		c.next()
		h = append(h, c)
	}
	heap.Init(&h)
	var out stream
	var enc msgEncoder
	for len(h) > 0 {
		c := &h[0]
		page := out.tail()
		*page = enc.add(*page, c.cur)
		if c.left == 0 {
			heap.Pop(&h)
			continue
		}
		c.next()
		c.left--
		heap.Fix(&h, 0)
	}
	return out
}

type segCursor struct {
	msgCursor
	left int // messages after cur
	seg  int
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
func NewTopicMessages(topic string, refs []msgref.Ref) *TopicMessages {
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
	return t.data.bytes() + cap(t.cps)*int(unsafe.Sizeof(checkpoint{}))
}
