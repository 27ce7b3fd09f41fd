package ros1

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// ScanReport says what scanning a bag found: how far the file was
// understood, its chunks, the salvaged open chunk and the bytes that could
// not be read.
type ScanReport struct {
	// Reason is why the bag was scanned instead of read through its index.
	Reason error
	// ParsedTo is the offset up to which records were understood; Size is
	// the file's size.
	ParsedTo, Size int64
	// ClosedChunks counts the chunks whose header was patched on close.
	ClosedChunks int
	// Open describes the chunk that was still being written, if any.
	Open *OpenChunk
	// Skipped lists the byte ranges that could not be read, in file order.
	Skipped []ByteRange
	// Notes lists what the scan noticed that is not damage (padding,
	// a stale index section, ...), with offsets.
	Notes []*FormatError
	// LostMessages counts messages known to exist (from index data
	// records) whose chunk could not be read.
	LostMessages uint64
}

// UnreadableBytes adds up the skipped ranges.
func (r *ScanReport) UnreadableBytes() int64 {
	var n int64
	for _, s := range r.Skipped {
		n += s.End - s.Start
	}
	return n
}

// OpenChunk is a chunk whose header still says size 0: the recording was
// stopped while it was being written.
type OpenChunk struct {
	Pos         int64  // file offset of the chunk record
	Compression string // its compression
	// Cut is set when the chunk's header was patched on close but the
	// file ends inside its data (the file was truncated, not the
	// recording killed).
	Cut      bool
	Messages int // messages salvaged from it
	// Salvaged is the number of uncompressed bytes recovered (up to the
	// last complete record); LostBytes the file bytes after them.
	Salvaged  int64
	LostBytes int64
}

// ByteRange is a range of file offsets [Start, End) and why it was skipped.
type ByteRange = bag.ByteRange

// OpenOrScan opens the bag at path through its index, or, when the bag is
// unindexed or its index is missing, cut or inconsistent, by scanning the
// whole file (see Scan). Close it when done.
func OpenOrScan(path string) (*Bag, error) { return openFile(path, NewReaderOrScan) }

// NewReaderOrScan is OpenOrScan for an io.ReaderAt.
func NewReaderOrScan(r io.ReaderAt, size int64) (*Bag, error) {
	b, err := NewReader(r, size)
	if err == nil {
		err = b.checkChunkHeaders()
		if err == nil {
			return b, nil
		}
	}
	if !scannable(err) {
		return nil, err
	}
	return Scan(r, size, err)
}

// scannable reports whether err is a problem with the index that a scan
// can get around.
func scannable(err error) bool {
	return errors.Is(err, ErrUnindexed) || errors.Is(err, ErrTruncated) ||
		errors.Is(err, ErrMalformed) || errors.Is(err, ErrTooLarge)
}

// checkChunkHeaders reads every chunk record header the index points at.
func (b *Bag) checkChunkHeaders() error {
	// A remote bag fetches them together, not one request each.
	offs := make([]int64, len(b.ChunkInfos))
	for i, ci := range b.ChunkInfos {
		offs[i] = ci.ChunkPos
	}
	bag.Prefetch(b.r, offs, recordLookahead)
	for _, ci := range b.ChunkInfos {
		if ci.ChunkPos >= b.Header.IndexPos {
			return errAt(ci.Offset, OpChunkInfo, ErrMalformed, "chunk info points at %d, inside the index section at %d", ci.ChunkPos, b.Header.IndexPos)
		}
		if _, err := b.ChunkHeader(ci); err != nil {
			return err
		}
	}
	return nil
}

// Scan reads a bag without its index: it walks the file's records from the
// start, indexes closed chunks from the index data records that follow
// them (decompressing a chunk only to find connection records or when its
// index data is missing), salvages the chunk that was still open, and
// resynchronises on the next plausible record after damage. The result
// works like an indexed Bag; its Scan field says what was found. reason
// is recorded as the report's Reason.
func Scan(r io.ReaderAt, size int64, reason error) (*Bag, error) {
	b := &Bag{r: r, size: size, chunks: map[int64]*Chunk{}, connByID: map[uint32]*Connection{}, scanIndex: map[int64][]*IndexData{}, scanDigest: map[int64][]uint64{}, trustedIndex: map[int64]bool{}}
	v, err := ReadVersion(r, size)
	if err != nil {
		return nil, err
	}
	b.Version = v
	s := &scanner{b: b, rep: &ScanReport{Reason: reason, Size: size}}
	if err := s.run(); err != nil {
		return nil, err
	}
	b.Scan = s.rep
	for _, c := range b.connByID {
		b.Connections = append(b.Connections, c)
	}
	sort.Slice(b.Connections, func(i, j int) bool { return b.Connections[i].ID < b.Connections[j].ID })
	return b, nil
}

