package mcap

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"slices"
	"sort"

	"github.com/bagscope/bagscope/bag"
)

// doctor holds what the check has seen so far.
type doctor struct {
	x   *Reader
	rep *bag.CheckReport

	schemas    map[uint16]*schema  // data section
	chans      map[uint16]*channel // data section
	chanDef    []bool              // chanDef[id]: chans holds id
	sumSchemas map[uint16]bool
	sumChans   map[uint16]bool
	// Schemas and channels found only in the summary section.
	sumOnlySchemas map[uint16]*schema
	sumOnlyChans   map[uint16]*channel

	first       bool
	inSummary   bool
	dataEnd     int64 // offset of the data end record, -1 if none
	dataEndCRC  uint32
	footer      *footer
	footerOff   int64
	endMagic    bool
	summaryRecs []topRec // records after the data end, before the footer
	summaryOffs []summaryOffset
	stats       []*statistics
	chunkIdx    []*chunkIndex
	attIdx      []attachmentIndex
	metaIdx     []metadataIndex

	chunks   map[int64]*seenChunk
	order    []*seenChunk
	last     *seenChunk // the chunk whose message index records may follow
	atts     map[int64]attachment
	metas    map[int64]string
	looseOut bool // messages outside chunks met

	msgCount   uint64
	chanCounts map[uint16]uint64
	minT, maxT uint64
	lastLoose  uint64
	chunkCount int

	// visit is the check's message visitor (bag.WithMessageVisitor), or
	// nil; notVisited is set when a message could not be handed to it.
	visit      func(m *bag.Message)
	notVisited bool
	// wanted, when not nil, says by channel ID which channels' messages
	// the visitor wants (bag.WithVisitedConns).
	wanted []bool

	// Per channel ID, counted as the chunks are walked (a map update per
	// message cost more than the rest of the walk): messages, payload
	// bytes, and the number of the last chunk that held the channel.
	countBy, bytesBy []uint64
	chunkBy          []int
	// The data section's CRC from the records' CRCs, as they come in
	// file order: secCRC covers [0, secEnd); secOK until a record's bytes
	// were not all read, or the records do not follow each other; secDone
	// once the data end record is met.
	secCRC         uint32
	secEnd         int64
	secOK, secDone bool
	// Buffers of the chunk being walked, reused.
	msgBuf  []msgAt
	seenBuf []uint32
	idxNo   uint32 // message index records met
}

// seenChunk is a chunk record as the check found it.
type seenChunk struct {
	off, length int64
	hdr         chunkHeader
	csize       uint64
	readable    bool
	msgs        []msgAt          // by record offset in the chunk
	seen        []uint32         // per message: the last message index record that listed it
	cursor      int              // where the next message index entry is looked for first
	msgIdx      map[uint16]int64 // message index record offsets, by channel
	msgIdxEnd   int64
	channels    map[uint16]bool
	count       uint64
	start, end  uint64
	// vouch is what a read found of the chunk, when the doctor took it
	// instead of the chunk's data (msgs then stays empty until a message
	// index record does not fit it: doctor.unvouch).
	vouch *chunkVouch
}

type msgAt struct {
	off  uint32
	ch   uint16
	time uint64
}

func (d *doctor) add(sev bag.Severity, off int64, op Op, format string, args ...any) {
	f := bag.Finding{Severity: sev, Offset: off, Op: uint8(op), Message: fmt.Sprintf(format, args...)}
	if op != 0 {
		f.Record = op.String()
	}
	d.rep.Findings = append(d.rep.Findings, f)
}

// DoctorVisits says that Check hands the messages to the visitor of its
// context (bag.WithMessageVisitor).
func (x *Reader) DoctorVisits() bool { return true }

