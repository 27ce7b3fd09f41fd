package mcap

import (
	"context"
	"encoding/binary"
	"fmt"
	"runtime"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/bagscope/bagscope/bag"
)

// Bounds on the parallel reading of chunks.
const (
	// readBudget bounds the bytes of the chunks read ahead of the
	// time-ordered reader (records, decompressed, their message lists;
	// flightCost): a 4 MiB chunk counts as four 1 MiB ones, so the memory
	// grows neither with the cores nor with the chunks' size. Two chunks
	// of 4 MiB (two cores busy), eight of 1 MiB (four: the window).
	// The time-ordered reads of a process under way together share it
	// (activeReads): diff's two readers hold no more than one.
	readBudget = 16 << 20
	// looseSegment is the most file bytes read at once for messages
	// outside chunks.
	looseSegment = 8 << 20
)

// activeReads counts the plain time-ordered reads begun and not yet
// closed (at the end of their messages, or by Close), which share
// readBudget.
var activeReads atomic.Int64

// preparedBudget caps the bytes a prepared read holds ahead of the merge:
// the chunks decompressed and what was prepared of them, until the merge
// takes them (a variable for the tests).
var preparedBudget int64 = 32 << 20

// ent is one selected message in a loaded chunk or segment.
type ent struct {
	time, pub uint64
	rec       uint32 // record offset in the chunk's records (or segment)
	data      uint32 // offset of the message data in the buffer
	n         uint32 // data length
	seq       uint32
	ch        uint16
	zstd      bool // the data starts as a zstd frame does (see DataMayBeZstd)
	// prepared says the iterator's Prepare made bytes ps to pe of the
	// result's side segments of the message (ps = pe when it did not).
	prepared bool
	ps, pe   uint32
}

// zstdStart reports whether message data starts with a zstd frame's magic.
func zstdStart(d []byte) bool {
	return len(d) >= 4 && d[0] == 0x28 && d[1] == 0xb5 && d[2] == 0x2f && d[3] == 0xfd
}

// job is one chunk, or one run of messages outside chunks, to read.
type job struct {
	c     *chunk
	loose []looseMsg
	start uint64 // no message in it is earlier
	done  chan *result
	// flight is flightCost, cost what the job counts against the budget,
	// msgs how many messages it selects at most (when known): worked out
	// once, when the read is made, as the chunk's counts may be filled
	// in later by another goroutine.
	flight, cost int64
	msgs         uint64
	msgsKnown    bool
}

type result struct {
	buf, raw []byte // raw goes back to the pool at once; buf when drained
	data     []byte
	ents     []ent
	skipped  []bag.ByteRange
	err      error // an I/O error: it ends the read
	base     int64 // chunk offset, or the segment's file offset
	loose    bool
	bufRaw   bool // buf belongs to the raw pool
	// suspect says why the chunk's messages are not to be trusted ("" for
	// a sound chunk).
	suspect string
	// visited counts the messages handed to a visit.
	visited int
	// side holds what the iterator's Prepare made of the messages (ent.ps,
	// ent.pe), in segments of sideSeg bytes given back as the merge passes
	// them (sideFrom is the first not given back); cost is what the job
	// counted against the read-ahead budget, with them, until taken.
	side     [][]byte
	sideFrom int
	cost     int64
}

// MessageIter iterates over an MCAP file's messages in log-time order. It
// reads the chunks that can hold selected messages, decompressing them in
// parallel ahead of the caller. Damage does not end the iteration: the
// chunks skipped are listed by Skipped, and Err stays nil.
type MessageIter struct {
	x    *Reader
	jobs []*job
	next int

	sel        []bool // by channel ID; nil selects all
	start, end uint64
	// counted: every chunk's counts were known when Iter began (counts).
	counted bool

	started bool
	window  int
	jobCh   chan *job
	sem     chan struct{}
	stop    chan struct{}
	stopped sync.Once
	free    chan []byte // decompressed records
	freeRaw chan []byte // chunk records as read
	freeEnt chan []ent

	h       []*result // heap of loaded chunks with messages left, by their next message
	pos     []int     // next message per heap entry (parallel to h)
	release *released
	msg     bag.Message
	seq     uint32
	zstd    bool
	skipped []bag.ByteRange
	err     error
	// suspects counts the suspect messages given.
	suspects uint64

	// prep is the hook run on the workers (PreparedMessages), nil for a
	// plain read; freeSeg pools its side segments, budget bounds the
	// bytes held (chunks decompressed and side segments) with it.
	prep    bag.Prepare
	freeSeg chan []byte
	budget  *budget
	prepOut []byte
	prepOK  bool
	joined  []byte // a message's prepared bytes that span segments
}