// scanner holds the state of one Scan.
type scanner struct {
	b         *Bag
	rep       *ScanReport
	buf       ChunkBuffer
	resyncBuf []byte
	// pending are damaged chunks whose index data records name
	// connections not defined yet; infos the chunk info records met (an
	// index section that is still there).
	pending []unresolvedChunk
	infos   []*ChunkInfo
	// entries holds the entries of the index data records after the
	// chunk being scanned.
	entries []IndexEntry
}

// unresolvedChunk is a chunk kept for its index data records, once their
// connections are known.
type unresolvedChunk struct {
	ci  *ChunkInfo
	idx []*IndexData
}

// finish keeps the pending chunks whose connections are now known, and
// counts the messages of unreadable ranges from the chunk info records
// of the index section, when it is there: a range holding the chunks
// they place in it lost their messages, which the index data records
// found after it (orphans) count again.
func (s *scanner) finish() {
	b := s.b
	for _, p := range s.pending {
		if knownConns(b, p.idx) {
			fillFromIndex(p.ci, p.idx)
			if len(p.ci.Conns) > 0 {
				b.ChunkInfos = append(b.ChunkInfos, p.ci)
			}
		}
	}
	sk := s.rep.Skipped
	counted := -1 // the last range whose chunks the index counts
	for i := range sk {
		r := &sk[i]
		if counted >= 0 && r.Start == sk[i-1].End && strings.HasPrefix(r.Why, "index data record of") {
			// Counted with the chunk before it.
			r.Messages = bag.Exactly(0)
			r.Why += " (counted with the chunk before it, from the index section)"
			counted = i
			continue
		}
		counted = -1
		if r.Messages != (bag.Count{}) {
			continue
		}
		var n uint64
		found := false
		for _, ci := range s.infos {
			if ci.ChunkPos >= r.Start && ci.ChunkPos < r.End {
				n += ci.Messages()
				found = true
			}
		}
		if found {
			r.Messages, r.Unit = bag.Exactly(n), bag.UnitChunk
			r.Why += fmt.Sprintf(" (the index section's chunk info records count %d messages in it)", n)
			counted = i
		}
	}
}

func (s *scanner) note(off int64, op Op, format string, args ...any) {
	s.rep.Notes = append(s.rep.Notes, errAt(off, op, nil, format, args...))
}

func (s *scanner) skip(start, end int64, why string) {
	s.skipLost(start, end, bag.UnitRecord, bag.Count{}, why)
}

// skipLost records a lost range with what it was and the messages it
// held, as far as the file says.
func (s *scanner) skipLost(start, end int64, unit bag.Unit, lost bag.Count, why string) {
	if end > start {
		s.rep.Skipped = append(s.rep.Skipped, ByteRange{Start: start, End: end, Why: why, Unit: unit, Messages: lost})
	}
}

