package mcap

import (
	"encoding/binary"
	"hash/crc32"
	"maps"
	"sync"

	"github.com/bagscope/bagscope/bag"
)

// A read of an MCAP file decompresses its chunks; the doctor that commands
// run after it (bag.AddDoctorFindings) used to read and decompress every
// chunk again. A reader asked to (VouchReads) keeps, for each chunk a read
// decompressed whole, what the doctor's check of the chunk record would
// have found: a chunkVouch. The read vouches only for a chunk in which the
// doctor's walk finds nothing of the chunk alone: the record read whole
// (not cut), its records decompressed and matching their CRC, every record
// a message record walked to the end, log times in order and within the
// chunk's message_start_time..message_end_time, which they span exactly.
// The vouch keeps the CRC of the whole record as read (for the data
// section's CRC), the chunk's header, and each channel's count, payload
// bytes and an order-free digest of its messages' offsets and log times.
//
// The doctor then takes a chunk's vouch instead of its data. What depends
// on what came before the chunk (its channels defined by then) is checked
// from the vouch; where it would say anything, the chunk is read after all.
// Each message index record after the chunk is checked against its
// channel's count and digest; one that does not list exactly the channel's
// messages has the chunk read, and checked record by record as before. So
// a vouch can only spare work, never change what the doctor says. Checks
// with a message visitor (the decoding pass) read every chunk themselves.

// chunkVouch is what a read found of one chunk record.
type chunkVouch struct {
	// The chunk record: its offset, declared content length, and the
	// CRC-32 of the whole record (header included).
	off int64
	n   uint64
	crc uint32
	hdr chunkHeader
	// chans are the channels the chunk has messages of, in the order of
	// their first message.
	chans []vouchChan
	count uint64
	// size is the length of the decompressed records.
	size int
}

// vouchChan is one channel's messages in a vouched chunk.
type vouchChan struct {
	id     uint16
	n      uint64
	bytes  uint64 // payload bytes
	digest uint64 // entryDigest of its messages, added up
}

// entryDigest mixes a message record's offset in its chunk's records and
// its log time (splitmix64's finaliser); the sum over a channel's messages
// does not depend on their order.
func entryDigest(off, t uint64) uint64 {
	mix := func(z uint64) uint64 {
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		return z ^ z>>31
	}
	return mix(t ^ mix(off+0x9e3779b97f4a7c15))
}

// maxVouches bounds the chunks a reader keeps vouches for (about a hundred
// bytes each with a few channels: at most a few MB, for a file of 16 GB in
// 1 MiB chunks): past it, the doctor reads the other chunks itself.
const maxVouches = 1 << 14

// vouches holds a reader's chunk vouches, by chunk record offset.
type vouches struct {
	mu sync.Mutex
	m  map[int64]*chunkVouch
}

// VouchReads asks the reader to keep, from now on, a vouch for every chunk
// a message read decompresses whole, so that a Check after them without a
// message visitor (the quick doctor of bag.AddDoctorFindings) does not
// read and decompress those chunks again (bag.ReadVoucher). It costs the
// CRC of each chunk record and a little arithmetic per message on the
// reading workers.
func (x *Reader) VouchReads() {
	x.vouchMu.Lock()
	defer x.vouchMu.Unlock()
	if x.vouch == nil {
		x.vouch = &vouches{m: map[int64]*chunkVouch{}}
	}
}

// vouching returns the reader's vouches when it keeps them and has room
// for more, else nil.
func (x *Reader) vouching(off int64) *vouches {
	x.vouchMu.Lock()
	v := x.vouch
	x.vouchMu.Unlock()
	if v == nil {
		return nil
	}
	v.mu.Lock()
	_, have := v.m[off]
	full := len(v.m) >= maxVouches
	v.mu.Unlock()
	if have || full {
		return nil
	}
	return v
}

