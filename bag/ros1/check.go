package ros1

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// Severity ranks a finding.
type Severity int

// Severities, least severe first.
const (
	Info Severity = iota
	Warning
	Error
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	return [...]string{"info", "warning", "error"}[s]
}

// Finding is one problem or observation, located in the file.
type Finding struct {
	Severity Severity
	Offset   int64 // file offset of the record (or byte range) concerned
	Op       Op    // op of that record; 0 for byte ranges
	Message  string
}

// CheckReport is the doctor's result.
type CheckReport struct {
	Findings []Finding // in file order
	// Indexed reports whether the index could be used.
	Indexed bool
	// Messages counts the messages found in the chunks.
	Messages uint64
	// Bytes adds up the payload bytes of those messages per connection ID.
	Bytes map[uint32]uint64
	// Counts counts those messages per connection ID.
	Counts map[uint32]uint64
	// Backwards says that time runs backwards on a connection somewhere in
	// the file (an info finding says where): its messages are not in the
	// order of their times in the file.
	Backwards bool
	// Undecoded counts the messages that do not decode against their
	// definitions.
	Undecoded uint64

	// visited says every message of the chunks was handed to the
	// visitor of checkVisiting.
	visited bool
}

// Errors counts the findings of severity Error.
func (r *CheckReport) Errors() int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == Error {
			n++
		}
	}
	return n
}

// Check cross-checks every part of a bag against the others: the bag
// header against the index, each chunk info against its chunk, chunk sizes,
// record lengths, index data against the message records, connections,
// md5sums against definitions, time order, overlapping chunks, gaps, junk
// and truncation. It returns an error only when the file is not a bag of a
// version it reads.
func Check(r io.ReaderAt, size int64) (*CheckReport, error) {
	return CheckContext(context.Background(), r, size, nil)
}

// CheckContext is Check that stops with ctx's error once ctx is cancelled
// (between two chunks) and reports its progress, if progress is not nil, as
// the bytes of chunk data read out of their total: reading and
// decompressing every chunk is most of its work.
func CheckContext(ctx context.Context, r io.ReaderAt, size int64, progress func(done, total int64)) (*CheckReport, error) {
	return checkVisiting(ctx, r, size, progress, nil)
}

// chunkVisit hands on the messages of a chunk's data (see checkVisiting).
// visited is false when it could not hand on every message of the chunk.
// With vouch, it also returns the chunk's vouch, walkVouch's, made in the
// same walk of the records.
type chunkVisit func(ch *Chunk, data []byte, vouch bool) (visited bool, cv *chunkVouch)

// checkVisiting is CheckContext that hands visit every chunk it reads
// whole, on the worker that decompressed it, in no particular order. The
// report's visited says whether every message was handed on: every chunk
// read whole, its records walked to the end, and visit's visited true.
func checkVisiting(ctx context.Context, r io.ReaderAt, size int64, progress func(done, total int64), visit chunkVisit) (*CheckReport, error) {
	return checkVouched(ctx, r, size, progress, visit, nil, nil)
}

// checkVouched is checkVisiting that takes the vouches of chunks a read
// decompressed already (see chunkVouch) instead of their data, when the
// check is quick and hands no visitor the messages.
//
// pre, if not nil, is the structure read beside the read that vouched
// (see preScan): a quick check without a visitor takes it instead of
// reading it.
func checkVouched(ctx context.Context, r io.ReaderAt, size int64, progress func(done, total int64), visit chunkVisit, vouched map[int64]*chunkVouch, pre *preScan) (*CheckReport, error) {
	if visit != nil || !bag.QuickCheck(ctx) {
		vouched, pre = nil, nil
	}
	var st *structure
	if pre != nil {
		if st = pre.wait(ctx); st == nil {
			return nil, ctx.Err()
		}
	} else {
		st = readStructure(r, size)
	}
	idx, idxErr, sb, err := st.idx, st.idxErr, st.sb, st.err
	if err != nil {
		return nil, err
	}
	c := &checker{rep: &CheckReport{Bytes: map[uint32]uint64{}, Counts: map[uint32]uint64{}}, ctx: ctx, progress: progress, visit: visit, visited: visit != nil, vouched: vouched}
	c.scanned = sb
	if idxErr != nil {
		hint := ""
		if errors.Is(idxErr, ErrUnindexed) {
			hint = "; `bagscope fix` writes an indexed copy"
		}
		c.addErr(idxErr, Error, "the index cannot be used: ", hint)
	} else {
		c.idx = idx
		c.rep.Indexed = true
		for _, w := range idx.Warnings {
			c.addErr(w, Error, "", "")
		}
	}
	c.scanFindings()
	if err := c.chunks(); err != nil {
		return nil, err
	}
	c.rep.visited = c.visited
	c.chunkInfos()
	c.connections()
	sort.SliceStable(c.rep.Findings, func(i, j int) bool { return c.rep.Findings[i].Offset < c.rep.Findings[j].Offset })
	return c.rep, nil
}