// Check is the doctor: it walks every record of the file, decompresses
// every chunk and cross-checks the file's parts (the checks `mcap doctor`
// makes, and more). Each finding names the offset of the record concerned.
// progress, if not nil, gets the bytes walked of the file's size.
func (x *Reader) Check(ctx context.Context, progress func(done, total int64)) (*bag.CheckReport, error) {
	d := &doctor{x: x, rep: &bag.CheckReport{Indexed: x.info.Indexed, Bytes: map[uint32]uint64{}, Counts: map[uint32]uint64{}},
		schemas: map[uint16]*schema{}, chans: map[uint16]*channel{}, sumSchemas: map[uint16]bool{}, sumChans: map[uint16]bool{},
		sumOnlySchemas: map[uint16]*schema{}, sumOnlyChans: map[uint16]*channel{},
		first: true, dataEnd: -1, secOK: true, footerOff: -1, chunks: map[int64]*seenChunk{}, atts: map[int64]attachment{}, metas: map[int64]string{},
		chanCounts: map[uint16]uint64{}, minT: ^uint64(0)}
	visit := bag.MessageVisitorOf(ctx)
	d.visit = visit
	// Chunks a read vouched for (VouchReads) are taken from their vouch,
	// unless the check hands the messages to a visitor.
	var vouched map[int64]*chunkVouch
	if visit == nil && !x.fullCheck {
		vouched = x.taken()
	}
	pipe := newCheckPipe(x, visit)
	if ids := bag.VisitedConnsOf(ctx); visit != nil && ids != nil {
		// The visitor wants these connections only.
		want := map[uint32]bool{}
		for _, id := range ids {
			want[id] = true
		}
		pipe.wanted = make([]bool, len(x.connTab))
		for ch, c := range x.connTab {
			pipe.wanted[ch] = c != nil && want[c.ID]
		}
		d.wanted = pipe.wanted
	}
	// The walk reads the records in file order on its own goroutine and
	// queues each with its bytes (a chunk as a job for the pipe's
	// workers); the doctor takes them in the same order here.
	wctx, cancel := context.WithCancel(ctx)
	defer cancel()
	items := make(chan checkItem, 256)
	// Message index records (a few per chunk, 16 bytes a message) are
	// copied into buffers the doctor hands back once it has checked
	// them: it keeps nothing of them.
	idxBufs := make(chan []byte, 64)
	var werr error
	go func() {
		defer close(items)
		defer pipe.close()
		// The walk reads 64 KiB at a time, so that a chunk's bytes are
		// read once, by the worker that decompresses it; it copies what
		// it hands on (a buffer of idxBufs, bytes.Clone).
		werr = x.walkTopSpan(wctx, 0, 64<<10, true, func(t *topRec, w *window) bool {
			it := checkItem{t: *t}
			switch {
			case t.Magic || t.Damaged:
			case t.Op == OpChunk:
				if t.N > MaxRecordSize {
					break
				}
				if cv := vouched[t.Offset]; cv != nil && cv.fits(t) {
					it.vouch = cv
					break
				}
				// The decompressed size it declares, after the
				// start and end times, and whether it is
				// compressed: the pipe's budget.
				var usize uint64
				compressed := true
				if t.N >= 32 {
					if b, err := w.get(t.Offset+recHeaderLen+16, 16); err == nil {
						usize = binary.LittleEndian.Uint64(b)
						compressed = binary.LittleEndian.Uint32(b[12:]) > 0
					}
				}
				it.job = pipe.submit(t.Offset, t.N, usize, compressed)
			case t.Op == OpAttachment && t.N > 64<<20:
			case t.Op == OpMessage && t.N > 64<<20:
				content, err := w.get(t.Offset+recHeaderLen, messageHeaderLen)
				if err != nil {
					it.skip = true
					break
				}
				it.content = bytes.Clone(content)
			case t.N > MaxRecordSize:
			default:
				rec, err := w.get(t.Offset, recHeaderLen+int64(t.N))
				if err != nil {
					it.err = err
					break
				}
				if t.Op == OpMessageIndex {
					var b []byte
					select {
					case b = <-idxBufs:
					default:
					}
					it.content = append(b[:0], rec[recHeaderLen:]...)
				} else {
					it.content = bytes.Clone(rec[recHeaderLen:])
				}
				it.crc, it.hasCRC = crc32.ChecksumIEEE(rec), true
			}
			select {
			case items <- it:
				return true
			case <-wctx.Done():
				if it.job != nil {
					it.job.wait()
					pipe.release(it.job)
				}
				return false
			}
		})
	}()
	var lastProgress int64
	stopped := false
	for it := range items {
		if stopped {
			if it.job != nil {
				pipe.release(it.job.wait())
			}
			continue
		}
		if !d.item(ctx, &it, pipe, progress, &lastProgress) {
			stopped = true
			cancel()
		}
		if it.t.Op == OpMessageIndex && cap(it.content) > 0 && cap(it.content) <= 1<<20 {
			select {
			case idxBufs <- it.content[:0]:
			default:
			}
		}
	}
	d.closeChunk()
	if werr != nil && !stopped {
		d.flushCounts()
		return d.rep, werr
	}
	d.rep.Visited = visit != nil && !d.notVisited
	d.finish(ctx)
	if progress != nil {
		progress(x.size, x.size)
	}
	sort.SliceStable(d.rep.Findings, func(i, j int) bool { return d.rep.Findings[i].Offset < d.rep.Findings[j].Offset })
	return d.rep, ctx.Err()
}

// checkItem is one top-level record as the walk read it.
type checkItem struct {
	t       topRec
	content []byte      // the record's content (a copy), when read
	job     *checkJob   // a chunk being loaded
	vouch   *chunkVouch // a chunk taken from a read's vouch, not loaded
	err     error       // reading it failed
	skip    bool        // nothing to check (its bytes could not be read)
	// crc is the CRC-32 of the whole record, when hasCRC (a chunk's
	// comes with its job).
	crc    uint32
	hasCRC bool
}

