package mcap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/bagscope/bagscope/bag"
)

const winSize = 4 << 20

// remoteSpan is a remote file's window: its block size, so that a
// record's header costs no more than the block it is in.
const remoteSpan = 64 << 10

// window reads a file through a reused buffer, so that walking small
// records costs one pread per window, not per record.
type window struct {
	r    io.ReaderAt
	size int64
	off  int64
	buf  []byte
	// span is how much one read brings in (0: winSize). A walk that reads
	// the large records' bytes elsewhere (the doctor's chunks) keeps it
	// small, so that they are not read twice.
	span int64
	// reuse: a get of more than half a span reads into big, reused by the
	// next such get, instead of a new buffer each time (the doctor's walk
	// reads every message index record, many larger than its span, and
	// keeps none: they are valid until the next get, as any get).
	reuse bool
	big   []byte
}

// get returns file bytes [off, off+n), valid until the next get. The caller
// has checked that they are in the file.
func (w *window) get(off int64, n int64) ([]byte, error) {
	if off >= w.off && off+n <= w.off+int64(len(w.buf)) {
		return w.buf[off-w.off:][:n], nil
	}
	span := w.span
	if span == 0 {
		span = winSize
	}
	if n > span/2 {
		if n > MaxRecordSize {
			return nil, errAt(off, 0, ErrTooLarge, "%d bytes is over the %d limit", n, MaxRecordSize)
		}
		var b []byte
		if w.reuse {
			if int64(cap(w.big)) < n {
				w.big = make([]byte, n)
			}
			b = w.big[:n]
		} else {
			b = make([]byte, n)
		}
		if _, err := w.r.ReadAt(b, off); err != nil && !errors.Is(err, io.EOF) {
			return nil, err
		}
		return b, nil
	}
	l := min(span, w.size-off)
	if int64(cap(w.buf)) < l {
		w.buf = make([]byte, min(span, w.size))
	}
	w.buf = w.buf[:l]
	w.off = off
	if _, err := w.r.ReadAt(w.buf, off); err != nil && !errors.Is(err, io.EOF) {
		w.buf = w.buf[:0]
		return nil, err
	}
	return w.buf[:n], nil
}

// scanner walks a file's records one after the other.
type scanner struct {
	x        *Reader
	end      int64 // where the walk stops
	full     bool  // a whole-file scan (else the data section of an indexed file)
	cut      bool  // the file has no footer: a record running past the end is a cut
	w        window
	d        *decoders
	dst      []byte
	si       bag.ScanInfo
	stats    *statistics
	last     *chunk // the chunk the message index records that follow belong to
	lastIdx  uint64 // messages its message index records list
	salvaged uint64 // messages read from it
	// lastRange is the index in si.Skipped of the last chunk's range (-1
	// for none); lastBound bounds what it lost from its declared size,
	// lastReadable counts its bytes read.
	lastRange    int
	lastBound    bag.Count
	lastReadable int64
}

// scan reads the whole file record by record.
func (x *Reader) scan(reason error) error {
	x.chunks, x.loose, x.attachments, x.metas, x.stats = nil, nil, nil, nil, nil
	x.info.Indexed = false
	s := &scanner{x: x, end: x.size, full: true, cut: x.foot == nil, lastRange: -1}
	s.si.Reason = reason
	if err := s.run(); err != nil {
		return err
	}
	x.stats = s.stats
	if s.stats != nil {
		var found uint64
		for _, c := range x.chunks {
			for _, n := range c.counts {
				found += n
			}
		}
		found += uint64(len(x.loose))
		if s.stats.MessageCount > found && s.stats.MessageCount-found > s.si.LostMessages {
			s.si.LostMessages = s.stats.MessageCount - found
		}
	}
	if x.dataEnd == 0 {
		x.dataEnd = s.si.ParsedTo
	}
	x.info.Scanned = &s.si
	return nil
}