// Messages iterates over the messages that f selects, in log-time order
// (ties in file order). The Message and its Data are reused by the next
// call to Next.
func (x *Reader) Messages(f bag.MessageFilter) bag.MessageIter { return x.Iter(f) }

// Iter is Messages returning the concrete iterator.
func (x *Reader) Iter(f bag.MessageFilter) *MessageIter {
	it := &MessageIter{x: x, start: uint64(f.Start.Nanos()), end: ^uint64(0), counted: x.counted.Load()}
	if !f.End.IsZero() {
		it.end = uint64(f.End.Nanos())
	}
	if len(f.Topics) > 0 || len(f.Conns) > 0 {
		it.sel = make([]bool, len(x.connTab))
		for id, c := range x.connTab {
			if c != nil && (slices.Contains(f.Topics, c.Topic) || slices.Contains(f.Conns, c.ID)) {
				it.sel[id] = true
			}
		}
	}
	for _, c := range x.chunks {
		if c.lost && c.End >= it.start && c.Start <= it.end {
			it.skipped = append(it.skipped, bag.ByteRange{Start: c.Offset, End: c.Offset + c.Length, Why: fmt.Sprint(c.Err)})
		}
		if c.lost || c.End < it.start || c.Start > it.end || !it.wantsChunk(c) {
			continue
		}
		it.jobs = append(it.jobs, &job{c: c, start: c.Start})
	}
	var seg []looseMsg
	var segStart uint64
	flush := func() {
		if len(seg) > 0 {
			it.jobs = append(it.jobs, &job{loose: seg, start: segStart})
			seg = nil
		}
	}
	for _, m := range x.loose {
		if m.Time < it.start || m.Time > it.end || !it.selected(m.Channel) {
			continue
		}
		if len(seg) > 0 && m.Offset+m.Len-seg[0].Offset > looseSegment {
			flush()
		}
		if len(seg) == 0 || m.Time < segStart {
			segStart = m.Time
		}
		seg = append(seg, m)
	}
	flush()
	sort.SliceStable(it.jobs, func(i, j int) bool { return it.jobs[i].start < it.jobs[j].start })
	sel := it.selected
	if it.sel == nil {
		sel = nil
	}
	for _, j := range it.jobs {
		j.flight = it.flightCost(j)
		if j.c != nil {
			j.msgs, j.msgsKnown = chunkMessages(it.counts(j.c), j.c, sel)
		}
	}
	return it
}

func (it *MessageIter) selected(ch uint16) bool {
	if int(ch) >= len(it.x.connTab) || it.x.connTab[ch] == nil {
		return false
	}
	return it.sel == nil || it.sel[ch]
}

// counts is a chunk's message count per channel where the iterator may
// read them: those the scan found at open (never written after), or all
// of them when Blocks (or Stats) had counted every chunk before Iter; nil
// when not known. A count that Blocks makes while the iterator is set up
// is not read: Blocks writes it under its sync.Once, which the iterator
// does not wait for.
func (it *MessageIter) counts(c *chunk) map[uint16]uint64 {
	if c.scanned || it.counted {
		return c.counts
	}
	return nil
}

func (it *MessageIter) wantsChunk(c *chunk) bool {
	if it.sel == nil {
		return true
	}
	ids := c.MsgIdx
	if counts := it.counts(c); counts != nil {
		for id := range counts {
			if it.selected(id) {
				return true
			}
		}
		return false
	}
	if ids == nil || c.MsgIdxLen == 0 {
		return true
	}
	for id := range ids {
		if it.selected(id) {
			return true
		}
	}
	return false
}