// item checks one record; false stops the check (ctx was cancelled).
func (d *doctor) item(ctx context.Context, it *checkItem, pipe *checkPipe, progress func(done, total int64), lastProgress *int64) bool {
	t, x := &it.t, d.x
	d.sumCRC(it)
	if progress != nil && (t.Offset-*lastProgress > 1<<20 || t.Op == OpChunk) {
		progress(t.Offset, x.size)
		*lastProgress = t.Offset
	}
	if t.Op != OpMessageIndex || t.Damaged {
		d.closeChunk()
	}
	switch {
	case t.Magic:
		if t.Offset > 0 {
			d.endMagic = true
		}
		return true
	case t.Damaged:
		d.add(bag.Error, t.Offset, t.Op, "%d bytes (%d..%d) are not a readable record: %v", t.End-t.Offset, t.Offset, t.End, t.Err)
		return true
	}
	if d.first {
		d.first = false
		if t.Op != OpHeader {
			d.add(bag.Error, t.Offset, t.Op, "the first record is a %s record, not a header", t.Op)
		}
	}
	if d.footer != nil {
		d.add(bag.Error, t.Offset, t.Op, "%s record after the footer", t.Op)
	}
	release := func() {
		if it.job != nil {
			pipe.release(it.job.wait())
		}
	}
	if d.inSummary && t.Op != OpFooter {
		d.summaryRecs = append(d.summaryRecs, *t)
		switch t.Op {
		case OpMessage, OpChunk, OpMessageIndex, OpAttachment, OpMetadata, OpDataEnd, OpHeader:
			d.add(bag.Error, t.Offset, t.Op, "%s record after the data end record (in the summary section)", t.Op)
			release()
			return true
		}
	}
	if t.Op == OpChunk {
		if t.N > MaxRecordSize {
			d.add(bag.Error, t.Offset, t.Op, "chunk record of %d bytes is over the %d limit: not checked", t.N, MaxRecordSize)
			return true
		}
		if it.err != nil {
			d.add(bag.Error, t.Offset, t.Op, "%v", it.err)
			return true
		}
		if it.vouch != nil {
			if d.vouchedChunk(t, it.vouch) {
				return ctx.Err() == nil
			}
			// What the vouch holds would not say what the doctor
			// says of the chunk: it is read here.
			j := d.loadNow(it.vouch)
			if j.err != nil {
				d.add(bag.Error, t.Offset, t.Op, "%v", j.err)
				return true
			}
			d.chunk(t, j)
			return ctx.Err() == nil
		}
		j := it.job.wait()
		defer pipe.release(j)
		if j.err != nil {
			d.add(bag.Error, t.Offset, t.Op, "%v", j.err)
			return true
		}
		// A chunk whose worker found nothing of the chunk alone to note
		// is checked from what it found (its messages were handed to
		// the visitor already).
		if cv := j.vouch; cv != nil && cv.fits(t) && d.vouchedChunk(t, cv) {
			return ctx.Err() == nil
		}
		d.chunk(t, j)
		return ctx.Err() == nil
	}
	if t.Op == OpAttachment && t.N > 64<<20 {
		d.add(bag.Info, t.Offset, t.Op, "attachment of %d bytes: its CRC is not checked", t.N)
		return true
	}
	if t.Op == OpMessage && t.N > 64<<20 {
		if !it.skip {
			d.message(t.Offset, it.content, t.N)
		}
		// Its payload is not read here: the caller's own pass must.
		d.notVisited = true
		return true
	}
	if t.N > MaxRecordSize {
		d.add(bag.Error, t.Offset, t.Op, "record of %d bytes is over the %d limit: not checked", t.N, MaxRecordSize)
		return true
	}
	if it.err != nil {
		d.add(bag.Error, t.Offset, t.Op, "%v", it.err)
		return true
	}
	d.record(t, it.content)
	return true
}

func (d *doctor) record(t *topRec, content []byte) {
	dc := newDec(content)
	off, op := t.Offset, t.Op
	bad := func() {
		if dc.err != nil {
			d.add(bag.Error, off, op, "%s record does not parse: %v", op, dc.err)
		}
	}
	switch op {
	case OpHeader:
		h := parseHeader(dc)
		bad()
		if off != magicLen {
			d.add(bag.Error, off, op, "a header record that is not the first record")
		}
		if dc.err == nil && h.Library == "" {
			d.add(bag.Info, off, op, "the header's library is empty: it should name the software that wrote the file")
		}
		if dc.err == nil && h.Profile != "" && h.Profile != "ros1" && h.Profile != "ros2" {
			d.add(bag.Warning, off, op, "profile %q is not a well-known profile", h.Profile)
		}
	case OpFooter:
		f := parseFooter(dc)
		bad()
		if dc.err == nil {
			d.footer, d.footerOff = &f, off
		}
		if off != d.x.size-tailLen {
			d.add(bag.Error, off, op, "footer at %d, not at the end of the file (%d)", off, d.x.size-tailLen)
		}
	case OpSchema:
		s := parseSchema(dc)
		bad()
		if dc.err == nil {
			s.Offset = off
			d.schema(&s)
		}
	case OpChannel:
		c := parseChannel(dc)
		bad()
		if dc.err == nil {
			c.Offset = off
			d.channel(&c)
		}
	case OpMessage:
		if len(content) < messageHeaderLen {
			d.add(bag.Error, off, op, "message record of %d bytes is shorter than its fixed fields", len(content))
			return
		}
		d.message(off, content, t.N)
		d.visitLoose(off, content)
	case OpMessageIndex:
		ch := dc.u16("channel_id")
		dc.prefixed("records")
		bad()
		if d.last == nil {
			d.add(bag.Error, off, op, "message index record with no chunk before it")
			return
		}
		if _, dup := d.last.msgIdx[ch]; dup {
			d.add(bag.Warning, off, op, "a second message index record for channel %d after the chunk at %d", ch, d.last.off)
		}
		d.last.msgIdx[ch] = off
		d.last.msgIdxEnd = t.End
		if dc.err == nil {
			d.messageIndex(d.last, off, ch, content)
		}
	case OpChunkIndex:
		c := parseChunkIndex(dc)
		bad()
		if dc.err == nil {
			c.RecordOffset = off
			d.chunkIdx = append(d.chunkIdx, &c)
		}
	case OpAttachment:
		a := parseAttachment(dc)
		bad()
		if dc.err == nil {
			if a.CRC != 0 {
				if c := crc32.ChecksumIEEE(content[:a.CRCEnd]); c != a.CRC {
					d.add(bag.Error, off, op, "attachment %q has CRC %08x, its crc field says %08x", a.Name, c, a.CRC)
				}
			}
			a.Data = nil
			d.atts[off] = a
		}
	case OpAttachmentIndex:
		a := parseAttachmentIndex(dc)
		bad()
		if dc.err == nil {
			d.attIdx = append(d.attIdx, a)
		}
	case OpStatistics:
		s := parseStatistics(dc)
		bad()
		if dc.err == nil {
			s.Offset = off
			d.stats = append(d.stats, &s)
		}
	case OpMetadata:
		m := parseMetadata(dc)
		bad()
		if dc.err == nil {
			d.metas[off] = m.Name
		}
	case OpMetadataIndex:
		m := parseMetadataIndex(dc)
		bad()
		if dc.err == nil {
			d.metaIdx = append(d.metaIdx, m)
		}
	case OpSummaryOffset:
		s := parseSummaryOffset(dc)
		bad()
		if dc.err == nil {
			d.summaryOffs = append(d.summaryOffs, s)
		}
	case OpDataEnd:
		c := dc.u32("data_section_crc")
		bad()
		if d.dataEnd >= 0 {
			d.add(bag.Error, off, op, "a second data end record")
		}
		d.dataEnd, d.dataEndCRC, d.inSummary = off, c, true
	default:
		if op >= 0x80 {
			d.add(bag.Info, off, 0, "private record op 0x%02x (%d bytes), skipped", uint8(op), t.N)
		} else {
			d.add(bag.Info, off, 0, "unknown record op 0x%02x (%d bytes), skipped", uint8(op), t.N)
		}
	}
}