// taken returns the reader's vouches (nil when it keeps none); they are
// not changed once made.
func (x *Reader) taken() map[int64]*chunkVouch {
	x.vouchMu.Lock()
	v := x.vouch
	x.vouchMu.Unlock()
	if v == nil {
		return nil
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	return maps.Clone(v.m)
}

// vouchBuilder adds up a chunk's records, as a read walks them, into its
// vouch.
type vouchBuilder struct {
	cv *chunkVouch
	// slot is the index in cv.chans of each channel (+1; 0: none yet).
	slot []int
	// ok until a record shows something the doctor would note.
	ok         bool
	prev       uint64 // the log time of the message before
	start, end uint64 // the messages' log times span
}

// newVouchBuilder starts the vouch of the chunk c loaded as l, or returns
// nil when the reader keeps no vouches or the load already shows the chunk
// is not one to vouch for.
func (x *Reader) newVouchBuilder(c *chunk, l *chunkLoad) *vouchBuilder {
	if l.err != nil || l.cut || l.data == nil || c.Length != recHeaderLen+int64(c.DeclaredLen) || uint64(len(l.data)) > 1<<32-1 {
		return nil
	}
	if x.vouching(c.Offset) == nil {
		return nil
	}
	return startVouch(c.Offset, c.DeclaredLen, l)
}

// startVouch starts the vouch of the chunk record at off, of n bytes of
// content, loaded whole as l.
func startVouch(off int64, n uint64, l *chunkLoad) *vouchBuilder {
	return &vouchBuilder{cv: &chunkVouch{off: off, n: n, hdr: l.hdr, size: len(l.data)}, ok: true}
}

// record notes the record at off of the chunk's records.
func (vb *vouchBuilder) record(op Op, off int, content []byte) {
	if !vb.ok {
		return
	}
	if op != OpMessage {
		vb.ok = false
		return
	}
	ch := binary.LittleEndian.Uint16(content)
	t := binary.LittleEndian.Uint64(content[6:])
	cv := vb.cv
	if cv.count > 0 && t < vb.prev || t < cv.hdr.Start || t > cv.hdr.End {
		vb.ok = false
		return
	}
	if cv.count == 0 {
		vb.start = t
	}
	vb.prev, vb.end = t, t
	cv.count++
	if int(ch) >= len(vb.slot) {
		vb.slot = append(vb.slot, make([]int, int(ch)+1-len(vb.slot))...)
	}
	i := vb.slot[ch] - 1
	if i < 0 {
		i = len(cv.chans)
		cv.chans = append(cv.chans, vouchChan{id: ch})
		vb.slot[ch] = i + 1
	}
	vc := &cv.chans[i]
	vc.n++
	vc.bytes += uint64(len(content) - messageHeaderLen)
	vc.digest += entryDigest(uint64(off), t)
}

// done returns the vouch, or nil when the records showed something the
// doctor notes of the chunk alone.
func (vb *vouchBuilder) done() *chunkVouch {
	cv := vb.cv
	if !vb.ok || cv.count > 0 && (vb.start != cv.hdr.Start || vb.end != cv.hdr.End) {
		return nil
	}
	return cv
}

// keepVouch keeps the vouch once the chunk's records were walked whole (werr
// nil), raw being the whole chunk record as read.
func (x *Reader) keepVouch(vb *vouchBuilder, raw []byte, werr error) {
	if vb == nil || werr != nil {
		return
	}
	cv := vb.done()
	if cv == nil {
		return
	}
	v := x.vouching(cv.off)
	if v == nil {
		return
	}
	cv.crc = crc32.ChecksumIEEE(raw)
	v.mu.Lock()
	if len(v.m) < maxVouches {
		v.m[cv.off] = cv
	}
	v.mu.Unlock()
}

// fits reports whether the vouch is of the chunk record t.
func (cv *chunkVouch) fits(t *topRec) bool {
	return !t.Magic && !t.Damaged && t.Op == OpChunk && t.Offset == cv.off && t.N == cv.n && t.End == t.Offset+recHeaderLen+int64(cv.n)
}

// channel returns the vouch's messages of channel id, or nil.
func (cv *chunkVouch) channel(id uint16) *vouchChan {
	for i := range cv.chans {
		if cv.chans[i].id == id {
			return &cv.chans[i]
		}
	}
	return nil
}

// vouchedChunk checks the chunk record t from its vouch, as chunk would
// from its data; false when the doctor would note something of it that
// depends on the records before it (a message on a channel not defined
// yet): the chunk must then be read.
func (d *doctor) vouchedChunk(t *topRec, cv *chunkVouch) bool {
	for _, vc := range cv.chans {
		if int(vc.id) >= len(d.chanDef) || !d.chanDef[vc.id] {
			return false
		}
	}
	d.chunkCount++
	c := &seenChunk{off: t.Offset, length: t.End - t.Offset, hdr: cv.hdr, csize: cv.hdr.RecordsLen, readable: true,
		msgIdx: map[uint16]int64{}, channels: map[uint16]bool{}, vouch: cv, start: cv.hdr.Start, end: cv.hdr.End, count: cv.count}
	d.chunks[c.off] = c
	d.order = append(d.order, c)
	d.last = c
	for _, vc := range cv.chans {
		ch := vc.id
		d.seeMessages(ch, vc.n, vc.bytes)
		c.channels[ch] = true
		d.chunkBy[ch] = d.chunkCount
	}
	if cv.count > 0 {
		d.minT = min(d.minT, cv.hdr.Start)
		d.maxT = max(d.maxT, cv.hdr.End)
	}
	return true
}

// seeMessages is seeMessage for n messages of channel ch, of size payload
// bytes in all, their log times accounted for by the caller.
func (d *doctor) seeMessages(ch uint16, n, size uint64) {
	d.msgCount += n
	if int(ch) >= len(d.countBy) {
		k := int(ch) + 1
		d.countBy = append(d.countBy, make([]uint64, k-len(d.countBy))...)
		d.bytesBy = append(d.bytesBy, make([]uint64, k-len(d.bytesBy))...)
		d.chunkBy = append(d.chunkBy, make([]int, k-len(d.chunkBy))...)
	}
	d.countBy[ch] += n
	d.bytesBy[ch] += size
}

// vouchedIndex reports whether the entries arr of a message index record
// for channel ch list exactly the vouched chunk c's messages of ch, each
// with its log time: then the doctor's check of them finds nothing.
func (c *seenChunk) vouchedIndex(ch uint16, arr []byte) bool {
	vc := c.vouch.channel(ch)
	if vc == nil {
		return len(arr) == 0
	}
	if uint64(len(arr)/16) != vc.n {
		return false
	}
	var sum uint64
	for i := 0; i+16 <= len(arr); i += 16 {
		sum += entryDigest(binary.LittleEndian.Uint64(arr[i+8:]), binary.LittleEndian.Uint64(arr[i:]))
	}
	return sum == vc.digest
}

// unvouch reads and decompresses the vouched chunk c after all (a message
// index record that does not fit its vouch), so that its messages are
// listed for the checks of its index records, as a chunk read by the
// pipe's workers has them.
func (d *doctor) unvouch(c *seenChunk) {
	j := d.loadNow(c.vouch)
	c.vouch = nil
	if j.err != nil || j.load.err != nil || !j.plain {
		// The file changed under the doctor: what it read is what it
		// says (the chunk unreadable, its index unchecked).
		c.readable = false
		return
	}
	if j.listed {
		c.msgs = append(d.msgBuf[:0], j.msgs...)
	} else {
		c.msgs = listMessages(j.load.data, d.msgBuf[:0])
	}
	d.msgBuf = nil
}

// loadNow reads and decompresses the vouched chunk cv on the doctor's
// goroutine, as the pipe's workers do (the few chunks whose vouch does not
// say what the doctor says).
func (d *doctor) loadNow(cv *chunkVouch) *checkJob {
	j := &checkJob{off: cv.off, n: cv.n, done: make(chan struct{})}
	if cv.hdr.Compression != "" {
		j.usize = int64(cv.size)
	}
	p := &checkPipe{x: d.x, raws: make(chan []byte, 1), dsts: make(chan []byte, 1), msgBufs: make(chan []msgAt, 1)}
	dec := getDecoders()
	defer putDecoders(dec)
	var m bag.Message
	p.work(j, dec, &m)
	return j
}