func (it *MessageIter) begin() {
	it.started = true
	if len(it.jobs) == 0 {
		return
	}
	it.prefetchWindow()
	workers := min(runtime.GOMAXPROCS(0), len(it.jobs))
	// The read-ahead is bounded in bytes (budget), whatever the chunks'
	// size: a 4 MiB chunk weighs four 1 MiB ones. The window only caps the
	// count of chunks of small ones, two per core.
	it.window = 2 * runtime.GOMAXPROCS(0)
	limit := int64(readBudget)
	if it.prep != nil {
		// What is prepared of a chunk (text) can be several times its
		// size: one chunk per core read ahead, within the budget (the
		// chunks the merge holds are held besides).
		it.window = min(it.window, runtime.GOMAXPROCS(0))
		limit = preparedBudget
	}
	it.jobCh = make(chan *job)
	it.sem = make(chan struct{}, it.window)
	it.stop = make(chan struct{})
	it.free = make(chan []byte, 2*it.window+4)
	it.freeRaw = make(chan []byte, 2*it.window+4)
	it.freeEnt = make(chan []ent, 2*it.window+4)
	it.budget = newBudget(limit, it.stop)
	if it.prep == nil {
		activeReads.Add(1)
		it.budget.shares = &activeReads
	}
	if it.prep != nil {
		it.freeSeg = make(chan []byte, maxPooledSegs)
	}
	for _, j := range it.jobs {
		j.done = make(chan *result, 1)
		j.cost = it.cost(j)
	}
	go func() {
		defer close(it.jobCh)
		for _, j := range it.jobs {
			select {
			case it.sem <- struct{}{}:
			case <-it.stop:
				return
			}
			if !it.budget.acquire(j.cost) {
				return
			}
			select {
			case it.jobCh <- j:
			case <-it.stop:
				return
			}
		}
	}()
	for range workers {
		go func() {
			d := getDecoders()
			defer putDecoders(d)
			var m bag.Message
			var scratch []byte
			for j := range it.jobCh {
				r := it.work(j, d, nil)
				r.cost = j.cost
				// The chunk record is done with once decompressed: back to
				// the pool now rather than when the merge takes the chunk.
				if r.raw != nil {
					it.putBuf(it.freeRaw, r.raw)
					r.raw = nil
				}
				if it.prep != nil {
					scratch = it.prepare(r, &m, r.cost, scratch)
				}
				j.done <- r
			}
		}()
	}
}

func (it *MessageIter) getBuf(free chan []byte, n int64) []byte {
	select {
	case b := <-free:
		if int64(cap(b)) >= n {
			return b[:n]
		}
	default:
	}
	return make([]byte, n, bufCap(n))
}

// bufCap is the capacity of a new buffer of n bytes: room to spare, so it
// fits the next chunk of about the same size too (a writer closes a chunk
// at the first message past its size, so chunks differ by a message).
func bufCap(n int64) int64 { return n + n/16 + 4096 }

// entSize is the bytes of one entry of a job's message list.
const entSize = int64(unsafe.Sizeof(ent{}))

// cost is what a job counts against the read-ahead budget until the
// merge takes it.
func (it *MessageIter) cost(j *job) int64 {
	if it.prep != nil {
		return jobCost(j)
	}
	return j.flight
}

// flightCost is the bytes a job holds once read: the chunk record, its
// records decompressed and its list of messages (or the run of messages
// outside chunks and theirs).
func (it *MessageIter) flightCost(j *job) int64 {
	if j.c == nil {
		first, last := j.loose[0], j.loose[len(j.loose)-1]
		return bufCap(last.Offset+last.Len-first.Offset) + int64(len(j.loose))*entSize
	}
	c := j.c
	n := bufCap(c.Length)
	if c.Compression != "" {
		n += bufCap(int64(min(c.USize, preallocLimit)))
	}
	// The messages, else as many as records of tens of bytes make.
	msgs, ok := chunkMessages(it.counts(c), c, nil)
	if !ok {
		msgs = c.USize / 96
	}
	return n + int64(min(msgs, preallocLimit))*entSize
}

