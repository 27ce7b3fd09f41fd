package ros1

import (
	"cmp"
	"maps"
	"slices"
	"sync"
)

// A read of a bag decompresses its chunks; the quick doctor that commands
// run after it (bag.AddDoctorFindings) used to decompress every chunk
// again. A bag asked to (VouchReads) keeps, for each chunk a read
// decompressed whole, what the doctor's walk of the chunk would have
// found: a chunkVouch. The doctor then takes a chunk's vouch instead of its
// data when the vouch shows nothing a whole walk would report of the
// chunk alone: no record the walk cannot read, no unexpected record,
// messages of a connection in time order, and index data records after the
// chunk that list exactly its messages (compared by count and by an
// order-free digest of each message's offset and time). For any other
// chunk the doctor reads the chunk itself, as before, so a vouch can only
// spare work, never change what the doctor says.

// chunkVouch is what the doctor's walk of one chunk's data finds, in the
// terms it needs to go on with the next chunk (see checker.applyVouch).
type chunkVouch struct {
	// The chunk record the data is of: the doctor's chunk must be the
	// same record.
	offset      int64
	dataLen     uint32
	size        uint32
	compression string

	sum chunkSum
	// conns are the connections the chunk has messages of, by the offset
	// of their first message.
	conns []vouchConn
	// defined lists the connections a connection record in the chunk
	// defines.
	defined []uint32
}

// vouchConn is one connection's messages in a vouched chunk.
type vouchConn struct {
	id uint32
	// first is the offset in the chunk's data of the connection's first
	// message record, at time firstT; definedFirst says a connection
	// record of the chunk defines it before that message.
	first        int
	firstT       Time
	definedFirst bool
	last         Time // the time of its last message
	n            uint32
	bytes        uint64
	digest       uint64 // entryDigest of its messages, added up
}

// entryDigest mixes a message's offset in its chunk's data and its time
// (splitmix64's finaliser); the sum over a connection's messages does not
// depend on their order.
func entryDigest(off uint32, t Time) uint64 {
	mix := func(z uint64) uint64 {
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	return mix(t.Key() ^ mix(uint64(off)+0x9e3779b97f4a7c15))
}

// walkOnWorkers has a quick doctor's workers make the vouch of each chunk
// they decompress, which the doctor takes as it takes a read's; tests turn
// it off for the doctor's own walk of every chunk to compare with.
var walkOnWorkers = true

// maxVouches bounds the chunks a bag keeps vouches for (under a kilobyte
// each with a dozen connections: at most about 12 MB, for a bag of 12 GB
// in the usual 768 KB chunks): past it, the doctor reads the other chunks
// itself.
const maxVouches = 1 << 14

// vouches holds a bag's chunk vouches, by chunk position.
type vouches struct {
	mu sync.Mutex
	m  map[int64]*chunkVouch
}

// VouchReads asks the bag to keep, from now on, a vouch for every chunk a
// message read decompresses whole, so that a quick Check of it afterwards
// (Store.Check under bag.WithQuickCheck) does not decompress those chunks
// again. It costs a walk of each chunk's records on the reading workers.
func (b *Bag) VouchReads() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.vouch == nil {
		b.vouch = &vouches{m: map[int64]*chunkVouch{}}
	}
}