func (d *doctor) schema(s *schema) {
	if s.Encoding == "" {
		if len(s.Data) == 0 {
			d.add(bag.Warning, s.Offset, OpSchema, "schema %d (%q) has an empty encoding and no data", s.ID, s.Name)
		} else {
			d.add(bag.Error, s.Offset, OpSchema, "schema %d (%q) has an empty encoding but %d bytes of data", s.ID, s.Name, len(s.Data))
		}
	}
	if s.ID == 0 {
		d.add(bag.Error, s.Offset, OpSchema, "schema id 0 is reserved (it means no schema)")
		return
	}
	prev := d.schemas[s.ID]
	if prev != nil && (prev.Name != s.Name || prev.Encoding != s.Encoding || !bytes.Equal(prev.Data, s.Data)) {
		d.add(bag.Error, s.Offset, OpSchema, "schema %d differs from the schema %d at %d (name %q/%q, encoding %q/%q, %d/%d bytes)",
			s.ID, s.ID, prev.Offset, s.Name, prev.Name, s.Encoding, prev.Encoding, len(s.Data), len(prev.Data))
	}
	if d.inSummary {
		if prev == nil && d.sumOnlySchemas[s.ID] == nil {
			d.add(bag.Info, s.Offset, OpSchema, "schema %d (%s) is only in the summary section", s.ID, s.Name)
			c := *s
			d.sumOnlySchemas[s.ID] = &c
		}
		d.sumSchemas[s.ID] = true
		return
	}
	if prev != nil {
		d.add(bag.Info, s.Offset, OpSchema, "schema %d is written again in the data section", s.ID)
		return
	}
	c := *s
	c.Data = bytes.Clone(s.Data)
	d.schemas[s.ID] = &c
}

func (d *doctor) channel(c *channel) {
	prev := d.chans[c.ID]
	if prev != nil && (prev.SchemaID != c.SchemaID || prev.Topic != c.Topic || prev.Encoding != c.Encoding || !maps.Equal(prev.Metadata, c.Metadata)) {
		d.add(bag.Error, c.Offset, OpChannel, "channel %d differs from the channel %d at %d (topic %q/%q, schema %d/%d, encoding %q/%q)",
			c.ID, c.ID, prev.Offset, c.Topic, prev.Topic, c.SchemaID, prev.SchemaID, c.Encoding, prev.Encoding)
	}
	if c.SchemaID != 0 && d.schemas[c.SchemaID] == nil && (!d.inSummary || d.sumOnlySchemas[c.SchemaID] == nil) {
		d.add(bag.Error, c.Offset, OpChannel, "channel %d (%s) names schema %d, which no schema record before it defines", c.ID, c.Topic, c.SchemaID)
	}
	if d.inSummary {
		if prev == nil && d.sumOnlyChans[c.ID] == nil {
			d.add(bag.Info, c.Offset, OpChannel, "channel %d (%s) is only in the summary section (no message in the data section uses it)", c.ID, c.Topic)
			d.sumOnlyChans[c.ID] = c
		}
		d.sumChans[c.ID] = true
		return
	}
	if prev != nil {
		d.add(bag.Info, c.Offset, OpChannel, "channel %d is written again in the data section", c.ID)
		return
	}
	d.chans[c.ID] = c
	if int(c.ID) >= len(d.chanDef) {
		d.chanDef = append(d.chanDef, make([]bool, int(c.ID)+1-len(d.chanDef))...)
	}
	d.chanDef[c.ID] = true
}

// message checks a message record outside chunks.
func (d *doctor) message(off int64, content []byte, n uint64) {
	ch := binary.LittleEndian.Uint16(content)
	t := binary.LittleEndian.Uint64(content[6:])
	d.looseOut = true
	c := d.chans[ch]
	if c == nil {
		d.add(bag.Error, off, OpMessage, "message on channel %d, which no channel record before it defines", ch)
	}
	if t < d.lastLoose {
		d.add(bag.Warning, off, OpMessage, "message log_time %d is earlier than the previous message record's %d", t, d.lastLoose)
	}
	d.lastLoose = t
	d.seeMessage(ch, t, n-messageHeaderLen)
}

// sumCRC adds a record to the data section's CRC (see doctor.secCRC).
func (d *doctor) sumCRC(it *checkItem) {
	t := &it.t
	if d.secDone || !d.secOK {
		return
	}
	if t.Op == OpDataEnd && !t.Magic && !t.Damaged {
		d.secDone = t.Offset == d.secEnd
		return
	}
	var c uint32
	switch {
	case t.Magic && t.Offset == 0:
		c = crc32.ChecksumIEEE([]byte(Magic))
	case it.hasCRC:
		c = it.crc
	case it.vouch != nil:
		c = it.vouch.crc
	case it.job != nil:
		j := it.job.wait()
		if j.err != nil {
			d.secOK = false
			return
		}
		c = j.crc
	default:
		d.secOK = false
		return
	}
	if t.Offset != d.secEnd {
		d.secOK = false
		return
	}
	d.secCRC = crc32Combine(d.secCRC, c, t.End-t.Offset)
	d.secEnd = t.End
}

