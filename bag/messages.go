package bag

import (
	"slices"
	"sort"
)

// MessageFilter selects messages. The zero value selects every message.
type MessageFilter struct {
	// Topics selects connections by topic; Conns by ID. A connection is
	// selected if either names it; when both are empty, all are.
	Topics []string
	Conns  []uint32
	// Start and End bound the receive time, inclusive. A zero End means no
	// upper bound.
	Start, End Time
}

// Message is one message as the iterator yields it. Data and the Message
// itself are reused by the next call to Next.
type Message struct {
	Conn *Connection
	Time Time
	// Data is the serialized message.
	Data []byte
	// ChunkPos is the file offset of the chunk record holding the message.
	ChunkPos int64
	// Offset is the offset of the message data record in the chunk's
	// uncompressed data (what index entries point at).
	Offset uint32
	// DataOffset is the offset of Data in the chunk's uncompressed data.
	DataOffset uint32
}

// entry is one selected message inside a loaded chunk.
type entry struct {
	t       uint64
	off     uint32
	dataOff uint32
	dataLen uint32
	conn    uint32
}

// chunkCursor is a loaded chunk with its selected messages in time order.
type chunkCursor struct {
	ci      *ChunkInfo
	buf     ChunkBuffer
	data    []byte
	entries []entry
	i       int
}

func (c *chunkCursor) cur() *entry { return &c.entries[c.i] }

// less orders cursors by their current message: time, then file order.
func (c *chunkCursor) less(d *chunkCursor) bool {
	a, b := c.cur(), d.cur()
	if a.t != b.t {
		return a.t < b.t
	}
	if c.ci.ChunkPos != d.ci.ChunkPos {
		return c.ci.ChunkPos < d.ci.ChunkPos
	}
	return a.off < b.off
}

// MessageIter yields messages in receive-time order across chunks and
// connections; messages with equal times come in file order. Only the
// chunks that overlap the time range and hold a selected connection are
// read, and only as many chunks are held in memory as overlap in time.
//
//	it := b.Messages(bag.MessageFilter{Topics: []string{"/imu"}})
//	for it.Next() {
//		m := it.Message()
//		...
//	}
//	if err := it.Err(); err != nil { ... }
type MessageIter struct {
	b        *Bag
	sel      connSet
	start    uint64
	end      uint64
	chunks   []*ChunkInfo // selected, by start time
	next     int          // next chunk to load
	heap     []*chunkCursor
	free     []*chunkCursor
	msg      Message
	err      error
	hdr      Header
	selected []*Connection
}

// connSet is a set of connection IDs.
type connSet struct {
	all   bool
	dense []bool
	m     map[uint32]bool
}

func (s *connSet) has(id uint32) bool {
	if s.all {
		return true
	}
	if int(id) < len(s.dense) {
		return s.dense[id]
	}
	return s.m[id]
}

func (s *connSet) add(id uint32) {
	if id < 1<<16 {
		if int(id) >= len(s.dense) {
			s.dense = append(s.dense, make([]bool, int(id)+1-len(s.dense))...)
		}
		s.dense[id] = true
		return
	}
	if s.m == nil {
		s.m = map[uint32]bool{}
	}
	s.m[id] = true
}

// SelectConnections returns the connections a filter selects, by ID.
func (b *Bag) SelectConnections(f MessageFilter) []*Connection {
	if len(f.Topics) == 0 && len(f.Conns) == 0 {
		return b.Connections
	}
	var out []*Connection
	for _, c := range b.Connections {
		if slices.Contains(f.Topics, c.Topic) || slices.Contains(f.Conns, c.ID) {
			out = append(out, c)
		}
	}
	return out
}

// Messages returns an iterator over the messages the filter selects.
func (b *Bag) Messages(f MessageFilter) *MessageIter {
	it := &MessageIter{b: b, start: f.Start.Key(), end: f.End.Key()}
	if f.End.IsZero() {
		it.end = ^uint64(0)
	}
	it.selected = b.SelectConnections(f)
	if len(f.Topics) == 0 && len(f.Conns) == 0 {
		it.sel.all = true
	} else {
		for _, c := range it.selected {
			it.sel.add(c.ID)
		}
	}
	for _, ci := range b.ChunkInfos {
		if ci.End.Key() < it.start || ci.Start.Key() > it.end {
			continue
		}
		want := it.sel.all
		for _, cc := range ci.Conns {
			if cc.Count > 0 && it.sel.has(cc.Conn) {
				want = true
				break
			}
		}
		if want {
			it.chunks = append(it.chunks, ci)
		}
	}
	sort.SliceStable(it.chunks, func(i, j int) bool {
		a, c := it.chunks[i], it.chunks[j]
		if a.Start != c.Start {
			return a.Start.Key() < c.Start.Key()
		}
		return a.ChunkPos < c.ChunkPos
	})
	return it
}

// Selected returns the connections the iterator yields messages of.
func (it *MessageIter) Selected() []*Connection { return it.selected }