func (s *scanner) run() error {
	b := s.b
	off := int64(VersionLineLen)
	if rec, _, err := b.readRecord(off, nil); err == nil && rec.Op == OpBagHeader {
		if h, err := ParseBagHeader(rec); err == nil {
			b.Header = h
			off = rec.End()
		}
	}
	if b.Header == nil {
		s.note(off, OpBagHeader, "the bag header record cannot be read; scanning for records after it")
		if off >= b.size {
			// Nothing to skip, but the recording is gone: say so.
			s.rep.Skipped = append(s.rep.Skipped, ByteRange{Start: off, End: off, Unit: bag.UnitRecord, Why: "the file ends after its version line: the bag header and everything after it are missing"})
		}
	}
	for off < b.size {
		rec, _, err := b.readRecord(off, nil)
		if ch, ok := b.recoverChunkLen(rec, err); ok {
			// A chunk whose data length field is wrong, its data intact.
			s.rep.Notes = append(s.rep.Notes, chunkLenWarning(ch, rec.DataLen))
			rec.DataLen = ch.DataLen
			err = nil
		}
		if err != nil && rec.Op == OpChunk && rec.Header != nil && errors.Is(err, ErrTruncated) {
			// A chunk whose data runs past the end of the file: the file
			// was cut inside it. Salvage it like an open chunk.
			if ch, perr := ParseChunk(rec); perr == nil {
				s.note(rec.Offset, OpChunk, "chunk declares %d data bytes but the file ends %d bytes after its header", ch.DataLen, b.size-ch.DataOffset)
				off = s.openChunk(ch)
				s.rep.Open.Cut = true
				continue
			}
		}
		if err != nil {
			if errors.Is(err, ErrTruncated) && s.onlyCutRecordLeft(off) {
				s.skip(off, b.size, "a record cut off by the end of the file: "+err.Error())
				s.rep.ParsedTo = off
				return nil
			}
			next := s.resync(off + 1)
			s.skip(off, next, describeGap(b, off, next, err))
			off = next
			continue
		}
		s.rep.ParsedTo = rec.End()
		switch rec.Op {
		case OpChunk:
			off = s.chunk(rec)
		case OpConnection:
			s.topConnection(rec)
			off = rec.End()
		case OpIndexData:
			// Index data after a chunk are read with it: this one follows
			// no readable chunk, so its messages are lost.
			s.orphanIndex(rec)
			off = rec.End()
		case OpChunkInfo:
			if data, err := b.ReadData(&rec); err == nil {
				if ci, err := ParseChunkInfo(rec, data); err == nil {
					s.infos = append(s.infos, ci)
				}
			}
			off = rec.End()
		case OpBagHeader:
			s.note(rec.Offset, rec.Op, "a second bag header record; ignored")
			off = rec.End()
		default:
			s.skip(rec.Offset, rec.End(), fmt.Sprintf("unexpected %s record outside a chunk (a damaged chunk record?): its contents cannot be used", rec.Op))
			off = rec.End()
		}
	}
	if s.rep.ParsedTo < off {
		s.rep.ParsedTo = off
	}
	s.finish()
	if h := b.Header; h != nil && h.IndexPos > b.size {
		if n := len(s.rep.Skipped); n == 0 || s.rep.Skipped[n-1].End < b.size {
			// The file ends on a record boundary, before the index the
			// bag header promises: what was after it is missing.
			// Every chunk the header counts that is not here held a
			// message at least.
			found := uint32(s.rep.ClosedChunks)
			if s.rep.Open != nil {
				found++
			}
			s.rep.Skipped = append(s.rep.Skipped, ByteRange{Start: b.size, End: h.IndexPos, Unit: bag.UnitChunk, Messages: bag.AtLeast(uint64(satSub32(h.ChunkCount, found))),
				Why: fmt.Sprintf("the file ends at %d, but the bag header puts the index section at %d and counts %d chunks (%d here): the file was cut, what followed is missing", b.size, h.IndexPos, h.ChunkCount, found)})
		}
	}
	return nil
}

// orphanIndex counts the messages of an index data record that follows no
// readable chunk as lost, and skips the record.
func (s *scanner) orphanIndex(rec Record) {
	var n uint32
	if data, err := s.b.ReadData(&rec); err == nil {
		if x, err := ParseIndexData(rec, data); err == nil {
			n = x.Count
		}
	}
	s.rep.LostMessages += uint64(n)
	s.skipLost(rec.Offset, rec.End(), bag.UnitRecord, bag.Exactly(uint64(n)), fmt.Sprintf("index data record of %d messages after no readable chunk: the messages are lost", n))
}

// onlyCutRecordLeft reports whether the truncated record at off is the last
// thing in the file: no plausible record starts after it.
func (s *scanner) onlyCutRecordLeft(off int64) bool {
	return s.resync(off+1) >= s.b.size
}