// walkData walks the data section of a file whose summary is sound but
// does not index its messages.
func (x *Reader) walkData() error {
	s := &scanner{x: x, end: x.dataEnd, lastRange: -1}
	if err := s.run(); err != nil {
		return err
	}
	if len(s.si.Skipped) > 0 {
		s.si.Reason = errAt(magicLen, 0, ErrMalformed, "the data section is damaged")
		x.info.Scanned = &s.si
	}
	return nil
}

func (s *scanner) skip(start, end int64, why string, args ...any) {
	if n := len(s.si.Skipped); n > 0 && s.si.Skipped[n-1].End == start && s.si.Skipped[n-1].Why == fmt.Sprintf(why, args...) {
		s.si.Skipped[n-1].End = end
		return
	}
	s.si.Skipped = append(s.si.Skipped, bag.ByteRange{Start: start, End: end, Why: fmt.Sprintf(why, args...), Unit: bag.UnitRecord})
}

// skipChunk records the range of a damaged chunk, its messages bounded
// by its declared size until its message index records say more (see
// closeChunk).
func (s *scanner) skipChunk(start, end int64, why string, args ...any) {
	s.si.Skipped = append(s.si.Skipped, bag.ByteRange{Start: start, End: end, Why: fmt.Sprintf(why, args...), Unit: bag.UnitChunk,
		Messages: s.lastBound, Recovered: s.salvaged, Readable: s.lastReadable})
	s.lastRange = len(s.si.Skipped) - 1
}

func (s *scanner) note(format string, args ...any) {
	s.si.Notes = append(s.si.Notes, fmt.Sprintf(format, args...))
}

func (s *scanner) closeChunk() {
	if s.last != nil && s.lastIdx > s.salvaged && s.last.Err != nil {
		s.si.LostMessages += s.lastIdx - s.salvaged
	}
	if s.last != nil && s.last.Err != nil && s.lastRange >= 0 && s.lastIdx > 0 {
		// Its message index records count its messages.
		s.si.Skipped[s.lastRange].Messages = bag.Exactly(satSub(s.lastIdx, s.salvaged))
	}
	s.last, s.lastIdx, s.salvaged, s.lastRange = nil, 0, 0, -1
	s.lastBound, s.lastReadable = bag.Count{}, 0
}

func satSub(a, b uint64) uint64 {
	if b > a {
		return 0
	}
	return a - b
}