type checker struct {
	ctx      context.Context
	progress func(done, total int64) // or nil
	rep      *CheckReport
	idx      *Bag // the bag read through its index, or nil
	scanned  *Bag // the bag read by scanning
	// sums[chunk pos] sums up the messages found in each chunk: the
	// messages themselves are not kept past their chunk's walk, so that
	// the doctor's memory does not grow with the recording.
	sums map[int64]chunkSum
	// visit is checkVisiting's; visited stays true while every message
	// has been handed to it.
	visit   chunkVisit
	visited bool
	// vouched are the vouches of chunks a read walked already, by
	// position (see checkVouched), or nil.
	vouched map[int64]*chunkVouch
}

// chunkSum is what chunkInfos compares with a chunk info: the chunk's
// message count per connection and their time span.
type chunkSum struct {
	n          int
	counts     []connCount // by connection
	start, end Time
}

type connCount struct{ conn, n uint32 }

// sumUp sums up the messages of one chunk.
func sumUp(msgs []chunkMsg) chunkSum {
	s := chunkSum{n: len(msgs)}
	counts := map[uint32]uint32{}
	for i, m := range msgs {
		counts[m.conn]++
		if i == 0 || m.t.Before(s.start) {
			s.start = m.t
		}
		if i == 0 || s.end.Before(m.t) {
			s.end = m.t
		}
	}
	for _, conn := range slices.Sorted(maps.Keys(counts)) {
		s.counts = append(s.counts, connCount{conn, counts[conn]})
	}
	return s
}

type chunkMsg struct {
	off  uint32
	conn uint32
	t    Time
}

func (c *checker) add(sev Severity, off int64, op Op, format string, args ...any) {
	c.rep.Findings = append(c.rep.Findings, Finding{sev, off, op, fmt.Sprintf(format, args...)})
}

// addErr adds a finding for a located error, keeping its offset and op;
// prefix and suffix frame its message.
func (c *checker) addErr(err error, sev Severity, prefix, suffix string) {
	var fe *FormatError
	switch {
	case errors.As(err, &fe) && fe.Chunk >= 0:
		c.add(sev, fe.Chunk, OpChunk, "%sat offset %d of the chunk's data: %s%s", prefix, fe.Offset, fe.Msg, suffix)
	case errors.As(err, &fe):
		c.add(sev, fe.Offset, fe.Op, "%s%s%s", prefix, fe.Msg, suffix)
	default:
		c.add(sev, 0, 0, "%s%v%s", prefix, err, suffix)
	}
}

// scanFindings reports what the linear scan found: gaps, junk, truncation,
// the open chunk.
func (c *checker) scanFindings() {
	s := c.scanned.Scan
	for _, r := range s.Skipped {
		switch {
		case r.End == r.Start:
			c.add(Error, r.Start, 0, "%s", r.Why)
		case strings.HasPrefix(r.Why, "padding"):
			c.add(Warning, r.Start, 0, "%d bytes of zero padding between records (bytes %d..%d)", r.End-r.Start, r.Start, r.End)
		case r.End == s.Size:
			c.add(Error, r.Start, 0, "the file is truncated: the last %d bytes are %s", r.End-r.Start, r.Why)
		default:
			c.add(Error, r.Start, 0, "%d unreadable bytes (%d..%d): %s", r.End-r.Start, r.Start, r.End, r.Why)
		}
	}
	for _, n := range s.Notes {
		c.add(Warning, n.Offset, n.Op, "%s", n.Msg)
	}
	if o := s.Open; o != nil && !o.Cut {
		c.add(Error, o.Pos, OpChunk, "chunk was never closed (the recording stopped while writing it): %d complete messages in it", o.Messages)
	}
	if s.LostMessages > 0 {
		c.add(Error, 0, 0, "%d indexed messages are in chunks that cannot be read", s.LostMessages)
	}
}