// describeGap says what the unreadable bytes [start, end) are.
func describeGap(b *Bag, start, end int64, err error) string {
	n := end - start
	buf := make([]byte, min(n, 1<<16))
	if rn, _ := b.r.ReadAt(buf, start); int64(rn) == n {
		zero := true
		for _, c := range buf {
			if c != 0 {
				zero = false
				break
			}
		}
		if zero {
			return "padding (zero bytes) between records"
		}
	}
	return "unreadable bytes: " + err.Error()
}

// topConnection adds a connection record found outside chunks (the index
// section of a bag whose index cannot be used as a whole).
func (s *scanner) topConnection(rec Record) {
	data, err := s.b.ReadData(&rec)
	if err == nil {
		var c *Connection
		if c, err = ParseConnection(rec, data); err == nil {
			if s.b.connByID[c.ID] == nil {
				s.b.connByID[c.ID] = c
			}
			return
		}
	}
	s.note(rec.Offset, OpConnection, "connection record cannot be read: %v", err)
}

// chunk indexes the chunk record rec and returns the offset after it and
// its index data records.
func (s *scanner) chunk(rec Record) int64 {
	b := s.b
	ch, err := ParseChunk(rec)
	if err != nil {
		s.skipLost(rec.Offset, rec.End(), bag.UnitChunk, bag.Count{}, "chunk header cannot be read: "+err.Error())
		return rec.End()
	}
	if ch.Size == 0 && ch.DataLen == 0 {
		return s.openChunk(ch)
	}
	s.rep.ClosedChunks++
	b.chunks[ch.Offset] = ch
	// The index data records after the chunk.
	off := ch.End()
	var idx []*IndexData
	// The entries are parsed into the scanner's buffer: only a pending
	// chunk keeps them past this chunk (cloned there).
	s.entries = s.entries[:0]
	for off < b.size {
		r, _, err := b.readRecord(off, nil)
		if err != nil || r.Op != OpIndexData {
			break
		}
		data, err := b.ReadData(&r)
		if err != nil {
			break
		}
		var x *IndexData
		x, s.entries, err = parseIndexDataInto(r, data, s.entries)
		if err != nil {
			s.note(r.Offset, OpIndexData, "index data record cannot be read: %v", err)
			break
		}
		idx = append(idx, x)
		off = r.End()
	}
	b.scanIndex[ch.Offset] = withoutEntries(idx)
	b.scanDigest[ch.Offset] = entryDigests(idx)
	// Trust the index data only when a whole record follows it: at the end
	// of the file, or before bytes that do not parse, some of it may be
	// missing.
	trusted := len(idx) > 0 && off < b.size
	if trusted {
		if _, _, err := b.readRecord(off, nil); err != nil {
			trusted = false
		}
	}
	// complete: every index data record of the chunk is here.
	complete := trusted
	for _, x := range idx {
		if b.connByID[x.Conn] == nil {
			trusted = false // decompress to find its connection record
		}
	}
	var ci *ChunkInfo
	if trusted {
		b.trustedIndex[ch.Offset] = true
		ci = &ChunkInfo{Record: Record{Op: OpChunkInfo, Pos: Pos{Offset: -1}}, Ver: 1, ChunkPos: ch.Offset}
		fillFromIndex(ci, idx)
	} else {
		var err error
		if ci, err = s.walkChunk(ch); err != nil && ci != nil && (len(ci.Conns) > 0 || len(idx) > 0) {
			// Records are readable up to the damage: keep the chunk. The
			// message iterator finds the messages after the damage through
			// the index data records, and reports what it cannot.
			if len(idx) > 0 && knownConns(b, idx) {
				fillFromIndex(ci, idx)
			} else if len(idx) > 0 {
				// Its connections may be defined later (in the index
				// section, when the chunk that defined them is lost):
				// decided once the whole file is scanned.
				s.pending = append(s.pending, unresolvedChunk{ci, withOwnEntries(idx)})
			}
			s.note(ch.Offset, OpChunk, "chunk is damaged (%v); its messages are read up to the damage and, after it, where its index data records locate them", err)
		} else if err != nil {
			var lost uint64
			for _, x := range idx {
				lost += uint64(x.Count)
			}
			s.rep.LostMessages += lost
			count := bag.AtLeast(lost)
			if complete {
				// Its index data records, followed by a whole record,
				// count its messages.
				count = bag.Exactly(lost)
			}
			s.skipLost(ch.Offset, ch.End(), bag.UnitChunk, count, fmt.Sprintf("chunk cannot be read (%d indexed messages lost): %v", lost, err))
			delete(b.chunks, ch.Offset)
			s.rep.ClosedChunks--
			return off
		}
	}
	if len(ci.Conns) > 0 {
		b.ChunkInfos = append(b.ChunkInfos, ci)
	}
	return off
}