func (s *scanner) run() error {
	x := s.x
	s.w = window{r: x.r, size: x.size, off: -1}
	s.d = getDecoders()
	defer putDecoders(s.d)
	pos := int64(magicLen)
	s.si.ParsedTo = pos
	for pos < s.end {
		rem := s.end - pos
		if rem < recHeaderLen {
			b, err := s.w.get(pos, rem)
			if err != nil {
				return err
			}
			if s.full && string(b) == Magic {
				s.si.ParsedTo = s.end
				break
			}
			s.skip(pos, s.end, "%d bytes too few for a record header: the file was cut", rem)
			if s.si.Reason == nil {
				s.si.Reason = errAt(pos, 0, ErrTruncated, "the file ends inside a record header")
			}
			break
		}
		h, err := s.w.get(pos, recHeaderLen)
		if err != nil {
			return err
		}
		op := Op(h[0])
		n := binary.LittleEndian.Uint64(h[1:])
		avail := uint64(rem - recHeaderLen)
		if op == 0 || (op > OpDataEnd && op < 0x80) {
			next := s.resync(pos + 1)
			s.skip(pos, next, "bytes that are not a record (op 0x%02x)", uint8(op))
			pos = next
			continue
		}
		if n > avail {
			if s.cut && op == OpChunk {
				s.closeChunk()
				s.chunk(pos, n)
				declared := pos + recHeaderLen + int64(n)
				s.skipChunk(pos, declared, "chunk record cut by the end of the file after %d of its %d bytes", s.end-pos, declared-pos)
				// What followed it (its message index records, later
				// records, the summary) is gone, its messages unknown.
				s.si.Skipped = append(s.si.Skipped, bag.ByteRange{Start: declared, End: declared, Unit: bag.UnitRecord,
					Why: "the records after the cut chunk (its message index, any later chunk, the summary) are missing"})
				s.si.ParsedTo = pos
				break
			}
			next := s.resync(pos + 1)
			if next < s.end {
				s.skip(pos, next, "%s record whose length %d runs past the end of the file", op, n)
				pos = next
				continue
			}
			s.skip(pos, s.end, "%s record cut by the end of the file", op)
			if s.si.Reason == nil || !errors.Is(s.si.Reason, ErrTruncated) && s.cut {
				s.si.Reason = errAt(pos, op, ErrTruncated, "the file ends inside a %s record", op)
			}
			s.si.ParsedTo = pos
			break
		}
		if op != OpMessageIndex {
			s.closeChunk()
		}
		if ok := s.record(pos, op, n); !ok {
			next := s.resync(pos + 1)
			s.skip(pos, next, "%s record that does not parse", op)
			pos = next
			continue
		}
		if op == OpFooter && s.full {
			pos += recHeaderLen + int64(n)
			s.si.ParsedTo = pos
			if s.end-pos == magicLen {
				if b, err := s.w.get(pos, magicLen); err == nil && string(b) == Magic {
					s.si.ParsedTo = s.end
					break
				}
			}
			continue
		}
		pos += recHeaderLen + int64(n)
		s.si.ParsedTo = pos
	}
	s.closeChunk()
	return nil
}

// record handles one complete record; it returns false when the record
// does not parse.
func (s *scanner) record(pos int64, op Op, n uint64) bool {
	x := s.x
	switch op {
	case OpChunk:
		return s.chunk(pos, n)
	case OpMessage:
		if n < messageHeaderLen {
			return false
		}
		b, err := s.w.get(pos+recHeaderLen, messageHeaderLen)
		if err != nil {
			return false
		}
		x.loose = append(x.loose, looseMsg{Time: binary.LittleEndian.Uint64(b[6:]), Channel: binary.LittleEndian.Uint16(b), Offset: pos, Len: recHeaderLen + int64(n)})
		return true
	case OpMessageIndex:
		if n < 6 {
			return false
		}
		b, err := s.w.get(pos+recHeaderLen, 6)
		if err != nil {
			return false
		}
		s.lastIdx += uint64(binary.LittleEndian.Uint32(b[2:]) / 16)
		return true
	case OpAttachment:
		if !s.full {
			return true
		}
		head := min(n, 1<<16)
		b, err := s.w.get(pos+recHeaderLen, int64(head))
		if err != nil {
			return false
		}
		d := newDec(b)
		a := attachmentIndex{Offset: uint64(pos), Length: recHeaderLen + n, LogTime: d.u64(""), CreateTime: d.u64("")}
		a.Name = d.str("name")
		a.MediaType = d.str("media_type")
		a.DataSize = d.u64("data")
		if d.err != nil || a.DataSize > n-uint64(d.p) || n-uint64(d.p)-a.DataSize < 4 {
			return false
		}
		x.attachments = append(x.attachments, a)
		return true
	case OpSchema, OpChannel, OpStatistics, OpMetadata, OpHeader, OpFooter, OpDataEnd:
		if n > 64<<20 {
			return false
		}
		b, err := s.w.get(pos+recHeaderLen, int64(n))
		if err != nil {
			return false
		}
		d := newDec(b)
		switch op {
		case OpSchema:
			sc := parseSchema(d)
			sc.Offset = pos
			sc.Data = append([]byte(nil), sc.Data...)
			if d.err == nil {
				s.addSchema(&sc)
			}
		case OpChannel:
			c := parseChannel(d)
			c.Offset = pos
			if d.err == nil {
				s.addChannel(&c)
			}
		case OpStatistics:
			st := parseStatistics(d)
			st.Offset = pos
			if d.err == nil && s.full {
				s.stats = &st
			}
		case OpMetadata:
			m := parseMetadata(d)
			if d.err == nil && s.full {
				x.metas = append(x.metas, metadataIndex{Offset: uint64(pos), Length: recHeaderLen + n, Name: m.Name})
			}
		case OpHeader:
			parseHeader(d)
			if d.err == nil && pos != magicLen {
				s.note("offset %d: a second header record", pos)
			}
		case OpFooter:
			parseFooter(d)
		case OpDataEnd:
			d.u32("data_section_crc")
			if x.dataEnd == 0 || s.full {
				x.dataEnd = pos
			}
		}
		return d.err == nil
	}
	return true
}