// chunks decompresses every chunk, walks its records, and checks them
// against the index data records that follow it. It stops with the
// context's error.
func (c *checker) chunks() error {
	sb := c.scanned
	c.sums = map[int64]chunkSum{}
	var msgs []chunkMsg // one chunk's, the buffer reused
	chunks := make([]*Chunk, 0, len(sb.chunks))
	var done, total int64
	for _, ch := range sb.chunks {
		chunks = append(chunks, ch)
		total += int64(ch.DataLen)
	}
	sort.Slice(chunks, func(i, j int) bool { return chunks[i].Offset < chunks[j].Offset })
	// Per connection, in slices for the usual small IDs: a look-up per
	// message.
	conns := &connStates{}
	if c.progress != nil {
		c.progress(0, total)
	}
	var v *validator
	if !bag.QuickCheck(c.ctx) {
		v = newValidator(c.messageConns())
	}
	badPerConn := map[uint32]int{}
	// Chunks a read vouched for are taken from their vouch (applyVouch)
	// where it fits; the others are decompressed (and their messages
	// decoded) on every core; all are checked here in file order.
	load := chunks
	var vouch []*chunkVouch // by chunks' index, when vouched
	if len(c.vouched) > 0 {
		load = make([]*Chunk, 0, len(chunks))
		vouch = make([]*chunkVouch, len(chunks))
		for i, ch := range chunks {
			if cv := c.vouched[ch.Offset]; cv != nil && !ch.Open {
				vouch[i] = cv
				continue
			}
			load = append(load, ch)
		}
	}
	next := 0 // the next chunk, in file order, to check
	var buf ChunkBuffer
	var process func(l *loadedChunk) error
	// upTo checks the vouched chunks before off (all: -1).
	upTo := func(off int64) error {
		for ; next < len(chunks) && (off < 0 || chunks[next].Offset < off); next++ {
			cv := vouch[next]
			if cv == nil {
				break
			}
			if err := c.ctx.Err(); err != nil {
				return err
			}
			ch := chunks[next]
			if idx, d := sb.scannedDigests(ch.Offset); cv.fits(ch, idx, d) {
				done += int64(ch.DataLen)
				if c.progress != nil {
					c.progress(done, total)
				}
				c.applyVouch(ch, cv, conns)
				continue
			}
			// Something the read could not vouch for: the chunk is
			// checked from its data, as any other.
			l := &loadedChunk{ch: ch}
			l.data, l.err = sb.readChunkData(ch, &buf)
			if err := process(l); err != nil {
				return err
			}
		}
		return nil
	}
	process = func(l *loadedChunk) error {
		ch, data, err := l.ch, l.data, l.err
		if err != nil || l.missed || ch.Open {
			c.visited = false
		}
		done += int64(ch.DataLen)
		if c.progress != nil {
			c.progress(done, total)
		}
		if err != nil {
			what := "chunk cannot be read"
			if len(data) > 0 {
				what = fmt.Sprintf("chunk can be read only in part (%d of its %d uncompressed bytes)", len(data), ch.Size)
			}
			var fe *FormatError
			msg := err.Error()
			if errors.As(err, &fe) {
				msg = fe.Msg
			}
			c.add(Error, ch.Offset, OpChunk, "%s: %s", what, msg)
			if len(data) == 0 {
				return nil
			}
		}
		p := ch.Offset
		if cv := l.vouch; cv != nil && err == nil {
			// The worker walked the chunk as below and found nothing
			// to say of it alone: what is left depends on the chunks
			// before it and on the index data records after it.
			if idx, d := sb.scannedDigests(p); cv.fits(ch, idx, d) {
				c.applyVouch(ch, cv, conns)
				return nil
			}
		}
		msgs = msgs[:0]
		w := NewChunkWalker(data, p)
		for w.Next() {
			r := w.Record()
			switch r.Op {
			case OpConnection:
				if conn, err := ParseConnection(*r, w.Data()); err == nil {
					conns.get(conn.ID).defined = true
				}
			case OpMessageData:
				m, err := parseMessageData(*r)
				if err != nil {
					c.addErr(inChunk(err, p), Error, "", "")
					continue
				}
				cs := conns.get(m.Conn)
				if !cs.defined {
					c.add(Error, p, OpChunk, "message at offset %d of the chunk's data uses connection %d before any connection record defines it", r.Offset, m.Conn)
					cs.defined = true
				}
				if lt := cs.last; cs.hasLast && m.Time.Before(lt) {
					c.rep.Backwards = true
					c.add(Info, p, OpChunk, "time runs backwards on connection %d: a message at %s follows one at %s (offset %d of the chunk's data)", m.Conn, m.Time, lt, r.Offset)
				}
				cs.last, cs.hasLast = m.Time, true
				msgs = append(msgs, chunkMsg{uint32(r.Offset), m.Conn, m.Time})
				cs.bytes += uint64(r.DataLen)
				cs.n++
				cs.counted = true
			default:
				c.add(Error, p, OpChunk, "unexpected %s record at offset %d of the chunk's data", r.Op, r.Offset)
			}
		}
		if err := w.Err(); err != nil {
			c.visited = false
			if !ch.Open && l.err == nil {
				c.addErr(err, Error, "", "")
			}
		}
		c.rep.Undecoded += uint64(len(l.bad) + l.moreBad)
		for _, bm := range l.bad {
			if badPerConn[bm.conn]++; badPerConn[bm.conn] <= maxBadPerConn {
				where := ""
				if ch.Compression == CompressionNone {
					where = fmt.Sprintf(", file offset %d", ch.DataOffset+int64(bm.off))
				}
				c.add(Error, p, OpChunk, "message at offset %d of the chunk's data%s (connection %d, %s) does not decode as %s: %v", bm.off, where, bm.conn, c.topicOf(bm.conn), c.typeOf(bm.conn), bm.err)
			}
		}
		if l.moreBad > 0 {
			c.add(Error, p, OpChunk, "%d more messages in the chunk do not decode against their definitions", l.moreBad)
		}
		c.sums[p] = sumUp(msgs)
		c.rep.Messages += uint64(len(msgs))
		if !ch.Open && l.err == nil {
			c.indexData(ch, msgs)
		}
		return nil
	}
	// A quick check has the workers walk each chunk's records for its
	// vouch (the walk below, which is most of the doctor's own work).
	err := sb.loadChunks(c.ctx, load, v, c.visit, v == nil && walkOnWorkers, func(l *loadedChunk) error {
		if vouch != nil {
			if err := upTo(l.ch.Offset); err != nil {
				return err
			}
			next++ // l's own
		}
		return process(l)
	})
	if err == nil && vouch != nil {
		err = upTo(-1)
	}
	conns.each(func(id uint32, cs *connState) {
		if cs.counted {
			c.rep.Bytes[id] += cs.bytes
			c.rep.Counts[id] += cs.n
		}
	})
	// In connection order, so that two checks of one file say the same.
	for _, conn := range slices.Sorted(maps.Keys(badPerConn)) {
		if n := badPerConn[conn]; n > maxBadPerConn {
			c.add(Error, 0, 0, "%d messages of connection %d (%s) do not decode as %s; the first %d are listed", n, conn, c.topicOf(conn), c.typeOf(conn), maxBadPerConn)
		}
	}
	return err
}