// wantsVouch reports whether the bag keeps vouches and would keep one for
// chunk ch: it has none for it yet, has room, and the chunk is closed.
func (b *Bag) wantsVouch(ch *Chunk) bool {
	b.mu.Lock()
	v := b.vouch
	b.mu.Unlock()
	if v == nil || ch.Open {
		return false
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	_, have := v.m[ch.Offset]
	return !have && len(v.m) < maxVouches
}

// keepVouch keeps cv (nil: none) as the vouch of chunk ch.
func (b *Bag) keepVouch(ch *Chunk, cv *chunkVouch) {
	b.mu.Lock()
	v := b.vouch
	b.mu.Unlock()
	if v == nil || cv == nil {
		return
	}
	v.mu.Lock()
	if _, have := v.m[ch.Offset]; !have && len(v.m) < maxVouches {
		v.m[ch.Offset] = cv
	}
	v.mu.Unlock()
}

// taken returns the bag's vouches (nil when it keeps none); they are not
// changed once made.
func (b *Bag) taken() map[int64]*chunkVouch {
	b.mu.Lock()
	v := b.vouch
	b.mu.Unlock()
	if v == nil {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return maps.Clone(v.m)
}

// walkVouch walks a chunk's data as the doctor does (checker.chunks) and
// returns its vouch, or nil when the walk finds something the doctor
// reports of the chunk alone. Records whose headers are plain (each field
// with its '=', op once, a message's conn and time once each and of their
// sizes: scanHeaderPlain's plain) are framed as the doctor's walker frames them
// without parsing their headers into fields; a chunk with any other
// record is walked with the doctor's own walker.
func walkVouch(ch *Chunk, data []byte) *chunkVouch {
	if cv, ok := walkVouchFast(ch, data); ok {
		return cv
	}
	return walkVouchSlow(ch, data)
}

// vouchBuilder adds up a chunk's records into its vouch.
type vouchBuilder struct {
	cv      *chunkVouch
	slot    chunkConns[int] // of cv.conns, by connection
	defined map[uint32]bool
	// last is the slot of the connection of the message before, when
	// lastOK (messages of a connection often come in runs).
	last   int
	lastOK bool
}

func newVouchBuilder(ch *Chunk) *vouchBuilder {
	return &vouchBuilder{cv: &chunkVouch{offset: ch.Offset, dataLen: ch.DataLen, size: ch.Size, compression: ch.Compression},
		defined: map[uint32]bool{}}
}

// define notes a connection record that parses.
func (vb *vouchBuilder) define(id uint32) {
	if !vb.defined[id] {
		vb.defined[id] = true
		vb.cv.defined = append(vb.cv.defined, id)
	}
}

// message notes the message record at off; false when its time runs
// backwards on its connection (the doctor notes it: no vouch).
func (vb *vouchBuilder) message(off int, conn uint32, t Time, dataLen uint32) bool {
	cv := vb.cv
	i, ok := vb.last, vb.lastOK && cv.conns[vb.last].id == conn
	if !ok {
		i, ok = vb.slot.find(conn)
	}
	if !ok {
		i = len(cv.conns)
		vb.slot.keep(conn, i)
		cv.conns = append(cv.conns, vouchConn{id: conn, first: off, firstT: t, definedFirst: vb.defined[conn], last: t})
	}
	vb.last, vb.lastOK = i, true
	c := &cv.conns[i]
	if ok && t.Before(c.last) {
		return false
	}
	c.last = t
	c.n++
	c.bytes += uint64(dataLen)
	c.digest += entryDigest(uint32(off), t)
	if cv.sum.n == 0 || t.Before(cv.sum.start) {
		cv.sum.start = t
	}
	if cv.sum.n == 0 || cv.sum.end.Before(t) {
		cv.sum.end = t
	}
	cv.sum.n++
	return true
}

// done returns the vouch.
func (vb *vouchBuilder) done() *chunkVouch {
	cv := vb.cv
	for _, c := range cv.conns {
		cv.sum.counts = append(cv.sum.counts, connCount{c.id, c.n})
	}
	slices.SortFunc(cv.sum.counts, func(a, b connCount) int { return cmp.Compare(a.conn, b.conn) })
	return cv
}

// walkVouchFast is walkVouch over plain records; ok is false at the first
// record that is not plain, or that the doctor would note.
func walkVouchFast(ch *Chunk, data []byte) (cv *chunkVouch, ok bool) {
	vb := newVouchBuilder(ch)
	for off := 0; off < len(data); {
		dstart, end, ok := recordAt(data, off)
		if !ok {
			return nil, false
		}
		op, conn, t, _, _, _, plain := scanHeaderPlain(data[off+4 : dstart-4])
		if !plain || !vb.record(data, off, dstart, end, op, conn, t) {
			return nil, false
		}
		off = end
	}
	return vb.done(), true
}

// record adds the plain record data[off:end] (its data from dstart; op,
// conn and t from its header) to the vouch as walkVouchFast does; false
// when walkVouchFast would give up at it.
func (vb *vouchBuilder) record(data []byte, off, dstart, end int, op Op, conn uint32, t Time) bool {
	switch op {
	case OpMessageData:
		return vb.message(off, conn, t, uint32(end-dstart))
	case OpConnection:
		rec, _, err := parseRecordBytes(data, off, nil)
		if err != nil {
			return false
		}
		if c, err := ParseConnection(rec, data[rec.DataOffset:rec.End()]); err == nil {
			vb.define(c.ID)
		}
		return true
	}
	return false
}

// walkVouchSlow is walkVouch with the doctor's walker.
func walkVouchSlow(ch *Chunk, data []byte) *chunkVouch {
	vb := newVouchBuilder(ch)
	w := NewChunkWalker(data, ch.Offset)
	for w.Next() {
		r := w.Record()
		switch r.Op {
		case OpConnection:
			if conn, err := ParseConnection(*r, w.Data()); err == nil {
				vb.define(conn.ID)
			}
		case OpMessageData:
			m, err := parseMessageData(*r)
			if err != nil || !vb.message(int(r.Offset), m.Conn, m.Time, r.DataLen) {
				return nil
			}
		default:
			return nil
		}
	}
	if w.Err() != nil {
		return nil
	}
	return vb.done()
}

// fits reports whether the vouch is of chunk ch, and whether the index
// data records found after it (idx, each with the sum of its entries'
// entryDigest in digests) list exactly the chunk's messages: then the
// doctor's check of them finds nothing.
func (cv *chunkVouch) fits(ch *Chunk, idx []*IndexData, digests []uint64) bool {
	if ch.Offset != cv.offset || ch.DataLen != cv.dataLen || ch.Size != cv.size || ch.Compression != cv.compression || ch.Open {
		return false
	}
	if len(digests) != len(idx) {
		return false
	}
	seen := make(map[uint32]bool, len(cv.conns))
	for i, x := range idx {
		// A parsed record has Count entries (ParseIndexData).
		c := cv.conn(x.Conn)
		if c == nil || x.Count != c.n || digests[i] != c.digest {
			return false
		}
		seen[x.Conn] = true
	}
	return len(seen) == len(cv.conns)
}

// digest is the sum of the entries' entryDigest.
func (x *IndexData) digest() uint64 {
	var d uint64
	for _, e := range x.Entries {
		d += entryDigest(e.Offset, e.Time)
	}
	return d
}

// conn returns the vouch's messages of connection id, or nil.
func (cv *chunkVouch) conn(id uint32) *vouchConn {
	for i := range cv.conns {
		if cv.conns[i].id == id {
			return &cv.conns[i]
		}
	}
	return nil
}

// applyVouch goes on with the doctor's walk (checker.chunks) past chunk ch
// as its walk of the chunk's data would: what it vouches for (cv.fits)
// holds no finding of the chunk alone, so what is left are the findings
// that depend on the chunks before it (a message of a connection no record
// has defined yet; time running backwards from the chunk before), and the
// chunk's sums for the chunk infos' checks.
func (c *checker) applyVouch(ch *Chunk, cv *chunkVouch, conns *connStates) {
	p := ch.Offset
	for _, vc := range cv.conns {
		cs := conns.get(vc.id)
		if !cs.defined && !vc.definedFirst {
			c.add(Error, p, OpChunk, "message at offset %d of the chunk's data uses connection %d before any connection record defines it", vc.first, vc.id)
		}
		cs.defined = true
		if lt := cs.last; cs.hasLast && vc.firstT.Before(lt) {
			c.rep.Backwards = true
			c.add(Info, p, OpChunk, "time runs backwards on connection %d: a message at %s follows one at %s (offset %d of the chunk's data)", vc.id, vc.firstT, lt, vc.first)
		}
		cs.last, cs.hasLast = vc.last, true
		cs.bytes += vc.bytes
		cs.n += uint64(vc.n)
		cs.counted = true
	}
	for _, id := range cv.defined {
		conns.get(id).defined = true
	}
	c.sums[p] = cv.sum
	c.rep.Messages += uint64(cv.sum.n)
}