// withoutEntries returns copies of the index data records idx without their
// entries, which the scanned bag keeps: twelve bytes of file and sixteen of
// memory per message would make the memory of a scan grow with the
// recording. Bag.scannedIndex reads the entries again when they are needed.
func withoutEntries(idx []*IndexData) []*IndexData {
	out := make([]*IndexData, len(idx))
	for i, x := range idx {
		y := *x
		y.Entries = nil
		out[i] = &y
	}
	return out
}

// withOwnEntries returns copies of the index data records idx with their
// entries copied too.
func withOwnEntries(idx []*IndexData) []*IndexData {
	out := make([]*IndexData, len(idx))
	for i, x := range idx {
		y := *x
		y.Entries = slices.Clone(x.Entries)
		out[i] = &y
	}
	return out
}

// entryDigests returns, for each index data record, the sum of its
// entries' entryDigest.
func entryDigests(idx []*IndexData) []uint64 {
	out := make([]uint64, len(idx))
	for i, x := range idx {
		out[i] = x.digest()
	}
	return out
}

// scannedDigests returns the index data records the scan found after the
// chunk at pos, without their entries, and each one's entryDigests.
func (b *Bag) scannedDigests(pos int64) ([]*IndexData, []uint64) {
	return b.scanIndex[pos], b.scanDigest[pos]
}

// scannedIndex returns the index data records the scan found after the
// chunk at pos, with their entries read again from the file. The records
// parsed when scanned; one that no longer does (the file changed under the
// reader) ends the list, as it ended the scan's.
func (b *Bag) scannedIndex(pos int64) []*IndexData {
	idx := b.scanIndex[pos]
	out := make([]*IndexData, 0, len(idx))
	for _, x := range idx {
		data, err := b.ReadData(&x.Record)
		if err != nil {
			break
		}
		y, err := ParseIndexData(x.Record, data)
		if err != nil {
			break
		}
		out = append(out, y)
	}
	return out
}

// knownConns reports whether every index data record names a connection
// the bag defines.
func knownConns(b *Bag, idx []*IndexData) bool {
	for _, x := range idx {
		if b.connByID[x.Conn] == nil {
			return false
		}
	}
	return true
}

// fillFromIndex sets a chunk info's times and counts from index data.
func fillFromIndex(ci *ChunkInfo, idx []*IndexData) {
	ci.Conns = ci.Conns[:0]
	first := true
	for _, x := range idx {
		ci.Conns = append(ci.Conns, ChunkConnCount{x.Conn, x.Count})
		for _, e := range x.Entries {
			if first || e.Time.Before(ci.Start) {
				ci.Start = e.Time
			}
			if first || ci.End.Before(e.Time) {
				ci.End = e.Time
			}
			first = false
		}
	}
	ci.Count = uint32(len(ci.Conns))
}

// walkChunk decompresses a chunk and reads its records: connection records
// are added to the bag; the returned chunk info counts the messages.
// When only a prefix of the data decompresses, the records in it are
// indexed, with the error.
func (s *scanner) walkChunk(ch *Chunk) (*ChunkInfo, error) {
	data, derr := s.b.readChunkData(ch, &s.buf)
	if len(data) == 0 {
		if derr == nil {
			derr = errAt(ch.Offset, OpChunk, ErrMalformed, "chunk holds no data")
		}
		return nil, derr
	}
	ci, _, err := s.indexRecords(ch, data)
	if derr != nil {
		err = derr
	}
	return ci, err
}