// connState is what the doctor's walk of the chunks keeps per connection.
type connState struct {
	defined bool // a connection record defines it (or a message was reported without one)
	hasLast bool
	last    Time   // the time of its last message, when hasLast
	bytes   uint64 // its messages' data bytes, when counted
	n       uint64 // its messages, when counted
	counted bool
}

// connStates holds the connStates by ID: in a slice for the usual small
// IDs, in a map for others.
type connStates struct {
	dense []*connState
	other map[uint32]*connState
}

func (t *connStates) get(id uint32) *connState {
	if id < 1<<16 {
		if int(id) >= len(t.dense) {
			t.dense = append(t.dense, make([]*connState, int(id)+1-len(t.dense))...)
		}
		if t.dense[id] == nil {
			t.dense[id] = &connState{}
		}
		return t.dense[id]
	}
	if t.other == nil {
		t.other = map[uint32]*connState{}
	}
	cs := t.other[id]
	if cs == nil {
		cs = &connState{}
		t.other[id] = cs
	}
	return cs
}

// each calls fn with every connection's state.
func (t *connStates) each(fn func(id uint32, cs *connState)) {
	for id, cs := range t.dense {
		if cs != nil {
			fn(uint32(id), cs)
		}
	}
	for id, cs := range t.other {
		fn(id, cs)
	}
}