// visitLoose hands a message record outside chunks to the visitor.
func (d *doctor) visitLoose(off int64, content []byte) {
	if d.visit == nil {
		return
	}
	x := d.x
	ch := binary.LittleEndian.Uint16(content)
	if int(ch) >= len(x.connTab) || x.connTab[ch] == nil || d.wanted != nil && !d.wanted[ch] {
		return
	}
	d.visit(&bag.Message{Conn: x.connTab[ch], Time: bag.TimeFromUnixNanos(binary.LittleEndian.Uint64(content[6:])),
		PublishTime: bag.TimeFromUnixNanos(binary.LittleEndian.Uint64(content[14:])),
		Data:        content[messageHeaderLen:len(content):len(content)], Loc: bag.Loc{Block: off}, DataOffset: off + recHeaderLen + messageHeaderLen})
}

func (d *doctor) seeMessage(ch uint16, t uint64, size uint64) {
	d.msgCount++
	if int(ch) >= len(d.countBy) {
		n := int(ch) + 1
		d.countBy = append(d.countBy, make([]uint64, n-len(d.countBy))...)
		d.bytesBy = append(d.bytesBy, make([]uint64, n-len(d.bytesBy))...)
		d.chunkBy = append(d.chunkBy, make([]int, n-len(d.chunkBy))...)
	}
	d.countBy[ch]++
	d.bytesBy[ch] += size
	d.minT = min(d.minT, t)
	d.maxT = max(d.maxT, t)
}

// chunk checks a chunk and the records inside it.
func (d *doctor) chunk(t *topRec, j *checkJob) {
	l := j.load
	d.chunkCount++
	c := &seenChunk{off: t.Offset, length: t.End - t.Offset, hdr: l.hdr, msgs: d.msgBuf[:0], msgIdx: map[uint16]int64{}, channels: map[uint16]bool{}}
	c.csize = l.hdr.RecordsLen
	d.chunks[c.off] = c
	d.order = append(d.order, c)
	d.last = c
	if l.err != nil {
		d.add(bag.Error, t.Offset, OpChunk, "%s", errMessage(l.err))
		if l.hdr.RecordsAt == 0 {
			return
		}
	}
	c.readable = l.err == nil
	var first = true
	var prev uint64
	// message checks one message record (the same whether the records
	// are walked here or were listed by the pipe's worker).
	message := func(off int, ch uint16, ts uint64, n int) {
		if int(ch) >= len(d.chanDef) || !d.chanDef[ch] { // d.chans[ch] == nil, without a map look-up
			d.add(bag.Error, t.Offset, OpChunk, "message at %d in the chunk is on channel %d, which no channel record before it defines", off, ch)
		}
		if !first && ts < prev {
			d.add(bag.Info, t.Offset, OpChunk, "message at %d in the chunk has log_time %d, earlier than the message before it (%d)", off, ts, prev)
		}
		if ts < l.hdr.Start || ts > l.hdr.End {
			d.add(bag.Error, t.Offset, OpChunk, "message at %d in the chunk has log_time %d, outside the chunk's [%d, %d]", off, ts, l.hdr.Start, l.hdr.End)
		}
		if first || ts < c.start {
			c.start = ts
		}
		if first || ts > c.end {
			c.end = ts
		}
		first, prev = false, ts
		c.msgs = append(c.msgs, msgAt{uint32(off), ch, ts})
		c.count++
		d.seeMessage(ch, ts, uint64(n-messageHeaderLen))
		if d.chunkBy[ch] != d.chunkCount {
			d.chunkBy[ch] = d.chunkCount
			c.channels[ch] = true
		}
	}
	if j.plain {
		// Every record a message, walked whole by the worker.
		if !j.listed {
			j.msgs = listMessages(l.data, make([]msgAt, 0, len(l.data)/256))
			j.listed = true
		}
		for i, m := range j.msgs {
			next := len(l.data)
			if i+1 < len(j.msgs) {
				next = int(j.msgs[i+1].off)
			}
			message(int(m.off), m.ch, m.time, next-int(m.off)-recHeaderLen)
		}
		d.chunkEnd(t, l, c, len(l.data), nil)
		return
	}
	end, werr := walkRecords(l.data, func(op Op, off int, content []byte) bool {
		dc := newDec(content)
		switch op {
		case OpSchema:
			s := parseSchema(dc)
			if dc.err != nil {
				d.add(bag.Error, t.Offset, OpChunk, "schema record at %d in the chunk does not parse: %v", off, dc.err)
				break
			}
			s.Offset = t.Offset
			d.schema(&s)
		case OpChannel:
			ch := parseChannel(dc)
			if dc.err != nil {
				d.add(bag.Error, t.Offset, OpChunk, "channel record at %d in the chunk does not parse: %v", off, dc.err)
				break
			}
			ch.Offset = t.Offset
			d.channel(&ch)
		case OpMessage:
			message(off, binary.LittleEndian.Uint16(content), binary.LittleEndian.Uint64(content[6:]), len(content))
		default:
			d.add(bag.Error, t.Offset, OpChunk, "a %s record at %d in the chunk: chunks hold only schemas, channels and messages", op, off)
		}
		return true
	})
	d.chunkEnd(t, l, c, end, werr)
}

// chunkEnd makes the checks of a chunk once its records are walked (to end,
// stopped by werr).
func (d *doctor) chunkEnd(t *topRec, l chunkLoad, c *seenChunk, end int, werr error) {
	if werr != nil && l.err == nil {
		d.add(bag.Error, t.Offset, OpChunk, "records at %d of %d in the chunk: %s", end, len(l.data), errMessage(werr))
	}
	if c.count > 0 && l.err == nil && (c.start != l.hdr.Start || c.end != l.hdr.End) {
		d.add(bag.Error, t.Offset, OpChunk, "message_start_time..message_end_time is %d..%d, the messages span %d..%d", l.hdr.Start, l.hdr.End, c.start, c.end)
	}
	if c.count == 0 {
		c.start, c.end = l.hdr.Start, l.hdr.End
	}
}