func (s *scanner) addSchema(sc *schema) {
	if sc.ID == 0 {
		return
	}
	if _, ok := s.x.schemas[sc.ID]; !ok {
		s.x.schemas[sc.ID] = sc
	}
}

func (s *scanner) addChannel(c *channel) {
	if _, ok := s.x.chans[c.ID]; !ok {
		s.x.chans[c.ID] = c
	}
}

// chunk reads the chunk record at pos (n bytes of content declared; fewer
// may be in the file), decompresses it and notes its messages.
func (s *scanner) chunk(pos int64, n uint64) bool {
	have := min(n, uint64(s.end-pos-recHeaderLen))
	if have > MaxRecordSize {
		s.skip(pos, pos+recHeaderLen+int64(have), "chunk record of %d bytes is over the %d limit", n, MaxRecordSize)
		return true
	}
	raw, err := s.w.get(pos, recHeaderLen+int64(have))
	if err != nil {
		return false
	}
	l := s.d.loadChunk(raw, pos, n, s.dst)
	if l.data != nil && l.hdr.Compression != "" {
		s.dst = l.data
	}
	if l.hdr.RecordsAt == 0 {
		// The header did not parse.
		if !s.cut || have == n {
			return false
		}
	}
	c := &chunk{Offset: pos, Length: recHeaderLen + int64(have), DeclaredLen: n, Compression: l.hdr.Compression,
		CSize: l.hdr.RecordsLen, USize: l.hdr.USize, counts: map[uint16]uint64{}, scanned: true}
	first := true
	var count uint64
	walked, werr := walkRecords(l.data, func(op Op, off int, content []byte) bool {
		d := newDec(content)
		switch op {
		case OpSchema:
			sc := parseSchema(d)
			sc.Offset = pos
			sc.Data = append([]byte(nil), sc.Data...)
			if d.err == nil {
				s.addSchema(&sc)
			}
		case OpChannel:
			ch := parseChannel(d)
			ch.Offset = pos
			if d.err == nil {
				s.addChannel(&ch)
			}
		case OpMessage:
			t := binary.LittleEndian.Uint64(content[6:])
			if first || t < c.Start {
				c.Start = t
			}
			if first || t > c.End {
				c.End = t
			}
			first = false
			c.counts[binary.LittleEndian.Uint16(content)]++
			count++
		}
		return true
	})
	if l.err == nil && werr != nil {
		// Records that make no sense in a stream that decompressed
		// whole: where they stop, in the compressed bytes.
		s.d.locate(&l, walked)
		l.err = inChunk(werr, pos)
		if l.failUnit != "" {
			l.err = fmt.Errorf("%w%s", l.err, l.failWords())
		}
	}
	if l.err != nil {
		c.Err = l.err
		c.lost = count == 0
		s.lastBound = cutBound(l, walked, true)
		s.salvaged = count
		switch r := l.readBytes(pos, walked); {
		case r > 0:
			// The bytes read are those before the compressed block
			// that failed (or before the cut, or the first record that
			// makes no sense, in records stored uncompressed).
			s.lastReadable = r
		case l.cut:
			s.lastReadable = int64(have) + recHeaderLen - int64(len(l.data)-walked)
		}
		if !l.cut {
			s.skipChunk(pos, pos+recHeaderLen+int64(have), "chunk: %v%s (%d messages salvaged before the damage)", errors.Unwrap(l.err), l.failWords(), count)
		}
	}
	if first {
		c.Start, c.End = l.hdr.Start, l.hdr.End
		if c.End < c.Start {
			c.End = c.Start
		}
	}
	s.x.chunks = append(s.x.chunks, c)
	s.last, s.salvaged = c, count
	return true
}