// Next advances to the next message. It returns false when there are no
// more or on an error (see Err).
func (it *MessageIter) Next() bool {
	if it.err != nil {
		return false
	}
	for it.next < len(it.chunks) && (len(it.heap) == 0 || it.chunks[it.next].Start.Key() <= it.heap[0].cur().t) {
		ci := it.chunks[it.next]
		it.next++
		if err := it.load(ci); err != nil {
			it.err = err
			return false
		}
	}
	if len(it.heap) == 0 {
		return false
	}
	c := it.heap[0]
	e := c.cur()
	conn := it.b.connByID[e.conn]
	it.msg = Message{
		Conn:       conn,
		Time:       Time{Sec: uint32(e.t >> 32), NSec: uint32(e.t)},
		Data:       c.data[e.dataOff : e.dataOff+e.dataLen],
		ChunkPos:   c.ci.ChunkPos,
		Offset:     e.off,
		DataOffset: e.dataOff,
	}
	// Advance the cursor now; the data stays valid because the buffer is
	// only reused by a later load.
	c.i++
	if c.i == len(c.entries) {
		it.pop()
	} else {
		it.down(0)
	}
	return true
}

// Message returns the current message.
func (it *MessageIter) Message() *Message { return &it.msg }

// Err returns the error that stopped the iteration, if any.
func (it *MessageIter) Err() error { return it.err }

// load reads chunk ci, collects its selected messages and pushes it.
func (it *MessageIter) load(ci *ChunkInfo) error {
	ch, err := it.b.ChunkHeader(ci)
	if err != nil {
		return err
	}
	var c *chunkCursor
	if n := len(it.free); n > 0 {
		// A freed cursor's buffers may hold the previous message's Data,
		// which is only promised to last until this call to Next.
		c = it.free[n-1]
		it.free = it.free[:n-1]
	} else {
		c = &chunkCursor{}
	}
	c.ci = ci
	c.i = 0
	c.entries = c.entries[:0]
	if c.data, err = it.b.ReadChunkData(ch, &c.buf); err != nil {
		return err
	}
	if err := it.collect(c, ch); err != nil {
		return err
	}
	if len(c.entries) == 0 {
		it.free = append(it.free, c)
		return nil
	}
	it.heap = append(it.heap, c)
	it.up(len(it.heap) - 1)
	return nil
}

// collect finds the selected message data records in c.data.
func (it *MessageIter) collect(c *chunkCursor, ch *Chunk) error {
	data := c.data
	sorted := true
	var last uint64
	for off := 0; off < len(data); {
		if len(data)-off < 8 {
			return it.preciseErr(data, off, ch)
		}
		hlen := int(le32(data[off:]))
		if hlen < 0 || hlen > len(data)-off-8 {
			return it.preciseErr(data, off, ch)
		}
		dstart := off + 8 + hlen
		dlen := int(le32(data[dstart-4:]))
		if dlen < 0 || dlen > len(data)-dstart {
			return it.preciseErr(data, off, ch)
		}
		op, conn, t, hasConn, hasTime, ok := scanHeader(data[off+4 : off+4+hlen])
		if !ok {
			return it.preciseErr(data, off, ch)
		}
		if op == OpMessageData {
			if !hasConn || !hasTime {
				return it.preciseErr(data, off, ch)
			}
			k := t.Key()
			if it.sel.has(conn) && k >= it.start && k <= it.end {
				if it.b.connByID[conn] == nil {
					return inChunk(errAt(int64(off), OpMessageData, ErrMalformed, "message uses connection %d, which the bag does not define", conn), ch.Offset)
				}
				if k < last {
					sorted = false
				}
				last = k
				c.entries = append(c.entries, entry{t: k, off: uint32(off), dataOff: uint32(dstart), dataLen: uint32(dlen), conn: conn})
			}
		}
		off = dstart + dlen
	}
	if !sorted {
		slices.SortStableFunc(c.entries, func(a, b entry) int {
			switch {
			case a.t < b.t:
				return -1
			case a.t > b.t:
				return 1
			}
			return 0
		})
	}
	return nil
}

// preciseErr re-parses the record at off slowly to say what is wrong.
func (it *MessageIter) preciseErr(data []byte, off int, ch *Chunk) error {
	rec, hdr, err := parseRecordBytes(data, off, it.hdr)
	it.hdr = hdr
	if err == nil && rec.Op == OpMessageData {
		_, err = ParseMessageData(rec)
	}
	if err == nil {
		err = errAt(int64(off), rec.Op, ErrMalformed, "record cannot be read")
	}
	return inChunk(err, ch.Offset)
}

func (it *MessageIter) pop() {
	h := it.heap
	n := len(h) - 1
	done := h[0]
	h[0] = h[n]
	h[n] = nil
	it.heap = h[:n]
	if n > 0 {
		it.down(0)
	}
	it.free = append(it.free, done)
}

func (it *MessageIter) up(i int) {
	h := it.heap
	for i > 0 {
		p := (i - 1) / 2
		if !h[i].less(h[p]) {
			break
		}
		h[i], h[p] = h[p], h[i]
		i = p
	}
}

func (it *MessageIter) down(i int) {
	h := it.heap
	n := len(h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		m := l
		if r := l + 1; r < n && h[r].less(h[l]) {
			m = r
		}
		if !h[m].less(h[i]) {
			return
		}
		h[i], h[m] = h[m], h[i]
		i = m
	}
}