// indexRecords walks the records in a chunk's uncompressed data, adding
// connections to the bag and counting messages. It returns the chunk info,
// the end of the last complete record, and the error that stopped it.
func (s *scanner) indexRecords(ch *Chunk, data []byte) (*ChunkInfo, int, error) {
	ci := &ChunkInfo{Record: Record{Op: OpChunkInfo, Pos: Pos{Offset: -1}}, Ver: 1, ChunkPos: ch.Offset}
	counts := map[uint32]uint32{}
	var order []uint32
	first := true
	w := NewChunkWalker(data, ch.Offset)
	end := 0
	for w.Next() {
		r := w.Record()
		switch r.Op {
		case OpConnection:
			c, err := ParseConnection(*r, w.Data())
			if err != nil {
				return ci, end, err
			}
			if s.b.connByID[c.ID] == nil {
				s.b.connByID[c.ID] = c
			}
		case OpMessageData:
			m, err := ParseMessageData(*r)
			if err != nil {
				return ci, end, err
			}
			if s.b.connByID[m.Conn] == nil {
				return ci, end, inChunk(errAt(r.Offset, OpMessageData, ErrMalformed, "message uses connection %d before any connection record defines it", m.Conn), ch.Offset)
			}
			if counts[m.Conn] == 0 {
				order = append(order, m.Conn)
			}
			counts[m.Conn]++
			if first || m.Time.Before(ci.Start) {
				ci.Start = m.Time
			}
			if first || ci.End.Before(m.Time) {
				ci.End = m.Time
			}
			first = false
		default:
			return ci, end, inChunk(errAt(r.Offset, r.Op, ErrMalformed, "unexpected %s record inside a chunk", r.Op), ch.Offset)
		}
		end = int(r.End())
	}
	for _, c := range order {
		ci.Conns = append(ci.Conns, ChunkConnCount{c, counts[c]})
	}
	ci.Count = uint32(len(ci.Conns))
	return ci, end, w.Err()
}

// openChunk salvages the chunk that was being written when the recording
// stopped (or that the file was cut inside): its bytes run from the chunk
// header to the end of the file.
// Uncompressed chunks keep every complete record; compressed ones the
// complete records in the longest prefix that decompresses.
func (s *scanner) openChunk(ch *Chunk) int64 {
	b := s.b
	oc := &OpenChunk{Pos: ch.Offset, Compression: ch.Compression}
	s.rep.Open = oc
	avail := b.size - ch.DataOffset
	var data []byte
	var derr error
	rawLen := 0
	if ch.Compression == CompressionNone {
		// The records follow the chunk header directly; read them in
		// place, up to what is left of the file (bounded).
		n := min(avail, MaxChunkSize)
		data = make([]byte, n)
		if err := b.readAt(data, ch.DataOffset, OpChunk, "open chunk"); err != nil {
			s.skipLost(ch.DataOffset, b.size, bag.UnitChunk, bag.Count{}, "open chunk cannot be read: "+err.Error())
			return b.size
		}
	} else {
		if avail > MaxChunkSize {
			avail = MaxChunkSize
		}
		raw := make([]byte, avail)
		if err := b.readAt(raw, ch.DataOffset, OpChunk, "open chunk"); err != nil {
			s.skipLost(ch.DataOffset, b.size, bag.UnitChunk, bag.Count{}, "open chunk cannot be read: "+err.Error())
			return b.size
		}
		data, derr = DecompressPrefix(ch.Compression, raw, MaxChunkSize)
		rawLen = len(raw)
	}
	ci, end, werr := s.indexRecords(ch, data)
	oc.Messages = int(ci.Messages())
	oc.Salvaged = int64(end)
	salvaged := *ch
	salvaged.Open = true
	salvaged.Size = uint32(end)
	next := b.size
	if ch.Compression == CompressionNone {
		salvaged.DataLen = uint32(end)
		next = ch.DataOffset + int64(end)
		// After a closed-by-truncation uncompressed chunk there may be
		// nothing but a cut record; anything else is walked normally.
		if next < b.size && s.resync(next) >= b.size {
			oc.LostBytes = b.size - next
			why := "the rest of the open chunk: a record cut off by the end of the file"
			if werr != nil && !errors.Is(werr, ErrTruncated) {
				why = "the rest of the open chunk: " + werr.Error()
			}
			s.skipLost(next, b.size, bag.UnitRecord, bag.Count{}, why)
			s.rep.Skipped[len(s.rep.Skipped)-1].Recovered = uint64(oc.Messages)
			next = b.size
		}
	} else {
		salvaged.DataLen = uint32(avail)
		// Bytes are lost when decompressed data ends inside a record, or
		// when the compressed stream goes on past its header into a block
		// that cannot be decoded (a recorder killed while writing it).
		if lost := len(data) - end; lost > 0 || (derr != nil && rawLen > streamHeaderLen(ch.Compression)) || (werr != nil && !errors.Is(werr, ErrTruncated)) {
			oc.LostBytes = avail
			why := fmt.Sprintf("the rest of the open %s chunk: %d bytes decompress, %d of them in complete records", ch.Compression, len(data), end)
			if derr != nil {
				why += "; then " + derr.Error()
			}
			s.skipLost(ch.DataOffset, b.size, bag.UnitChunk, bag.Count{}, why)
			s.rep.Skipped[len(s.rep.Skipped)-1].Recovered = uint64(oc.Messages)
		}
	}
	b.chunks[ch.Offset] = &salvaged
	if len(ci.Conns) > 0 {
		b.ChunkInfos = append(b.ChunkInfos, ci)
	}
	s.rep.ParsedTo = next
	return next
}