// maxBadPerConn is how many undecodable messages of one connection check
// lists; the rest are counted.
const maxBadPerConn = 20

// messageConns returns the connections messages are decoded with: the
// index's, and those only the chunks define.
func (c *checker) messageConns() map[uint32]*Connection {
	out := map[uint32]*Connection{}
	for id, conn := range c.scanned.connByID {
		out[id] = conn
	}
	if c.idx != nil {
		for id, conn := range c.idx.connByID {
			out[id] = conn
		}
	}
	return out
}

func (c *checker) conn(id uint32) *Connection {
	if c.idx != nil {
		if conn := c.idx.connByID[id]; conn != nil {
			return conn
		}
	}
	return c.scanned.connByID[id]
}

func (c *checker) topicOf(id uint32) string {
	if conn := c.conn(id); conn != nil {
		return conn.Topic
	}
	return "?"
}

func (c *checker) typeOf(id uint32) string {
	if conn := c.conn(id); conn != nil {
		return conn.Type
	}
	return "?"
}

// indexData checks the index data records after a chunk against its
// messages.
func (c *checker) indexData(ch *Chunk, msgs []chunkMsg) {
	perConn := map[uint32]int{}
	for _, m := range msgs {
		perConn[m.conn]++
	}
	// msgs are in the order of the chunk's records: by offset. An index
	// data record's entries are too, so each entry's message is looked
	// for from where the entry before it was found (the connection's next
	// message is a few records on), else by binary search.
	var cursor int
	at := func(off uint32) (chunkMsg, bool) {
		for k := cursor; k < min(len(msgs), cursor+16); k++ {
			if o := msgs[k].off; o >= off {
				if o != off {
					break
				}
				cursor = k + 1
				return msgs[k], true
			}
		}
		i, ok := slices.BinarySearchFunc(msgs, off, func(m chunkMsg, off uint32) int { return cmp.Compare(m.off, off) })
		if !ok {
			return chunkMsg{}, false
		}
		cursor = i + 1
		return msgs[i], true
	}
	seen := map[uint32]bool{}
	for _, x := range c.scanned.scannedIndex(ch.Offset) {
		seen[x.Conn] = true
		cursor = 0
		if int(x.Count) != perConn[x.Conn] {
			c.add(Error, x.Offset, OpIndexData, "index data lists %d messages of connection %d; the chunk at %d holds %d", x.Count, x.Conn, ch.Offset, perConn[x.Conn])
		}
		bad := 0
		for _, e := range x.Entries {
			m, ok := at(e.Offset)
			if !ok || m.conn != x.Conn || m.t != e.Time {
				if bad == 0 {
					what := "no message record"
					if ok {
						what = fmt.Sprintf("a message of connection %d at %s", m.conn, m.t)
					}
					c.add(Error, x.Offset, OpIndexData, "index entry (connection %d, %s, offset %d) points at %s", x.Conn, e.Time, e.Offset, what)
				}
				bad++
			}
		}
		if bad > 1 {
			c.add(Error, x.Offset, OpIndexData, "%d more index entries of connection %d do not match their message records", bad-1, x.Conn)
		}
	}
	for _, conn := range slices.Sorted(maps.Keys(perConn)) {
		if !seen[conn] {
			c.add(Error, ch.Offset, OpChunk, "no index data record after the chunk for connection %d (%d messages)", conn, perConn[conn])
		}
	}
}