// chunkMessages is how many of a chunk's messages selected (nil: all)
// takes, at most: from its counts (nil: not known), else, for all of
// them, from the message index's length (16 bytes a message); false when
// not known.
func chunkMessages(counts map[uint16]uint64, c *chunk, selected func(uint16) bool) (uint64, bool) {
	var msgs uint64
	switch {
	case counts != nil:
		for id, k := range counts {
			if selected == nil || selected(id) {
				msgs += k
			}
		}
	case c.MsgIdxLen > 0 && selected == nil:
		msgs = c.MsgIdxLen / 16
	default:
		return 0, false
	}
	return msgs, true
}

func (it *MessageIter) putBuf(free chan []byte, b []byte) {
	if b == nil {
		return
	}
	select {
	case free <- b[:0]:
	default:
	}
}

// work reads one job: a chunk decompressed, or a run of loose messages.
// With visit, a chunk's selected messages are handed to it as the chunk's
// records are walked (content is the Message record's), instead of being
// listed in the result's ents.
func (it *MessageIter) work(j *job, d *decoders, visit func(r *result, off int, content []byte)) *result {
	x := it.x
	if j.c == nil {
		first, last := j.loose[0], j.loose[len(j.loose)-1]
		r := &result{loose: true, base: first.Offset}
		buf := it.getBuf(it.freeRaw, last.Offset+last.Len-first.Offset)
		if _, err := x.r.ReadAt(buf, first.Offset); err != nil {
			r.err = err
			return r
		}
		r.buf, r.data, r.bufRaw = buf, buf, true
		for _, m := range j.loose {
			p := m.Offset - first.Offset
			c := buf[p+recHeaderLen : p+m.Len]
			r.ents = append(r.ents, ent{time: m.Time, pub: binary.LittleEndian.Uint64(c[14:]), rec: uint32(p),
				data: uint32(p + recHeaderLen + messageHeaderLen), n: uint32(m.Len - recHeaderLen - messageHeaderLen), ch: m.Channel,
				seq: binary.LittleEndian.Uint32(c[2:]), zstd: zstdStart(c[messageHeaderLen:])})
		}
		sortEnts(r.ents)
		return r
	}
	c := j.c
	r := &result{base: c.Offset}
	select {
	case r.ents = <-it.freeEnt:
	default:
	}
	// The list sized once when the index says how many messages there
	// are: appending doubles it, leaving as much again of garbage.
	if want := j.msgs; j.msgsKnown && visit == nil && uint64(cap(r.ents)) < want && want <= c.USize/messageHeaderLen {
		r.ents = make([]ent, 0, want)
	}
	if c.Length > MaxRecordSize {
		r.skipped = append(r.skipped, bag.ByteRange{Start: c.Offset, End: c.Offset + c.Length, Why: "chunk over the size limit"})
		return r
	}
	raw := it.getBuf(it.freeRaw, c.Length)
	if n, err := x.r.ReadAt(raw, c.Offset); n < len(raw) {
		r.err = err
		it.putBuf(it.freeRaw, raw)
		return r
	}
	var dst []byte
	if c.Compression != "" {
		dst = it.getBuf(it.free, int64(min(c.USize, preallocLimit)))[:0]
	}
	l := d.loadChunk(raw, c.Offset, c.DeclaredLen, dst)
	if c.Compression == "" {
		r.buf, r.bufRaw = raw, true
	} else {
		r.raw, r.buf = raw, l.data
		if l.data == nil {
			r.buf = dst
		}
	}
	r.data = l.data
	r.suspect = l.suspect
	var visited map[uint16]int // per channel, for a damaged chunk's loss
	if visit != nil && l.err != nil {
		visited = map[uint16]int{}
	}
	vb := x.newVouchBuilder(c, &l) // nil unless the reader vouches (VouchReads)
	walked, werr := walkRecords(l.data, func(op Op, off int, content []byte) bool {
		if vb != nil {
			vb.record(op, off, content)
		}
		if op != OpMessage {
			return true
		}
		ch := binary.LittleEndian.Uint16(content)
		t := binary.LittleEndian.Uint64(content[6:])
		if t < it.start || t > it.end || !it.selected(ch) {
			return true
		}
		if visit != nil {
			visit(r, off, content)
			r.visited++
			if visited != nil {
				visited[ch]++
			}
			return true
		}
		r.ents = append(r.ents, ent{time: t, pub: binary.LittleEndian.Uint64(content[14:]), rec: uint32(off),
			data: uint32(off + recHeaderLen + messageHeaderLen), n: uint32(len(content) - messageHeaderLen), ch: ch,
			seq: binary.LittleEndian.Uint32(content[2:]), zstd: zstdStart(content[messageHeaderLen:])})
		return true
	})
	x.keepVouch(vb, raw, werr)
	if l.err == nil && werr != nil {
		// Records that make no sense in a stream that decompressed
		// whole: where they stop, in the compressed bytes.
		d.locate(&l, walked)
		l.err = inChunk(werr, c.Offset)
		if l.failUnit != "" {
			l.err = fmt.Errorf("%w%s", l.err, l.failWords())
		}
	}
	if l.err != nil {
		n := len(r.ents) + r.visited
		br := bag.ByteRange{Start: c.Offset, End: c.Offset + c.Length, Why: fmt.Sprintf("%v (%d messages read before the damage)", l.err, n),
			Unit: bag.UnitChunk, Recovered: uint64(n), Readable: l.readBytes(c.Offset, walked),
			First: bag.TimeFromUnixNanos(c.Start), Last: bag.TimeFromUnixNanos(c.End)}
		if l.suspect != "" {
			br.Why = fmt.Sprintf("%v (%d messages read, every one suspect)", l.err, n)
		}
		switch {
		case visited != nil:
		case visit != nil:
			// The damage was met by the walk itself: count what it
			// visited before it, per channel, so the chunk's index can
			// say exactly what was lost (kept out of the walk above,
			// which is the fast path).
			visited = map[uint16]int{}
			walkRecords(l.data[:walked], func(op Op, _ int, content []byte) bool {
				if op == OpMessage {
					ch := binary.LittleEndian.Uint16(content)
					if t := binary.LittleEndian.Uint64(content[6:]); t >= it.start && t <= it.end && it.selected(ch) {
						visited[ch]++
					}
				}
				return true
			})
		default:
			visited = map[uint16]int{}
			for _, e := range r.ents {
				visited[e.ch]++
			}
		}
		br.Messages, br.Topics = x.chunkLoss(c, visited, visit != nil && r.visited > 0 && len(visited) == 0, it.selected, l, walked)
		if it.sel != nil && !br.Messages.Exact() {
			br.Messages.Min = 0 // what is lost may not be selected
		}
		r.skipped = append(r.skipped, br)
	}
	sortEnts(r.ents)
	return r
}