func errMessage(err error) string {
	var fe *FormatError
	if errors.As(err, &fe) {
		return fe.Msg
	}
	return err.Error()
}

// messageIndex checks a message index record's entries against its chunk.
func (d *doctor) messageIndex(c *seenChunk, off int64, ch uint16, content []byte) {
	arr := content[6:]
	if len(arr) >= 4 {
		arr = arr[:min(len(arr)-0, int(binary.LittleEndian.Uint32(content[2:])))]
	}
	if len(arr)%16 != 0 {
		d.add(bag.Error, off, OpMessageIndex, "the records field is %d bytes, not a whole number of 16-byte entries", len(arr))
		return
	}
	if !c.readable {
		return
	}
	if c.vouch != nil {
		if c.vouchedIndex(ch, arr) {
			return
		}
		if d.unvouch(c); !c.readable {
			return
		}
	}
	if c.seen == nil {
		c.seen = append(d.seenBuf[:0], make([]uint32, len(c.msgs))...)
	}
	d.idxNo++
	c.cursor = 0
	for i := 0; i+16 <= len(arr); i += 16 {
		ts := binary.LittleEndian.Uint64(arr[i:])
		ro := binary.LittleEndian.Uint64(arr[i+8:])
		k, ok := c.find(ro)
		var m msgAt
		if ok {
			m = c.msgs[k]
			c.seen[k] = d.idxNo
		}
		switch {
		case !ok:
			d.add(bag.Error, off, OpMessageIndex, "entry %d for channel %d points at offset %d of the chunk at %d, where no message record starts", i/16, ch, ro, c.off)
		case m.ch != ch:
			d.add(bag.Error, off, OpMessageIndex, "entry %d for channel %d points at offset %d of the chunk at %d, a message on channel %d", i/16, ch, ro, c.off, m.ch)
		case m.time != ts:
			d.add(bag.Error, off, OpMessageIndex, "entry %d for channel %d says log_time %d, the message at offset %d of the chunk at %d has %d", i/16, ch, ts, ro, c.off, m.time)
		}
	}
	for k, m := range c.msgs {
		if m.ch == ch && c.seen[k] != d.idxNo {
			d.add(bag.Warning, off, OpMessageIndex, "the message at offset %d of the chunk at %d (channel %d, log_time %d) has no entry in its message index", m.off, c.off, ch, m.time)
		}
	}
}

// find returns the index in c.msgs of the message whose record starts at
// ro: where the entry before it left off first (entries come in record
// order), else by binary search.
func (c *seenChunk) find(ro uint64) (int, bool) {
	if ro > 1<<32-1 {
		return 0, false
	}
	// The channel's next message is usually a few records on.
	for k := c.cursor; k < min(len(c.msgs), c.cursor+16); k++ {
		if o := uint64(c.msgs[k].off); o >= ro {
			if o != ro {
				break
			}
			c.cursor = k + 1
			return k, true
		}
	}
	k := sort.Search(len(c.msgs), func(i int) bool { return uint64(c.msgs[i].off) >= ro })
	if k < len(c.msgs) && uint64(c.msgs[k].off) == ro {
		c.cursor = k + 1
		return k, true
	}
	return 0, false
}

// closeChunk checks that the chunk just walked had its message indexes.
func (d *doctor) closeChunk() {
	c := d.last
	if c == nil {
		return
	}
	d.last = nil
	defer func() {
		if c.msgs != nil {
			d.msgBuf = c.msgs[:0]
		}
		if c.seen != nil {
			d.seenBuf = c.seen[:0]
		}
		c.msgs, c.seen = nil, nil
	}()
	if !c.readable {
		return
	}
	if len(c.msgIdx) == 0 {
		if c.count > 0 {
			d.add(bag.Info, c.off, OpChunk, "the chunk has no message index records: indexed readers cannot find its messages without decompressing it")
		}
	} else {
		// In channel order, so that two checks of one file say the same.
		for _, ch := range slices.Sorted(maps.Keys(c.channels)) {
			if _, ok := c.msgIdx[ch]; !ok {
				d.add(bag.Warning, c.off, OpChunk, "no message index record for channel %d after the chunk", ch)
			}
		}
	}
}

// flushCounts puts the counts by channel into their maps.
func (d *doctor) flushCounts() {
	for ch, n := range d.countBy {
		if n > 0 {
			d.chanCounts[uint16(ch)] = n
			d.rep.Bytes[uint32(ch)] = d.bytesBy[ch]
			d.rep.Counts[uint32(ch)] = n
		}
	}
}