// chunkInfos checks the index's chunk infos against the chunks, and
// reports chunks that overlap in time.
func (c *checker) chunkInfos() {
	if c.idx == nil {
		return
	}
	indexed := map[int64]bool{}
	infos := append([]*ChunkInfo(nil), c.idx.ChunkInfos...)
	for _, ci := range infos {
		indexed[ci.ChunkPos] = true
		sum, ok := c.sums[ci.ChunkPos]
		if !ok {
			if _, isChunk := c.scanned.chunks[ci.ChunkPos]; !isChunk {
				c.add(Error, ci.Offset, OpChunkInfo, "chunk info points at %d, where there is no chunk record", ci.ChunkPos)
			}
			continue
		}
		counts := make(map[uint32]uint32, len(sum.counts))
		for _, cc := range sum.counts {
			counts[cc.conn] = cc.n
		}
		start, end := sum.start, sum.end
		if sum.n > 0 && (ci.Start != start || ci.End != end) {
			c.add(Error, ci.Offset, OpChunkInfo, "chunk info says %s..%s; the messages of the chunk at %d span %s..%s", ci.Start, ci.End, ci.ChunkPos, start, end)
		}
		listed := map[uint32]bool{}
		for _, cc := range ci.Conns {
			listed[cc.Conn] = true
			if counts[cc.Conn] != cc.Count {
				c.add(Error, ci.Offset, OpChunkInfo, "chunk info says %d messages of connection %d; the chunk at %d holds %d", cc.Count, cc.Conn, ci.ChunkPos, counts[cc.Conn])
			}
		}
		for _, conn := range slices.Sorted(maps.Keys(counts)) {
			if !listed[conn] {
				c.add(Error, ci.Offset, OpChunkInfo, "chunk info does not list connection %d, which has %d messages in the chunk at %d", conn, counts[conn], ci.ChunkPos)
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(c.scanned.chunks)) {
		if !indexed[p] {
			c.add(Error, p, OpChunk, "chunk is not listed in the index")
		}
	}
	sort.Slice(infos, func(i, j int) bool { return infos[i].Start.Before(infos[j].Start) })
	for i := 1; i < len(infos); i++ {
		if infos[i].Start.Before(infos[i-1].End) {
			c.add(Info, infos[i].ChunkPos, OpChunk, "chunk overlaps the chunk at %d in time (%s..%s and %s..%s)", infos[i-1].ChunkPos, infos[i].Start, infos[i].End, infos[i-1].Start, infos[i-1].End)
		}
	}
}

// connections checks connection records: duplicates that conflict, and
// md5sums against definitions.
func (c *checker) connections() {
	conns := c.scanned.Connections
	if c.idx != nil {
		conns = c.idx.Connections
		for _, ic := range c.idx.Connections {
			sc := c.scanned.connByID[ic.ID]
			if sc != nil && (sc.Topic != ic.Topic || sc.Type != ic.Type || sc.MD5Sum != ic.MD5Sum) {
				c.add(Error, ic.Offset, OpConnection, "connection %d is %s (%s %s) in the index but %s (%s %s) in the chunk at its first use", ic.ID, ic.Topic, ic.Type, ic.MD5Sum, sc.Topic, sc.Type, sc.MD5Sum)
			}
		}
	}
	var cache rosmsg.Cache
	for _, conn := range conns {
		if conn.MessageDefinition == "" {
			c.add(Warning, conn.Offset, OpConnection, "connection %d (%s) has an empty message definition: its messages cannot be decoded", conn.ID, conn.Topic)
			continue
		}
		plan, err := cache.Get(conn.Type, conn.MD5Sum, conn.MessageDefinition)
		if err != nil {
			c.add(Warning, conn.Offset, OpConnection, "connection %d (%s): the message definition of %s cannot be parsed: %v", conn.ID, conn.Topic, conn.Type, err)
			continue
		}
		if err := plan.CheckMD5(conn.MD5Sum); err != nil {
			c.add(Warning, conn.Offset, OpConnection, "connection %d (%s): %v", conn.ID, conn.Topic, err)
		}
	}
}