func sortEnts(e []ent) {
	if !slices.IsSortedFunc(e, cmpEnt) {
		slices.SortStableFunc(e, cmpEnt)
	}
}

func cmpEnt(a, b ent) int {
	switch {
	case a.time < b.time:
		return -1
	case a.time > b.time:
		return 1
	}
	return 0
}

// Heap of loaded jobs, ordered by their next message (time, then file
// position).
func (it *MessageIter) less(i, j int) bool {
	a, b := it.h[i], it.h[j]
	ea, eb := &a.ents[it.pos[i]], &b.ents[it.pos[j]]
	if ea.time != eb.time {
		return ea.time < eb.time
	}
	ka, kb := a.base, b.base
	ra, rb := int64(ea.rec), int64(eb.rec)
	if a.loose {
		ka, ra = a.base+ra, 0
	}
	if b.loose {
		kb, rb = b.base+rb, 0
	}
	if ka != kb {
		return ka < kb
	}
	return ra < rb
}

func (it *MessageIter) swap(i, j int) {
	it.h[i], it.h[j] = it.h[j], it.h[i]
	it.pos[i], it.pos[j] = it.pos[j], it.pos[i]
}

func (it *MessageIter) up(j int) {
	for j > 0 {
		i := (j - 1) / 2
		if !it.less(j, i) {
			break
		}
		it.swap(i, j)
		j = i
	}
}