// finish makes the checks that need the whole file seen.
func (d *doctor) finish(ctx context.Context) {
	x := d.x
	if !d.endMagic {
		d.add(bag.Error, x.size, 0, "the file does not end with the MCAP magic: it was cut or not closed")
	}
	if d.dataEnd < 0 {
		d.add(bag.Error, x.size, 0, "no data end record")
	}
	if d.footer == nil {
		d.add(bag.Error, x.size, 0, "no footer record: the file was cut or not closed")
	}
	d.rep.Messages = d.msgCount
	d.flushCounts()
	// Data section CRC.
	if d.dataEnd >= 0 && d.dataEndCRC != 0 {
		c, err := d.secCRC, error(nil)
		if !d.secOK || !d.secDone || d.secEnd != d.dataEnd {
			// Not every byte came through the walk: read them again.
			c, err = d.crc(ctx, 0, d.dataEnd)
		}
		if err == nil && c != d.dataEndCRC {
			d.add(bag.Error, d.dataEnd, OpDataEnd, "the data section has CRC %08x, data_section_crc says %08x", c, d.dataEndCRC)
		}
	}
	if d.footer != nil {
		d.checkSummaryLayout(ctx)
	}
	d.checkChunkIndexes()
	d.checkStatistics()
	for _, a := range d.attIdx {
		at, ok := d.atts[int64(a.Offset)]
		switch {
		case !ok:
			d.add(bag.Error, int64(a.Offset), OpAttachmentIndex, "an attachment index points at %d, where there is no attachment record", a.Offset)
		case at.Name != a.Name || at.MediaType != a.MediaType || at.LogTime != a.LogTime || at.CreateTime != a.CreateTime:
			d.add(bag.Error, int64(a.Offset), OpAttachmentIndex, "the attachment index for %q does not match the attachment at %d (%q)", a.Name, a.Offset, at.Name)
		}
	}
	for _, m := range d.metaIdx {
		name, ok := d.metas[int64(m.Offset)]
		switch {
		case !ok:
			d.add(bag.Error, int64(m.Offset), OpMetadataIndex, "a metadata index points at %d, where there is no metadata record", m.Offset)
		case name != m.Name:
			d.add(bag.Error, int64(m.Offset), OpMetadataIndex, "the metadata index names %q, the metadata record at %d is %q", m.Name, m.Offset, name)
		}
	}
	// Chunks that overlap in time.
	byStart := append([]*seenChunk(nil), d.order...)
	sort.SliceStable(byStart, func(i, j int) bool { return byStart[i].start < byStart[j].start })
	var maxEnd uint64
	for i, c := range byStart {
		if c.count == 0 {
			continue
		}
		if i > 0 && c.start < maxEnd {
			d.add(bag.Info, c.off, OpChunk, "the chunk's messages (%d..%d) overlap an earlier chunk's in time: readers must merge them", c.start, c.end)
		}
		maxEnd = max(maxEnd, c.end)
	}
}

func (d *doctor) crc(ctx context.Context, from, to int64) (uint32, error) {
	if from < 0 || to < from || to > d.x.size {
		return 0, errAt(max(from, 0), 0, ErrMalformed, "bytes %d..%d are not in the file's %d bytes", from, to, d.x.size)
	}
	buf := make([]byte, min(4<<20, max(to-from, 1)))
	var c uint32
	for p := from; p < to; {
		if ctx.Err() != nil {
			return 0, ctx.Err()
		}
		n := min(int64(len(buf)), to-p)
		if _, err := d.x.r.ReadAt(buf[:n], p); err != nil && !(errors.Is(err, io.EOF) && n > 0) {
			return 0, err
		}
		c = crc32.Update(c, crc32.IEEETable, buf[:n])
		p += n
	}
	return c, nil
}

func (d *doctor) checkSummaryLayout(ctx context.Context) {
	f, x := d.footer, d.x
	var expect int64
	if len(d.summaryRecs) > 0 {
		expect = d.summaryRecs[0].Offset
	}
	if int64(f.SummaryStart) != expect {
		d.add(bag.Error, d.footerOff, OpFooter, "summary_start is %d, the summary section starts at %d", f.SummaryStart, expect)
	}
	var firstSO int64 = -1
	for _, r := range d.summaryRecs {
		if r.Op == OpSummaryOffset {
			if firstSO < 0 {
				firstSO = r.Offset
			}
		} else if firstSO >= 0 {
			d.add(bag.Error, r.Offset, r.Op, "a %s record among the summary offset records", r.Op)
		}
	}
	switch {
	case firstSO >= 0 && int64(f.SummaryOffsetStart) != firstSO:
		d.add(bag.Error, d.footerOff, OpFooter, "summary_offset_start is %d, the summary offset records start at %d", f.SummaryOffsetStart, firstSO)
	case firstSO < 0 && f.SummaryOffsetStart != 0 && int64(f.SummaryOffsetStart) != d.footerOff:
		d.add(bag.Error, d.footerOff, OpFooter, "summary_offset_start is %d, but there are no summary offset records", f.SummaryOffsetStart)
	}
	if f.SummaryCRC != 0 && f.SummaryStart != 0 && f.SummaryStart <= uint64(d.footerOff) {
		c, err := d.crc(ctx, int64(f.SummaryStart), d.footerOff+recHeaderLen+16)
		if err == nil && c != f.SummaryCRC {
			d.add(bag.Error, d.footerOff, OpFooter, "the summary section has CRC %08x, summary_crc says %08x", c, f.SummaryCRC)
		}
	}
	// Each summary offset must cover exactly a group of records of its op.
	starts := map[int64]int{}
	for i, r := range d.summaryRecs {
		starts[r.Offset] = i
	}
	for _, so := range d.summaryOffs {
		i, ok := starts[int64(so.Start)]
		if !ok {
			d.add(bag.Warning, int64(so.Start), 0, "a summary offset names a %s group at %d, where no summary record starts", so.Op, so.Start)
			continue
		}
		end := int64(so.Start + so.Length)
		for ; i < len(d.summaryRecs) && d.summaryRecs[i].Offset < end; i++ {
			if r := d.summaryRecs[i]; r.Op != so.Op {
				d.add(bag.Warning, r.Offset, r.Op, "a %s record inside the %s group that a summary offset names (%d..%d)", r.Op, so.Op, so.Start, end)
				break
			}
		}
		if i < len(d.summaryRecs) && d.summaryRecs[i].Offset != end || i == len(d.summaryRecs) && end != d.footerOff && (i == 0 || d.summaryRecs[i-1].End != end) {
			d.add(bag.Warning, int64(so.Start), so.Op, "the %s group that a summary offset names ends at %d, not at a record boundary", so.Op, end)
		}
	}
	_ = x
}