// streamHeaderLen is the length of the stream header a compressor writes
// before any block: the LZ4 frame header, or bzip2's "BZh9".
func streamHeaderLen(compression string) int {
	switch compression {
	case CompressionLZ4:
		return 7
	case CompressionBZ2:
		return 4
	}
	return 0
}

// resync returns the offset of the next plausible record at or after off,
// or the file size when there is none.
func (s *scanner) resync(off int64) int64 {
	return s.b.nextPlausible(off, s.b.size, &s.resyncBuf, 0)
}

// nextPlausible returns the offset of the next plausible record (of op
// want, when not 0) at or after off and before limit, or the file size
// when there is none. buf is reused for the reads.
func (b *Bag) nextPlausible(off, limit int64, buf *[]byte, want Op) int64 {
	const window = 1 << 20
	if off >= limit {
		return b.size
	}
	need := int(min(int64(window+maxResyncHeader+8), b.size-off))
	if cap(*buf) < need {
		*buf = make([]byte, need)
	}
	p := (*buf)[:need]
	for start := off; start < limit; start += window {
		n, _ := b.r.ReadAt(p, start)
		if n <= 0 {
			break
		}
		chunk := p[:n]
		lim := min(int64(n), window, limit-start)
		for i := int64(0); i < lim; i++ {
			if plausibleRecord(chunk[i:], b.size-(start+i)) && (want == 0 || opAt(chunk[i:]) == want) {
				return start + i
			}
		}
	}
	return b.size
}

// opAt returns the op of the plausible record at the start of p.
func opAt(p []byte) Op {
	hlen := int(le32(p))
	h, err := parseHeader(p[4:4+hlen], 0, nil)
	if err != nil {
		return 0
	}
	op, _ := opOf(h, 0)
	return op
}

// maxResyncHeader bounds the header length of a record the resync accepts;
// real record headers are well under 4 KB.
const maxResyncHeader = 4096

// plausibleRecord reports whether p (with rem bytes left in the file) starts
// with a record of a known op whose header parses and whose typed fields
// are present.
func plausibleRecord(p []byte, rem int64) bool {
	if len(p) < 8 {
		return false
	}
	hlen := int(le32(p))
	if hlen < 8 || hlen > maxResyncHeader || hlen+8 > len(p) || int64(hlen)+8 > rem {
		return false
	}
	h, err := parseHeader(p[4:4+hlen], 0, nil)
	if err != nil {
		return false
	}
	op, err := opOf(h, 0)
	if err != nil || !op.Known() {
		return false
	}
	dlen := int64(le32(p[4+hlen:]))
	if dlen > rem-int64(hlen)-8 {
		return false
	}
	rec := Record{Op: op, Header: h}
	switch op {
	case OpBagHeader:
		_, err = ParseBagHeader(rec)
	case OpChunk:
		_, err = ParseChunk(rec)
	case OpMessageData:
		_, err = ParseMessageData(rec)
	case OpConnection:
		_, err = rec.u32("conn")
	case OpIndexData:
		_, err = rec.u32("conn")
	case OpChunkInfo:
		_, err = rec.u64("chunk_pos")
	}
	return err == nil
}

func satSub32(a, b uint32) uint32 {
	if b > a {
		return 0
	}
	return a - b
}