func (it *MessageIter) down(i int) {
	n := len(it.h)
	for {
		l := 2*i + 1
		if l >= n {
			return
		}
		j := l
		if r := l + 1; r < n && it.less(r, l) {
			j = r
		}
		if !it.less(j, i) {
			return
		}
		it.swap(i, j)
		i = j
	}
}

// Next advances to the next message.
func (it *MessageIter) Next() bool {
	if it.err != nil {
		return false
	}
	if !it.started {
		it.begin()
	}
	if it.release != nil {
		it.putBuf(it.release.pool, it.release.b)
		it.putEnts(it.release.ents)
		if it.prep != nil {
			it.releaseSide(it.release.r, len(it.release.r.side))
		}
		it.release = nil
	}
	for it.next < len(it.jobs) && (len(it.h) == 0 || it.jobs[it.next].start <= it.h[0].ents[it.pos[0]].time) {
		j := it.jobs[it.next]
		it.next++
		r := <-j.done
		<-it.sem
		// The budget bounds what is read ahead: a chunk held by the merge
		// (chunks that overlap in time are held together) no longer
		// counts, or the read could wait for a chunk the budget keeps
		// from being read.
		it.budget.release(r.cost + int64(len(r.side))*sideSeg)
		it.jobs[it.next-1] = nil
		it.skipped = append(it.skipped, r.skipped...)
		if r.raw != nil {
			it.putBuf(it.freeRaw, r.raw)
		}
		if r.err != nil {
			it.err = r.err
			it.Close()
			return false
		}
		if len(r.ents) == 0 {
			it.putBuf(it.pool(r), r.buf)
			it.putEnts(r.ents)
			if it.prep != nil {
				it.releaseSide(r, len(r.side))
			}
			continue
		}
		it.h = append(it.h, r)
		it.pos = append(it.pos, 0)
		it.up(len(it.h) - 1)
	}
	if len(it.h) == 0 {
		it.Close()
		return false
	}
	r := it.h[0]
	e := &r.ents[it.pos[0]]
	it.x.fill(&it.msg, r, e)
	if r.suspect != "" {
		it.suspects++
	}
	it.seq, it.zstd = e.seq, e.zstd
	if it.prep != nil {
		it.givePrepared(r, e)
	}
	it.pos[0]++
	if it.pos[0] == len(r.ents) {
		it.release = &released{it.pool(r), r.buf, r.ents, r}
		last := len(it.h) - 1
		it.swap(0, last)
		it.h[last] = nil
		it.h, it.pos = it.h[:last], it.pos[:last]
	}
	if len(it.h) > 0 {
		it.down(0)
	}
	return true
}

// fill makes m the message of entry e of a loaded job.
func (x *Reader) fill(m *bag.Message, r *result, e *ent) {
	m.Conn = x.connTab[e.ch]
	m.Suspect = r.suspect
	m.Time = bag.TimeFromUnixNanos(e.time)
	m.PublishTime = bag.TimeFromUnixNanos(e.pub)
	m.Data = r.data[e.data : e.data+e.n : e.data+e.n]
	if r.loose {
		m.Loc = bag.Loc{Block: r.base + int64(e.rec)}
		m.DataOffset = r.base + int64(e.data)
	} else {
		m.Loc = bag.Loc{Block: r.base, Offset: e.rec}
		m.DataOffset = int64(e.data)
	}
}

// VisitMessages calls fn for every message f selects on the goroutines
// that decompress the chunks (one per core), as each chunk's records are
// walked, in no particular order (bag.MessageVisitor). A goroutine holds
// one chunk at a time. Damaged chunks are skipped as Messages skips them
// (the messages before the damage in a chunk are visited, as Messages
// gives them).
func (x *Reader) VisitMessages(ctx context.Context, f bag.MessageFilter, fn func(m *bag.Message)) error {
	_, err := x.VisitMessagesSkipped(ctx, f, fn)
	return err
}