func (d *doctor) checkChunkIndexes() {
	indexed := map[int64]bool{}
	for _, ci := range d.chunkIdx {
		off := int64(ci.Offset)
		if indexed[off] {
			d.add(bag.Error, ci.RecordOffset, OpChunkIndex, "a second chunk index for the chunk at %d", off)
		}
		indexed[off] = true
		c := d.chunks[off]
		if c == nil {
			d.add(bag.Error, ci.RecordOffset, OpChunkIndex, "the chunk index points at %d, where there is no chunk record", off)
			continue
		}
		bad := func(format string, args ...any) {
			d.add(bag.Error, ci.RecordOffset, OpChunkIndex, "chunk index for the chunk at %d: "+format, append([]any{off}, args...)...)
		}
		if int64(ci.Length) != c.length {
			bad("chunk_length is %d, the chunk record is %d bytes", ci.Length, c.length)
		}
		if ci.Start != c.hdr.Start || ci.End != c.hdr.End {
			bad("times %d..%d, the chunk says %d..%d", ci.Start, ci.End, c.hdr.Start, c.hdr.End)
		}
		if ci.Compression != c.hdr.Compression {
			bad("compression %q, the chunk says %q", ci.Compression, c.hdr.Compression)
		}
		if ci.CSize != c.csize {
			bad("compressed_size %d, the chunk's records are %d bytes", ci.CSize, c.csize)
		}
		if ci.USize != c.hdr.USize {
			bad("uncompressed_size %d, the chunk says %d", ci.USize, c.hdr.USize)
		}
		if len(ci.MsgIndexOffsets) > 0 || len(c.msgIdx) > 0 {
			// In channel order, so that two checks of one file say the
			// same (the findings share the chunk index's offset).
			for _, ch := range slices.Sorted(maps.Keys(ci.MsgIndexOffsets)) {
				if o := ci.MsgIndexOffsets[ch]; c.msgIdx[ch] != int64(o) {
					bad("message_index_offsets names %d for channel %d, the message index record for it is at %d", o, ch, c.msgIdx[ch])
				}
			}
			for _, ch := range slices.Sorted(maps.Keys(c.msgIdx)) {
				if _, ok := ci.MsgIndexOffsets[ch]; !ok {
					bad("message_index_offsets leaves out channel %d (its message index record is at %d)", ch, c.msgIdx[ch])
				}
			}
			if c.msgIdxEnd > 0 && ci.MsgIndexLength != uint64(c.msgIdxEnd-(c.off+c.length)) {
				bad("message_index_length is %d, the message index records are %d bytes", ci.MsgIndexLength, c.msgIdxEnd-(c.off+c.length))
			}
		}
		for _, ch := range slices.Sorted(maps.Keys(c.channels)) {
			if !d.sumChans[ch] {
				d.add(bag.Error, off, OpChunk, "the indexed chunk holds messages on channel %d, which the summary section does not repeat", ch)
			} else if cc := d.chans[ch]; cc != nil && cc.SchemaID != 0 && !d.sumSchemas[cc.SchemaID] {
				d.add(bag.Error, off, OpChunk, "the indexed chunk holds messages on channel %d, whose schema %d the summary section does not repeat", ch, cc.SchemaID)
			}
		}
	}
	if len(d.chunkIdx) > 0 {
		for _, c := range d.order {
			if !indexed[c.off] {
				d.add(bag.Error, c.off, OpChunk, "the chunk has no chunk index in the summary: indexed readers miss its messages")
			}
		}
		if d.looseOut {
			d.add(bag.Warning, d.chunkIdx[0].RecordOffset, OpChunkIndex, "the file has message records outside chunks as well as chunk indexes: indexed readers miss those messages")
		}
	}
}

func (d *doctor) checkStatistics() {
	if len(d.stats) > 1 {
		d.add(bag.Error, d.stats[1].Offset, OpStatistics, "a second statistics record")
	}
	if len(d.stats) == 0 {
		return
	}
	s := d.stats[0]
	bad := func(format string, args ...any) { d.add(bag.Error, s.Offset, OpStatistics, format, args...) }
	if s.MessageCount != d.msgCount {
		bad("message_count is %d, the file holds %d messages", s.MessageCount, d.msgCount)
	}
	if d.msgCount > 0 && (s.Start != d.minT || s.End != d.maxT) {
		bad("message times %d..%d, the messages span %d..%d", s.Start, s.End, d.minT, d.maxT)
	}
	ids := map[uint16]bool{}
	for id := range d.chanCounts {
		ids[id] = true
	}
	for id := range s.ChannelCounts {
		ids[id] = true
	}
	for _, id := range slices.Sorted(maps.Keys(ids)) {
		if s.ChannelCounts[id] != d.chanCounts[id] {
			bad("channel_message_counts says %d messages on channel %d, the file holds %d", s.ChannelCounts[id], id, d.chanCounts[id])
		}
	}
	if n := int(s.ChannelCount); n != len(d.chans) && n != len(d.chans)+len(d.sumOnlyChans) {
		bad("channel_count is %d, the file defines %d channels", s.ChannelCount, len(d.chans)+len(d.sumOnlyChans))
	}
	if n := int(s.SchemaCount); n != len(d.schemas) && n != len(d.schemas)+len(d.sumOnlySchemas) {
		bad("schema_count is %d, the file defines %d schemas", s.SchemaCount, len(d.schemas)+len(d.sumOnlySchemas))
	}
	if int(s.ChunkCount) != d.chunkCount {
		bad("chunk_count is %d, the file holds %d chunks", s.ChunkCount, d.chunkCount)
	}
	if int(s.AttachmentCount) != len(d.atts) {
		bad("attachment_count is %d, the file holds %d attachments", s.AttachmentCount, len(d.atts))
	}
	if int(s.MetadataCount) != len(d.metas) {
		bad("metadata_count is %d, the file holds %d metadata records", s.MetadataCount, len(d.metas))
	}
}
