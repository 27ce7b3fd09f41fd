package ros1

import (
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bagscope/bagscope/bag"
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
	// Suspect, when not "", says why the message is not to be trusted
	// (see bag.Message).
	Suspect string
}

// entry is one selected message inside a loaded chunk.
type entry struct {
	t       uint64
	off     uint32
	dataOff uint32
	dataLen uint32
	conn    uint32
	// ps and pe are the bytes of the cursor's side that the query's
	// prep made of the message (prepared: it did).
	ps, pe   uint32
	prepared bool
}

// chunkCursor is a loaded chunk with its selected messages in time order.
// A worker fills it (load) and signals done; then only the merge uses it.
type chunkCursor struct {
	q       *query
	ci      *ChunkInfo
	buf     ChunkBuffer
	data    []byte
	entries []entry
	i       int
	err     error
	done    chan struct{}
	// weight is what the cursor holds of ChunkBudget.
	weight int64
	// skipped and lost are what the load could not read of the chunk.
	skipped []ByteRange
	lost    uint64
	// suspect says why the chunk's messages are not to be trusted ("" when
	// the chunk is sound).
	suspect string
	// side is what the query's prep made of the entries (entry.ps, pe).
	side []byte
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
// connections; messages with equal times come in file order. Damage does
// not end the iteration: an unreadable record costs that record, an
// unreadable chunk what cannot be located in it (the rest of a damaged
// uncompressed chunk is found through the offsets of its index data
// records; of a compressed one, what decompressed before the damage is
// kept), and the iteration goes on at the next record or chunk. Skipped
// lists what was lost; Err is only for I/O errors. Only the
// chunks that overlap the time range and hold a selected connection are
// read. Chunks are read and decompressed by a pool of GOMAXPROCS workers a
// few chunks ahead of the merge: at most 2×GOMAXPROCS chunks are in flight
// besides those that overlap in time, so memory does not grow with the bag.
//
//	it := b.Messages(ros1.MessageFilter{Topics: []string{"/imu"}})
//	defer it.Close()
//	for it.Next() {
//		m := it.Message()
//		...
//	}
//	if err := it.Err(); err != nil { ... }
type MessageIter struct {
	q        *query
	chunks   []*ChunkInfo // selected, by start time
	next     int          // next chunk to merge
	sent     int          // next chunk to hand to the workers
	ahead    int          // chunks handed out and not yet merged, at most
	window   []*chunkCursor
	pool     *workerPool
	heap     []*chunkCursor
	free     []*chunkCursor
	msg      Message
	err      error
	selected []*Connection
	// held is the ChunkBudget the iterator's cursors hold; a cleanup
	// gives it back if the iterator is dropped without being closed.
	held    *int64
	skipped []ByteRange
	lost    uint64
	// suspects counts the suspect messages given.
	suspects uint64
	// prefetched is set once the first Next asked for a window's chunks
	// together (see prefetchWindow); windowed when it fetched them.
	prefetched, windowed bool
	// prepOut and prepOK are what the query's prep made of the current
	// message.
	prepOut []byte
	prepOK  bool
}

// query is what the workers need to load a chunk; it does not change once
// the iterator is made.
type query struct {
	b     *Bag
	sel   connSet
	start uint64
	end   uint64
	conns []*Connection // by ID, for IDs below len(conns)
	hook  func(*LoadedChunk) error
	// prep is run on every selected message by the worker that loaded
	// its chunk (Store.PreparedMessages), or nil.
	prep func(m *Message, dst []byte) ([]byte, bool)
}

// conn returns the connection with the given ID, or nil.
func (q *query) conn(id uint32) *Connection {
	if int(id) < len(q.conns) {
		return q.conns[id]
	}
	return q.b.connByID[id]
}

// LoadedChunk is a chunk as the iterator reads it, passed to the function set
// with OnChunk.
type LoadedChunk struct {
	Info  *ChunkInfo
	Chunk *Chunk
	// Data is the chunk's uncompressed records. It is reused once the
	// function returns.
	Data []byte
}

// workerPool is the goroutines that load chunks. It is stopped when the
// iteration ends, by Close, or when the iterator is garbage collected.
type workerPool struct {
	jobs    chan *chunkCursor
	once    sync.Once
	stopped atomic.Bool
}

func (p *workerPool) work() {
	for c := range p.jobs {
		if !p.stopped.Load() {
			c.err = c.load()
		}
		c.done <- struct{}{}
	}
}

// stop ends the workers; the chunks queued and not yet started are not
// loaded.
func (p *workerPool) stop() {
	p.once.Do(func() {
		p.stopped.Store(true)
		close(p.jobs)
	})
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
	q := &query{b: b, start: f.Start.Key(), end: f.End.Key()}
	it := &MessageIter{q: q, ahead: 2 * runtime.GOMAXPROCS(0), held: new(int64)}
	runtime.AddCleanup(it, func(held *int64) { ChunkBudget.Release(*held) }, it.held)
	if f.End.IsZero() {
		q.end = ^uint64(0)
	}
	it.selected = b.SelectConnections(f)
	if len(f.Topics) == 0 && len(f.Conns) == 0 {
		q.sel.all = true
	} else {
		for _, c := range it.selected {
			q.sel.add(c.ID)
		}
	}
	for id, c := range b.connByID {
		if id < 1<<16 {
			if int(id) >= len(q.conns) {
				q.conns = slices.Grow(q.conns, int(id)+1-len(q.conns))[:id+1]
			}
			q.conns[id] = c
		}
	}
	for _, ci := range b.ChunkInfos {
		if ci.End.Key() < q.start || ci.Start.Key() > q.end {
			continue
		}
		want := q.sel.all
		for _, cc := range ci.Conns {
			if cc.Count > 0 && q.sel.has(cc.Conn) {
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

// OnChunk sets a function called with every chunk the iterator reads, right
// after it is decompressed, before its messages are merged. It runs on the
// worker goroutines, so calls are concurrent and in no particular order. An
// error from it stops the iteration. Call OnChunk before the first Next.
func (it *MessageIter) OnChunk(fn func(*LoadedChunk) error) { it.q.hook = fn }

// Next advances to the next message. It returns false when there are no
// more or on an error (see Err).
func (it *MessageIter) Next() bool {
	if it.err != nil {
		return false
	}
	if !it.prefetched {
		it.prefetched = true
		it.prefetchWindow()
	}
	for it.next < len(it.chunks) && (len(it.heap) == 0 || it.chunks[it.next].Start.Key() <= it.heap[0].cur().t) {
		c, err := it.take()
		if err != nil {
			it.err = err
			it.release(c)
			it.Close()
			return false
		}
		it.skipped = append(it.skipped, c.skipped...)
		it.lost += c.lost
		if len(c.entries) == 0 {
			it.release(c)
			it.free = append(it.free, c)
			continue
		}
		it.heap = append(it.heap, c)
		it.up(len(it.heap) - 1)
	}
	if len(it.heap) == 0 {
		it.Close()
		return false
	}
	c := it.heap[0]
	e := c.cur()
	it.msg = Message{
		Conn:       it.q.conn(e.conn),
		Time:       Time{Sec: uint32(e.t >> 32), NSec: uint32(e.t)},
		Data:       c.data[e.dataOff : e.dataOff+e.dataLen],
		ChunkPos:   c.ci.ChunkPos,
		Offset:     e.off,
		DataOffset: e.dataOff,
		Suspect:    c.suspect,
	}
	if c.suspect != "" {
		it.suspects++
	}
	if it.q.prep != nil {
		it.prepOut, it.prepOK = c.side[e.ps:e.pe:e.pe], e.prepared
	}
	// Advance the cursor now; the data stays valid because a cursor is only
	// reused by a later call to Next.
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

// Err returns the error that stopped the iteration, if any: an I/O error,
// or an error from the OnChunk function. Damage in the file does not stop
// it (see Skipped).
func (it *MessageIter) Err() error { return it.err }

// Skipped lists the byte ranges whose messages could not be read so far,
// in file order. The range of a damaged compressed chunk is the whole
// chunk record; its reason says which of its uncompressed bytes were lost.
func (it *MessageIter) Skipped() []ByteRange {
	out := slices.Clone(it.skipped)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// LostMessages counts the selected messages known to exist (from the
// index) that could not be read so far.
func (it *MessageIter) LostMessages() uint64 { return it.lost }

// Suspects counts the suspect messages given so far.
func (it *MessageIter) Suspects() uint64 { return it.suspects }

// Close stops the iterator's workers. Next returns false afterwards. An
// iteration that runs to the end closes itself; Close is only needed to stop
// early, and even then the workers stop when the iterator is collected.
func (it *MessageIter) Close() {
	if it.pool != nil {
		it.pool.stop()
	}
	it.next, it.sent = len(it.chunks), len(it.chunks)
	for _, c := range it.heap {
		it.release(c)
	}
	it.heap = it.heap[:0]
	// The chunks handed out and not merged: a worker may still be loading
	// them, so their buffers are left to it, but their budget is given back.
	for _, c := range it.window {
		it.release(c)
	}
	it.window = it.window[:0]
}

// release gives back what cursor c holds of ChunkBudget, and drops its
// buffers if they are big.
func (it *MessageIter) release(c *chunkCursor) {
	if c == nil || c.weight == 0 {
		return
	}
	ChunkBudget.Release(c.weight)
	*it.held -= c.weight
	c.weight = 0
}

// take returns the next chunk to merge, loaded, after handing the workers
// the chunks that follow it.
func (it *MessageIter) take() (*chunkCursor, error) {
	it.readAhead()
	for it.sent < len(it.chunks) && it.sent-it.next < it.ahead {
		var c *chunkCursor
		if n := len(it.free); n > 0 {
			// A freed cursor's buffers may hold the previous message's
			// Data, which is only promised to last until this call to Next.
			c = it.free[n-1]
			it.free = it.free[:n-1]
		} else {
			c = &chunkCursor{q: it.q, done: make(chan struct{}, 1)}
		}
		ci := it.chunks[it.sent]
		var w int64
		if ch, err := it.q.b.ChunkHeader(ci); err == nil {
			w = chunkWeight(ch)
		}
		if len(it.window) > 0 && !ChunkBudget.TryAcquire(w) {
			// No room: merge what is loaded first.
			it.free = append(it.free, c)
			break
		}
		if len(it.window) == 0 {
			ChunkBudget.Acquire(w) // with nothing else in flight, always
		}
		c.weight = w
		*it.held += w
		c.ci = ci
		it.sent++
		it.window = append(it.window, c)
		if runtime.GOMAXPROCS(0) == 1 || len(it.chunks) == 1 {
			// Nothing to overlap with: load here, without goroutines.
			c.err = c.load()
			c.done <- struct{}{}
			continue
		}
		if it.pool == nil {
			it.startPool()
		}
		it.pool.jobs <- c // never blocks: the channel holds it.ahead jobs
	}
	c := it.window[0]
	copy(it.window, it.window[1:])
	it.window = it.window[:len(it.window)-1]
	it.next++
	<-c.done
	if n := int64(cap(c.side)); n > 0 && c.err == nil {
		// What was prepared counts with the chunk until it is merged.
		ChunkBudget.Acquire(n)
		c.weight += n
		*it.held += n
	}
	return c, c.err
}

// startPool starts the workers: one per core, no more than there are chunks.
func (it *MessageIter) startPool() {
	p := &workerPool{jobs: make(chan *chunkCursor, it.ahead)}
	for range min(runtime.GOMAXPROCS(0), len(it.chunks)) {
		go p.work()
	}
	it.pool = p
	// The workers do not refer to the iterator, so an abandoned iterator is
	// collected and its workers stopped.
	runtime.AddCleanup(it, func(p *workerPool) { p.stop() }, p)
}

// load reads chunk c.ci and collects its selected messages. Damage in the
// chunk is recorded in c.skipped and c.lost; the error returned is an I/O
// error or the OnChunk function's.
func (c *chunkCursor) load() error {
	c.i = 0
	c.entries = c.entries[:0]
	c.skipped = c.skipped[:0]
	c.lost = 0
	c.suspect = ""
	b := c.q.b
	ch, err := b.ChunkHeader(c.ci)
	if err != nil {
		if !isFormatError(err) {
			return err
		}
		n := c.selectedCount(nil)
		c.lost += n
		r := ByteRange{Start: c.ci.ChunkPos, End: b.chunkExtent(c.ci.ChunkPos), Why: fmt.Sprintf("chunk record cannot be read (%d messages lost): %v", n, err),
			Unit: bag.UnitChunk, Messages: bag.Exactly(n), Topics: c.topics(nil, nil), First: c.ci.Start, Last: c.ci.End}
		if r.Start < 0 || r.Start >= b.size {
			// Nothing of it is in the file: name the chunk info instead.
			r = ByteRange{Start: c.ci.Offset, End: c.ci.Pos.End(), Why: fmt.Sprintf("chunk info points at %d, outside the file: its chunk's %d messages are lost", c.ci.ChunkPos, n)}
			if r.Start < 0 || r.End > b.size || r.End < r.Start {
				r.Start, r.End = b.size, b.size
			}
		}
		c.skipped = append(c.skipped, r)
		return nil
	}
	c.data, err = b.readChunkData(ch, &c.buf)
	if err != nil && !isFormatError(err) {
		return err
	}
	// The chunk's vouch, when the bag keeps them, is made by collect's walk
	// of the records (one scan of each header for both).
	var vb *vouchBuilder
	if err == nil && b.wantsVouch(ch) {
		vb = newVouchBuilder(ch)
	}
	if c.q.hook != nil && c.data != nil {
		if err := c.q.hook(&LoadedChunk{Info: c.ci, Chunk: ch, Data: c.data}); err != nil {
			return err
		}
	}
	cv := c.collectVouching(ch, err, vb)
	if vb != nil {
		if cv == nil {
			// A record walkVouchFast gives up at: the doctor's walker
			// decides, as walkVouch does.
			cv = walkVouchSlow(ch, c.data)
		}
		b.keepVouch(ch, cv)
	}
	if c.q.prep != nil {
		c.prepare()
	}
	if len(c.skipped) > 0 {
		// Without the chunk's own data, a compressed chunk's buffers are
		// worth keeping only at their usual size.
		c.buf.trim()
	}
	return nil
}

// prepare runs the query's prep on every entry, into the cursor's side,
// with each message as Next gives it.
func (c *chunkCursor) prepare() {
	if cap(c.side) > bigBuffer {
		c.side = nil // a rare huge one is not kept for the next chunk
	}
	side := c.side[:0]
	var m Message
	for k := range c.entries {
		e := &c.entries[k]
		m = Message{
			Conn:       c.q.conn(e.conn),
			Time:       Time{Sec: uint32(e.t >> 32), NSec: uint32(e.t)},
			Data:       c.data[e.dataOff : e.dataOff+e.dataLen : e.dataOff+e.dataLen],
			ChunkPos:   c.ci.ChunkPos,
			Offset:     e.off,
			DataOffset: e.dataOff,
			Suspect:    c.suspect,
		}
		ps := len(side)
		out, ok := c.q.prep(&m, side)
		if !ok || len(out) > math.MaxUint32 {
			side = out[:ps]
			e.ps, e.pe, e.prepared = uint32(ps), uint32(ps), false
			continue
		}
		side = out
		e.ps, e.pe, e.prepared = uint32(ps), uint32(len(side)), true
	}
	c.side = side
}

// isFormatError reports whether err is about the file's content (a
// *FormatError), not an I/O error.
func isFormatError(err error) bool {
	var fe *FormatError
	return errors.As(err, &fe)
}

// chunkExtent guesses where the unreadable chunk record at pos ends: at the
// next chunk the index knows, or the index section, or the end of the file.
func (b *Bag) chunkExtent(pos int64) int64 {
	end := b.size
	if b.Header != nil && b.Header.IndexPos > pos && b.Header.IndexPos < end {
		end = b.Header.IndexPos
	}
	for _, ci := range b.ChunkInfos {
		if ci.ChunkPos > pos && ci.ChunkPos < end {
			end = ci.ChunkPos
		}
	}
	return end
}

// selectedCount counts the messages of chunk c.ci that the query selects,
// from its index entries when given, else from its chunk info (the time
// range then cannot be applied).
func (c *chunkCursor) selectedCount(idx []*IndexData) uint64 {
	q := c.q
	var n uint64
	if idx != nil {
		for _, x := range idx {
			if !q.sel.has(x.Conn) {
				continue
			}
			for _, e := range x.Entries {
				if k := e.Time.Key(); k >= q.start && k <= q.end {
					n++
				}
			}
		}
		return n
	}
	for _, cc := range c.ci.Conns {
		if q.sel.has(cc.Conn) {
			n += uint64(cc.Count)
		}
	}
	return n
}

// collect finds the selected message data records in c.data. derr is the
// error reading the chunk's data, if any (c.data is then what could be
// read of it, maybe nothing). A record that cannot be read is skipped: the
// walk goes on at the next offset the chunk's index data records name that
// holds a readable message record.
func (c *chunkCursor) collect(ch *Chunk, derr error) {
	c.collectVouching(ch, derr, nil)
}

// collectVouching is collect that, given vb, also adds every record to it
// as walkVouchFast does, and returns the vouch (nil when walkVouchFast
// would give up: a record not plain, or one the doctor notes).
func (c *chunkCursor) collectVouching(ch *Chunk, derr error, vb *vouchBuilder) *chunkVouch {
	q := c.q
	data := c.data
	// Room for every message the chunk info promises, in one allocation;
	// no more than the data could hold (a record takes at least 8 bytes).
	if n := int(min(c.ci.Messages(), uint64(len(data)/8))); cap(c.entries) < n {
		c.entries = make([]entry, 0, n)
	}
	sorted := true
	var last uint64
	var gaps []gap   // what could not be read, in the chunk's data
	var resume []int // offsets to resume at after damage, from the index
	var idx []*IndexData
	haveIdx := false
	damage := func(off int, err error) int {
		if !haveIdx {
			haveIdx = true
			idx = c.q.b.resyncIndex(c.ci)
			for _, x := range idx {
				for _, e := range x.Entries {
					resume = append(resume, int(e.Offset))
				}
			}
			slices.Sort(resume)
			resume = slices.Compact(resume)
		}
		next := len(data)
		i, _ := slices.BinarySearch(resume, off+1)
		for ; i < len(resume); i++ {
			if r := resume[i]; r < len(data) && readableMessage(data, r) {
				next = r
				break
			}
		}
		gaps = append(gaps, gap{off, next, err, false})
		return next
	}
	if derr != nil && len(data) == 0 {
		gaps = append(gaps, gap{0, 0, derr, false})
	}
	for off := 0; off < len(data); {
		dstart, end, ok := recordAt(data, off)
		if !ok {
			vb = nil
			off = damage(off, preciseErr(data, off, ch))
			continue
		}
		op, conn, t, hasConn, hasTime, ok, plain := scanHeaderPlain(data[off+4 : dstart-4])
		if vb != nil && (!plain || !vb.record(data, off, dstart, end, op, conn, t)) {
			vb = nil
		}
		// Chunks hold message data and connection records only.
		if !ok || op != OpMessageData && op != OpConnection || op == OpMessageData && (!hasConn || !hasTime) {
			off = damage(off, preciseErr(data, off, ch))
			continue
		}
		if op == OpMessageData {
			k := t.Key()
			if q.sel.has(conn) && k >= q.start && k <= q.end {
				if q.conn(conn) == nil {
					// A readable record nothing can be said of: skip it.
					gaps = append(gaps, gap{off, end, inChunk(errAt(int64(off), OpMessageData, ErrMalformed, "message uses connection %d, which the bag does not define", conn), ch.Offset), true})
					off = end
					continue
				}
				if k < last {
					sorted = false
				}
				last = k
				c.entries = append(c.entries, entry{t: k, off: uint32(off), dataOff: uint32(dstart), dataLen: uint32(end - dstart), conn: conn})
			}
		}
		off = end
	}
	if derr != nil && len(gaps) == 0 && !ch.Open {
		// The data is whole but something about it is wrong (its size):
		// nothing is lost if every indexed message was found.
		if idx == nil {
			idx = c.q.b.resyncIndex(c.ci)
		}
		if want := c.selectedCount(idx); idx != nil && uint64(len(c.entries)) < want {
			gaps = append(gaps, gap{len(data), len(data), derr, false})
		}
	}
	if len(gaps) > 0 {
		c.record(ch, gaps, idx, derr)
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
	if vb == nil {
		return nil
	}
	return vb.done()
}

// gap is a run of a chunk's uncompressed data that could not be read.
type gap struct {
	start, end int
	err        error
	// whole is set for a readable record skipped as a whole.
	whole bool
}

// record adds the chunk's gaps to c.skipped and counts the lost messages:
// the selected index entries whose message was not found (or, without an
// index, what the chunk info counts beyond what was found), and at least
// the readable records that had to be skipped.
func (c *chunkCursor) record(ch *Chunk, gaps []gap, idx []*IndexData, derr error) {
	found := uint64(len(c.entries))
	if idx == nil {
		idx = c.q.b.resyncIndex(c.ci)
	}
	want := c.selectedCount(idx)
	// Of the records found, those its index data records list are the
	// chunk's own; one a resync found elsewhere may be garbage.
	genuine := found
	if idx != nil {
		genuine = c.indexed(idx)
	}
	var lost, skippedRecs uint64
	if want > found {
		lost = want - found
	}
	for _, g := range gaps {
		if g.whole {
			skippedRecs++
		}
	}
	lost = max(lost, skippedRecs)
	c.lost += lost
	// The chunk's index data records (or its chunk info) count the
	// chunk's messages: what was not found of them is lost, exactly.
	// A message found right before or after a gap may hold damaged
	// bytes in its data, read as they are: it may be one lost too.
	var atRisk uint64
	for _, e := range c.entries {
		for _, g := range gaps {
			if int(e.dataOff+e.dataLen) == g.start || int(e.off) == g.end {
				atRisk++
				break
			}
		}
	}
	count := bag.Between(satSub64(want, genuine), satSub64(want, genuine)+atRisk)
	switch {
	case idx == nil && len(c.ci.Conns) == 0:
		count = bag.AtLeast(lost)
	case idx == nil:
		// Counted from the chunk info, whose messages the records found
		// may not all be.
		count = bag.Between(lost, want)
	}
	topics := c.topics(idx, c.entries)
	resynced := false
	for _, e := range c.entries {
		if int(e.off) >= gaps[0].end && gaps[0].end > gaps[0].start {
			resynced = true
			break
		}
	}
	switch {
	case resynced:
		// Every message of a chunk that had to be resynced is suspect:
		// the damage may reach into the records that still parse.
		c.suspect = fmt.Sprintf("offset %d: read from the chunk at %d, which is damaged at byte %d of its data and was resynced", ch.Offset, ch.Offset, gaps[0].start)
	case len(c.entries) > 0 && derr != nil && !errors.Is(derr, ErrTruncated) && !ch.Open:
		c.suspect = fmt.Sprintf("offset %d: read from the %s chunk at %d, whose data does not decompress whole: %v", ch.Offset, ch.Compression, ch.Offset, derr)
	}
	switch {
	case len(c.data) == 0 && derr != nil:
		c.skipped = append(c.skipped, ByteRange{Start: ch.Offset, End: ch.End(),
			Why:  fmt.Sprintf("%s chunk cannot be read (%d messages lost): %v", ch.Compression, lost, derr),
			Unit: bag.UnitChunk, Messages: count, Topics: topics, First: c.ci.Start, Last: c.ci.End})
	case ch.Compression == CompressionNone:
		// The chunk's data is the file's: every gap has its file offsets.
		first := len(c.skipped)
		for _, g := range gaps {
			c.skipped = append(c.skipped, ByteRange{Start: ch.DataOffset + int64(g.start), End: ch.DataOffset + int64(g.end),
				Why: fmt.Sprintf("in the chunk at %d: %v", ch.Offset, g.err), Unit: bag.UnitRecord, Messages: bag.Exactly(0)})
		}
		c.skipped[first].Why += fmt.Sprintf(" (%d messages of the chunk lost, %d read)", lost, found)
		c.skipped[first].Messages, c.skipped[first].Topics, c.skipped[first].Recovered = count, topics, found
		c.skipped[first].First, c.skipped[first].Last = c.ci.Start, c.ci.End
	default:
		parts := make([]string, 0, len(gaps))
		for _, g := range gaps {
			parts = append(parts, fmt.Sprintf("bytes %d..%d of its %d uncompressed bytes: %v", g.start, g.end, ch.Size, g.err))
		}
		why := fmt.Sprintf("%s chunk: %d messages read, %d lost; %s", ch.Compression, found, lost, strings.Join(parts, "; "))
		if derr != nil && gaps[0].err != derr {
			why += "; decompression stopped after " + fmt.Sprint(len(c.data)) + " bytes: " + derr.Error()
		}
		c.skipped = append(c.skipped, ByteRange{Start: ch.Offset, End: ch.End(), Why: why,
			Unit: bag.UnitChunk, Messages: count, Topics: topics, Recovered: found, First: c.ci.Start, Last: c.ci.End})
	}
}

// indexed counts the entries found that the chunk's index data records
// list (same connection, offset and time).
func (c *chunkCursor) indexed(idx []*IndexData) uint64 {
	type key struct {
		conn, off uint32
		t         uint64
	}
	listed := map[key]bool{}
	for _, x := range idx {
		for _, e := range x.Entries {
			listed[key{x.Conn, e.Offset, e.Time.Key()}] = true
		}
	}
	var n uint64
	for _, e := range c.entries {
		if listed[key{e.conn, e.off, e.t}] {
			n++
		}
	}
	return n
}

func satSub64(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

// topics returns the topics of the chunk's selected messages that were
// not found: from its index data records (idx) when given, else from its
// chunk info's counts, less those in found.
func (c *chunkCursor) topics(idx []*IndexData, found []entry) []string {
	want := map[uint32]int{}
	if idx != nil {
		for _, x := range idx {
			if c.q.sel.has(x.Conn) {
				want[x.Conn] += len(x.Entries)
			}
		}
	} else {
		for _, cc := range c.ci.Conns {
			if c.q.sel.has(cc.Conn) {
				want[cc.Conn] += int(cc.Count)
			}
		}
	}
	for _, e := range found {
		want[e.conn]--
	}
	var out []string
	for id, n := range want {
		if n <= 0 {
			continue
		}
		if conn := c.q.b.connByID[id]; conn != nil && !slices.Contains(out, conn.Topic) {
			out = append(out, conn.Topic)
		}
	}
	slices.Sort(out)
	return out
}

// readableMessage reports whether a whole message data record with conn
// and time starts at off in data.
func readableMessage(data []byte, off int) bool {
	if off < 0 {
		return false
	}
	dstart, _, ok := recordAt(data, off)
	if !ok {
		return false
	}
	op, _, _, hasConn, hasTime, ok, _ := scanHeaderPlain(data[off+4 : dstart-4])
	return ok && op == OpMessageData && hasConn && hasTime
}

// resyncIndex returns the index data records of chunk ci, as far as they
// can be read, to find the messages after damage in the chunk; nil when
// there are none.
func (b *Bag) resyncIndex(ci *ChunkInfo) []*IndexData {
	if b.Scan != nil {
		return b.scannedIndex(ci.ChunkPos)
	}
	idx, _ := b.ChunkIndex(ci)
	if len(idx) == 0 {
		return nil
	}
	return idx
}

// preciseErr re-parses the record at off slowly to say what is wrong.
func preciseErr(data []byte, off int, ch *Chunk) error {
	rec, _, err := parseRecordBytes(data, off, nil)
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
	it.release(done)
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

// recordAt frames the record that starts at off (not negative) in a
// chunk's data: its header is data[off+4:dstart-4] and its data
// data[dstart:end]. ok is false when the lengths do not fit in data.
func recordAt(data []byte, off int) (dstart, end int, ok bool) {
	if len(data)-off < 8 {
		return 0, 0, false
	}
	hlen := int(le32(data[off:]))
	if hlen < 0 || hlen > len(data)-off-8 {
		return 0, 0, false
	}
	dstart = off + 8 + hlen
	dlen := int(le32(data[dstart-4:]))
	if dlen < 0 || dlen > len(data)-dstart {
		return 0, 0, false
	}
	return dstart, dstart + dlen, true
}