// VisitMessagesSkipped is VisitMessages that also returns the chunks it
// could not read, as Skipped lists them (bag.SkipVisitor).
func (x *Reader) VisitMessagesSkipped(ctx context.Context, f bag.MessageFilter, fn func(m *bag.Message)) ([]bag.ByteRange, error) {
	it := x.Iter(f)
	if len(it.jobs) == 0 {
		return it.skipped, ctx.Err()
	}
	var skipMu sync.Mutex
	workers := min(runtime.GOMAXPROCS(0), len(it.jobs))
	it.free = make(chan []byte, workers)
	it.freeRaw = make(chan []byte, workers)
	it.freeEnt = make(chan []ent, workers)
	var next atomic.Int64
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			d := getDecoders()
			defer putDecoders(d)
			var m bag.Message
			visit := func(r *result, off int, content []byte) {
				t := binary.LittleEndian.Uint64(content[6:])
				m.Conn = x.connTab[binary.LittleEndian.Uint16(content)]
				m.Time = bag.TimeFromUnixNanos(t)
				m.PublishTime = bag.TimeFromUnixNanos(binary.LittleEndian.Uint64(content[14:]))
				m.Data = content[messageHeaderLen:len(content):len(content)]
				m.Loc = bag.Loc{Block: r.base, Offset: uint32(off)}
				m.DataOffset = int64(off + recHeaderLen + messageHeaderLen)
				m.Suspect = r.suspect
				fn(&m)
			}
			for {
				i := int(next.Add(1) - 1)
				if i >= len(it.jobs) {
					return
				}
				if err := ctx.Err(); err != nil {
					errs[w] = err
					return
				}
				r := it.work(it.jobs[i], d, visit)
				if len(r.skipped) > 0 {
					skipMu.Lock()
					it.skipped = append(it.skipped, r.skipped...)
					skipMu.Unlock()
				}
				if r.raw != nil {
					it.putBuf(it.freeRaw, r.raw)
				}
				if r.err != nil {
					errs[w] = r.err
					next.Store(int64(len(it.jobs))) // the others stop too
					return
				}
				for k := range r.ents { // loose messages
					x.fill(&m, r, &r.ents[k])
					fn(&m)
				}
				it.putBuf(it.pool(r), r.buf)
				it.putEnts(r.ents)
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return it.skipped, err
		}
	}
	return it.skipped, nil
}

// DataMayBeZstd reports whether the current message's data starts as a
// zstd frame does (rosbag2's MESSAGE compression mode), as seen on the
// goroutine that decompressed its chunk: bag's decompressing wrapper then
// need not touch the data on the reading goroutine.
func (it *MessageIter) DataMayBeZstd() bool { return it.zstd }

// Sequence returns the current message's sequence field.
func (it *MessageIter) Sequence() uint32 { return it.seq }

// Message returns the current message, valid until the next call to Next.
func (it *MessageIter) Message() *bag.Message { return &it.msg }

// Err returns the I/O error that ended the iteration, if any. Damaged
// chunks do not end it: see Skipped.
func (it *MessageIter) Err() error { return it.err }

// Skipped lists the byte ranges (chunks) whose messages could not all be
// read, so far, in the order met.
func (it *MessageIter) Skipped() []bag.ByteRange { return it.skipped }

// Suspects counts the suspect messages given so far.
func (it *MessageIter) Suspects() uint64 { return it.suspects }

// Close stops the reading ahead.
func (it *MessageIter) Close() {
	if it.stop != nil {
		it.stopped.Do(func() {
			if it.budget.shares != nil {
				it.budget.shares.Add(-1)
			}
			close(it.stop)
			it.budget.wake()
		})
	}
	// The buffers kept for reuse go now, not when the iterator is
	// dropped: a command goes on after its read (verify's doctor).
	for _, free := range []chan []byte{it.free, it.freeRaw} {
		for drained := false; !drained; {
			select {
			case <-free:
			default:
				drained = true
			}
		}
	}
	for drained := false; !drained; {
		select {
		case <-it.freeEnt:
		default:
			drained = true
		}
	}
}

type released struct {
	pool chan []byte
	b    []byte
	ents []ent
	r    *result // for its side segments
}

func (it *MessageIter) putEnts(e []ent) {
	if cap(e) == 0 {
		return
	}
	select {
	case it.freeEnt <- e[:0]:
	default:
	}
}

func (it *MessageIter) pool(r *result) chan []byte {
	if r.bufRaw {
		return it.freeRaw
	}
	return it.free
}