// resync finds the next offset at or after from where a plausible record
// starts (one that parses and is followed by another record or the end),
// or s.end.
func (s *scanner) resync(from int64) int64 {
	const step = 1 << 20
	for base := from; base < s.end-recHeaderLen; base += step - recHeaderLen {
		l := min(int64(step), s.end-base)
		b := make([]byte, l)
		if _, err := s.x.r.ReadAt(b, base); err != nil && !errors.Is(err, io.EOF) {
			return s.end
		}
		for i := 0; i+recHeaderLen <= len(b); i++ {
			op := Op(b[i])
			if op < OpFooter || op > OpDataEnd {
				continue
			}
			n := binary.LittleEndian.Uint64(b[i+1:])
			q := base + int64(i)
			if n > uint64(s.end-q-recHeaderLen) {
				continue
			}
			if s.plausible(q, op, n) {
				return q
			}
		}
		if l < step {
			break
		}
	}
	return s.end
}

// plausible checks a candidate record: its fields parse and the next
// record's header makes sense.
func (s *scanner) plausible(q int64, op Op, n uint64) bool {
	head := min(n, 4096)
	b := make([]byte, head)
	if _, err := s.x.r.ReadAt(b, q+recHeaderLen); err != nil && !errors.Is(err, io.EOF) {
		return false
	}
	d := newDec(b)
	whole := head == n
	switch op {
	case OpMessage:
		if n < messageHeaderLen {
			return false
		}
		if _, ok := s.x.chans[binary.LittleEndian.Uint16(b)]; !ok {
			return false
		}
	case OpChunk:
		h := parseChunkHeader(d)
		if d.err != nil || h.USize > MaxChunkSize || uint64(h.RecordsAt)+h.RecordsLen > n ||
			(h.Compression != "" && h.Compression != "lz4" && h.Compression != "zstd") {
			return false
		}
	case OpSchema:
		parseSchema(d)
	case OpChannel:
		parseChannel(d)
	case OpFooter:
		if n != 20 {
			return false
		}
	case OpDataEnd:
		if n < 4 {
			return false
		}
	case OpMessageIndex:
		d.u16("")
		if m := d.u32(""); uint64(m)+6 > n || m%16 != 0 {
			return false
		}
	default:
		if whole {
			switch op {
			case OpStatistics:
				parseStatistics(d)
			case OpMetadata:
				parseMetadata(d)
			case OpChunkIndex:
				parseChunkIndex(d)
			case OpAttachmentIndex:
				parseAttachmentIndex(d)
			case OpMetadataIndex:
				parseMetadataIndex(d)
			case OpSummaryOffset:
				parseSummaryOffset(d)
			}
		}
	}
	if d.err != nil && (whole || op == OpChunk || op == OpMessageIndex) {
		return false
	}
	next := q + recHeaderLen + int64(n)
	if next == s.end || s.full && next == s.end-magicLen {
		return true
	}
	if next+recHeaderLen > s.end {
		return s.cut
	}
	var h [recHeaderLen]byte
	if _, err := s.x.r.ReadAt(h[:], next); err != nil {
		return false
	}
	op2 := Op(h[0])
	if !op2.Known() && op2 < 0x80 {
		return false
	}
	n2 := binary.LittleEndian.Uint64(h[1:])
	return n2 <= uint64(s.end-next-recHeaderLen) || s.cut && n2 < math.MaxInt32
}
