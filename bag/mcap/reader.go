package mcap

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/bagscope/bagscope/bag"
)

func init() {
	bag.RegisterFormat(bag.Format{
		Name:       "MCAP",
		Magic:      []byte(Magic),
		Extensions: []string{".mcap"},
		Open: func(r io.ReaderAt, size int64, path string) (bag.Storage, error) {
			return NewReader(r, size, path)
		},
		Write: func(out io.WriteSeeker, src bag.Storage, compression string) (*bag.RepairReport, error) {
			return Write(out, src, WriteOptions{Compression: compression})
		},
		NeedsScan: needsScan,
	})
}

// needsScan says why NewReader would read the whole file: no footer or
// summary, a damaged one, or a summary without a chunk index.
func needsScan(r io.ReaderAt, size int64, _ string) error {
	x := &Reader{r: r, size: size, schemas: map[uint16]*schema{}, chans: map[uint16]*channel{}}
	if size < magicLen {
		return nil // NewReader says what is wrong
	}
	if reason := x.readSummary(); reason != nil {
		return reason
	}
	if x.needsDataWalk() {
		return errors.New("the summary has no chunk index: the messages are found by reading the data section")
	}
	return nil
}

// Reader is an opened MCAP file. It implements bag.Storage,
// bag.RecordLister and bag.Repairer, and is safe for concurrent use.
type Reader struct {
	r    io.ReaderAt
	size int64
	info bag.FileInfo

	hdr     header
	foot    *footer
	stats   *statistics
	schemas map[uint16]*schema
	chans   map[uint16]*channel

	conns    []*bag.Connection
	connByID map[uint32]*bag.Connection
	connTab  []*bag.Connection // by channel ID, for the hot path

	chunks      []*chunk // file order
	loose       []looseMsg
	attachments []attachmentIndex
	metas       []metadataIndex
	// dataEnd is where the data section ends (the summary's start, or
	// the file's end when there is no summary).
	dataEnd int64

	countsOnce sync.Once
	blocks     []*bag.Block
	// counted is set once countsOnce has filled every chunk's counts: an
	// iterator reads counts it did not find at open only after it
	// (MessageIter.counts), never while Blocks writes them.
	counted atomic.Bool

	cacheMu   sync.Mutex
	cacheOff  int64
	cacheLoad *chunkLoad
	// vouch, once VouchReads is called, keeps what reads found of the
	// chunks they decompressed whole, for the doctor after them.
	vouchMu sync.Mutex
	vouch   *vouches
	// fullCheck makes the doctor check every chunk record by record, with
	// no vouch of a read or of its own workers (tests compare with it).
	fullCheck bool
}

// chunk is one chunk record, from the chunk index or the scan.
type chunk struct {
	Offset, Length int64 // the chunk record (Length clipped to the file for a cut chunk)
	DeclaredLen    uint64
	Start, End     uint64
	Compression    string
	CSize, USize   uint64
	MsgIdx         map[uint16]uint64
	MsgIdxLen      uint64
	counts         map[uint16]uint64 // nil until known
	indexed        bool              // counts are indexCounts' (the message index records read and checked)
	Err            error             // damage found by the scan
	IndexAt        int64             // file offset of its chunk index record, 0 when none
	scanned        bool
	lost           bool // nothing could be read from it
}

// looseMsg is a message record outside any chunk.
type looseMsg struct {
	Time    uint64
	Channel uint16
	Offset  int64 // of the record
	Len     int64 // whole record
}

// Open reads the MCAP file at path with bag.OpenFile semantics: close the
// returned Storage when done.
func Open(path string) (bag.Storage, error) { return bag.OpenFile(path) }

// NewReader opens an MCAP file held by r, which has size bytes. It reads
// the footer and the summary section only; when they are missing or
// damaged it scans the file record by record (FileInfo().Scanned says why
// and what was skipped). path is for display ("" for none).
func NewReader(r io.ReaderAt, size int64, path string) (*Reader, error) {
	x := &Reader{r: r, size: size, schemas: map[uint16]*schema{}, chans: map[uint16]*channel{}}
	x.info = bag.FileInfo{Format: "MCAP", Version: "0", Path: path, Size: size}
	head := make([]byte, min(size, magicLen))
	if _, err := r.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if !bytes.HasPrefix([]byte(Magic), head) || len(head) == 0 {
		return nil, errAt(0, 0, ErrNotMCAP, "the file starts with %q, not the MCAP magic %q", head, Magic)
	}
	if size < magicLen {
		return nil, errAt(size, 0, ErrTruncated, "the file is cut inside its magic (%d bytes)", size)
	}
	x.readHeader()
	reason := x.readSummary()
	if reason != nil {
		if err := x.scan(reason); err != nil {
			return nil, err
		}
	} else if x.needsDataWalk() {
		// The summary does not index the messages (an unchunked file,
		// or chunks without chunk indexes): find them in the data
		// section, without giving up the summary's other parts.
		if err := x.walkData(); err != nil {
			return nil, err
		}
	}
	x.finish()
	x.info.Claim = x.statsClaim()
	return x, nil
}

// readAt reads exactly n bytes at off, checking n against the file first.
func (x *Reader) readAt(off int64, n int64) ([]byte, error) {
	if off < 0 || n < 0 || off > x.size || n > x.size-off {
		return nil, errAt(off, 0, ErrTruncated, "%d bytes at offset %d run past the end of the file (%d bytes)", n, off, x.size)
	}
	if n > MaxRecordSize {
		return nil, errAt(off, 0, ErrTooLarge, "%d bytes is over the %d limit", n, MaxRecordSize)
	}
	buf := make([]byte, n)
	if _, err := x.r.ReadAt(buf, off); err != nil && !(errors.Is(err, io.EOF) && n > 0) {
		return nil, err
	}
	return buf, nil
}

func (x *Reader) readHeader() {
	b := make([]byte, 4096)
	n, _ := x.r.ReadAt(b, magicLen)
	b = b[:n]
	if len(b) < recHeaderLen || Op(b[0]) != OpHeader {
		x.info.Warnings = append(x.info.Warnings, errAt(magicLen, 0, ErrMalformed, "the first record is not a header"))
		return
	}
	l := binary.LittleEndian.Uint64(b[1:])
	if l > uint64(len(b)-recHeaderLen) {
		if l > 1<<20 || l > uint64(x.size) {
			x.info.Warnings = append(x.info.Warnings, errAt(magicLen, OpHeader, ErrTooLarge, "header record length %d", l))
			return
		}
		var err error
		if b, err = x.readAt(magicLen, recHeaderLen+int64(l)); err != nil {
			x.info.Warnings = append(x.info.Warnings, err)
			return
		}
	}
	d := newDec(b[recHeaderLen : recHeaderLen+l])
	h := parseHeader(d)
	if d.err != nil {
		x.info.Warnings = append(x.info.Warnings, errAt(magicLen, OpHeader, ErrMalformed, "%v", d.err))
		return
	}
	x.hdr = h
	x.info.Profile = h.Profile
}

// readSummary reads the footer and the summary section. It returns why the
// file must be scanned instead, or nil.
func (x *Reader) readSummary() error {
	if x.size < magicLen+tailLen {
		return errAt(x.size, 0, ErrTruncated, "the file is too short (%d bytes) for a footer", x.size)
	}
	tail, err := x.readAt(x.size-tailLen, tailLen)
	if err != nil {
		return err
	}
	if string(tail[footerLen:]) != Magic {
		return errAt(x.size-magicLen, 0, ErrTruncated, "the file does not end with the MCAP magic: it was cut or not closed")
	}
	if Op(tail[0]) != OpFooter || binary.LittleEndian.Uint64(tail[1:]) != footerLen-recHeaderLen {
		return errAt(x.size-tailLen, 0, ErrMalformed, "no footer record before the closing magic")
	}
	f := parseFooter(newDec(tail[recHeaderLen:footerLen]))
	x.foot = &f
	footOff := x.size - tailLen
	if f.SummaryStart == 0 {
		x.dataEnd = footOff
		return errAt(footOff, OpFooter, nil, "the file has no summary section (summary_start is 0)")
	}
	if f.SummaryStart < magicLen || f.SummaryStart > uint64(footOff) {
		return errAt(footOff, OpFooter, ErrMalformed, "summary_start %d is outside the file", f.SummaryStart)
	}
	if f.SummaryOffsetStart != 0 && (f.SummaryOffsetStart < f.SummaryStart || f.SummaryOffsetStart > uint64(footOff)) {
		return errAt(footOff, OpFooter, ErrMalformed, "summary_offset_start %d is outside the summary section [%d, %d]", f.SummaryOffsetStart, f.SummaryStart, footOff)
	}
	start := int64(f.SummaryStart)
	sum, err := x.readAt(start, footOff-start)
	if err != nil {
		return err
	}
	if f.SummaryCRC != 0 {
		c := crc32.ChecksumIEEE(sum)
		c = crc32.Update(c, crc32.IEEETable, tail[:recHeaderLen+16])
		if c != f.SummaryCRC {
			return errAt(footOff, OpFooter, ErrCRC, "the summary section has CRC %08x, summary_crc says %08x", c, f.SummaryCRC)
		}
	}
	x.dataEnd = start
	var chunks []*chunk
	for p := 0; p < len(sum); {
		off := start + int64(p)
		if len(sum)-p < recHeaderLen {
			return errAt(off, 0, ErrTruncated, "a record header is cut by the footer")
		}
		op := Op(sum[p])
		n := binary.LittleEndian.Uint64(sum[p+1:])
		if n > uint64(len(sum)-p-recHeaderLen) {
			return errAt(off, op, ErrMalformed, "record length %d runs past the summary section", n)
		}
		d := newDec(sum[p+recHeaderLen : p+recHeaderLen+int(n)])
		switch op {
		case OpSchema:
			s := parseSchema(d)
			s.Offset = off
			if d.err == nil && s.ID != 0 {
				if _, ok := x.schemas[s.ID]; !ok {
					x.schemas[s.ID] = &s
				}
			}
		case OpChannel:
			c := parseChannel(d)
			c.Offset = off
			if d.err == nil {
				if _, ok := x.chans[c.ID]; !ok {
					x.chans[c.ID] = &c
				}
			}
		case OpChunkIndex:
			ci := parseChunkIndex(d)
			if d.err == nil {
				if ci.Offset < magicLen || ci.Length < recHeaderLen || ci.Offset > f.SummaryStart || ci.Length > f.SummaryStart-ci.Offset {
					return errAt(off, op, ErrMalformed, "chunk index points at bytes %d..%d, outside the data section", ci.Offset, ci.Offset+ci.Length)
				}
				chunks = append(chunks, &chunk{Offset: int64(ci.Offset), Length: int64(ci.Length), DeclaredLen: ci.Length - recHeaderLen,
					Start: ci.Start, End: ci.End, Compression: ci.Compression, CSize: ci.CSize, USize: ci.USize,
					MsgIdx: ci.MsgIndexOffsets, MsgIdxLen: ci.MsgIndexLength, IndexAt: off})
			}
		case OpAttachmentIndex:
			a := parseAttachmentIndex(d)
			if d.err == nil {
				x.attachments = append(x.attachments, a)
			}
		case OpMetadataIndex:
			m := parseMetadataIndex(d)
			if d.err == nil {
				x.metas = append(x.metas, m)
			}
		case OpStatistics:
			s := parseStatistics(d)
			s.Offset = off
			if d.err == nil {
				x.stats = &s
			}
		}
		if d.err != nil {
			return errAt(off, op, ErrMalformed, "%v", d.err)
		}
		p += recHeaderLen + int(n)
	}
	sort.SliceStable(chunks, func(i, j int) bool { return chunks[i].Offset < chunks[j].Offset })
	for i := 1; i < len(chunks); i++ {
		if chunks[i].Offset < chunks[i-1].Offset+chunks[i-1].Length {
			return errAt(chunks[i].Offset, OpChunk, ErrMalformed, "chunk indexes overlap: chunk at %d starts inside the chunk at %d", chunks[i].Offset, chunks[i-1].Offset)
		}
	}
	x.chunks = chunks
	x.info.Indexed = true
	return nil
}

// needsDataWalk reports whether the summary leaves messages unindexed.
func (x *Reader) needsDataWalk() bool {
	if len(x.chunks) > 0 {
		return false
	}
	return x.stats == nil || x.stats.MessageCount > 0
}

// finish builds the connections once schemas and channels are known.
func (x *Reader) finish() {
	// Channels whose record was lost with a damaged chunk still have
	// messages elsewhere: keep them under a placeholder.
	lost := map[uint16]bool{}
	for _, c := range x.chunks {
		for id := range c.counts {
			if x.chans[id] == nil {
				lost[id] = true
			}
		}
	}
	for _, m := range x.loose {
		if x.chans[m.Channel] == nil {
			lost[m.Channel] = true
		}
	}
	for _, id := range slices.Sorted(maps.Keys(lost)) { // notes in channel order
		x.chans[id] = &channel{ID: id, Topic: fmt.Sprintf("/unknown_channel_%d", id), Offset: -1}
		if x.info.Scanned != nil {
			x.info.Scanned.Notes = append(x.info.Scanned.Notes, fmt.Sprintf("channel %d has messages but its channel record was lost: shown as topic /unknown_channel_%d", id, id))
		}
	}
	ids := make([]int, 0, len(x.chans))
	for id := range x.chans {
		ids = append(ids, int(id))
	}
	sort.Ints(ids)
	x.connByID = make(map[uint32]*bag.Connection, len(ids))
	if len(ids) > 0 {
		x.connTab = make([]*bag.Connection, ids[len(ids)-1]+1)
	}
	for _, id := range ids {
		c := x.chans[uint16(id)]
		bc := &bag.Connection{ID: uint32(c.ID), Topic: c.Topic, Encoding: c.Encoding, Metadata: c.Metadata, Offset: c.Offset}
		if s := x.schemas[c.SchemaID]; s != nil && c.SchemaID != 0 {
			bc.Type = s.Name
			bc.SchemaEncoding = s.Encoding
			bc.Definition = string(s.Data)
		}
		if bc.Metadata == nil {
			bc.Metadata = map[string]string{}
		}
		if v, ok := bc.Metadata["md5sum"]; ok {
			bc.MD5Sum = v
		}
		if v, ok := bc.Metadata["callerid"]; ok {
			bc.CallerID = v
		}
		if v, ok := bc.Metadata["latching"]; ok {
			bc.Latching = v == "1" || v == "true"
		}
		x.conns = append(x.conns, bc)
		x.connByID[bc.ID] = bc
		x.connTab[id] = bc
	}
}

func (x *Reader) conn(id uint16) *bag.Connection {
	if int(id) < len(x.connTab) {
		return x.connTab[id]
	}
	return nil
}

// FileInfo says what the file is and how it was read.
func (x *Reader) FileInfo() *bag.FileInfo { return &x.info }

// Connections lists the channels, by ID.
func (x *Reader) Connections() []*bag.Connection { return x.conns }

// Connection returns the channel with an ID, or nil.
func (x *Reader) Connection(id uint32) *bag.Connection { return x.connByID[id] }

// Header returns the header record's profile and library.
func (x *Reader) Header() (profile, library string) { return x.hdr.Profile, x.hdr.Library }

// Close releases nothing of its own: the caller owns the io.ReaderAt.
func (x *Reader) Close() error {
	x.cacheMu.Lock()
	x.cacheLoad = nil
	x.cacheMu.Unlock()
	return nil
}

// ensureCounts fills each chunk's message counts per channel from its
// message index records (without decompressing), or by decompressing
// the chunk when they are missing or do not parse.
func (x *Reader) ensureCounts() {
	x.countsOnce.Do(func() {
		x.summaryCounts()
		for _, c := range x.chunks {
			if c.counts != nil {
				continue
			}
			if counts, err := x.indexCounts(c); err == nil {
				c.counts, c.indexed = counts, true
				continue
			}
			c.counts = map[uint16]uint64{}
			ents, err := x.chunkEntries(c)
			for _, e := range ents {
				c.counts[uint16(e.Conn)]++
			}
			if err != nil && !c.scanned {
				c.Err = err
			}
		}
		x.blocks = make([]*bag.Block, len(x.chunks))
		for i, c := range x.chunks {
			b := &bag.Block{Offset: c.Offset, Len: c.Length, Start: bag.TimeFromUnixNanos(c.Start), End: bag.TimeFromUnixNanos(c.End),
				Compression: compressionName(c.Compression), CompressedSize: c.CSize, UncompressedSize: c.USize,
				Counts: make(map[uint32]uint64, len(c.counts)), Damaged: c.Err != nil, Err: c.Err}
			for id, n := range c.counts {
				b.Counts[uint32(id)] = n
			}
			x.blocks[i] = b
		}
		x.counted.Store(true)
	})
}

// errNoMessageIndex means a chunk has no usable message index records.
var errNoMessageIndex = errors.New("no message index")

// messageIndex reads a chunk's message index records (which follow it) and
// returns the entries they list, sorted by time then offset.
func (x *Reader) messageIndex(c *chunk) ([]bag.IndexEntry, error) {
	var ents []bag.IndexEntry
	var runs []int // where each channel's entries end in ents
	err := x.walkMessageIndex(c, func(id uint16, arr []byte) bool {
		from := len(ents)
		for i := 0; i+16 <= len(arr); i += 16 {
			t := binary.LittleEndian.Uint64(arr[i:])
			ro := binary.LittleEndian.Uint64(arr[i+8:])
			ents = append(ents, bag.IndexEntry{Time: bag.TimeFromUnixNanos(t), Conn: uint32(id), Loc: bag.Loc{Block: c.Offset, Offset: uint32(ro)}})
		}
		// A channel's entries come in time order as writers write
		// them; sorted here if not.
		if run := ents[from:]; !slices.IsSortedFunc(run, cmpIndexEntry) {
			slices.SortFunc(run, cmpIndexEntry)
		}
		runs = append(runs, len(ents))
		return true
	})
	if err != nil {
		return nil, err
	}
	return mergeRuns(ents, runs), nil
}

// cmpIndexEntry orders index entries by time, then record offset.
func cmpIndexEntry(a, b bag.IndexEntry) int {
	if a.Time != b.Time {
		if a.Time.Before(b.Time) {
			return -1
		}
		return 1
	}
	return cmp.Compare(a.Loc.Offset, b.Loc.Offset)
}

// mergeRuns merges the sorted runs of ents (runs[i] is where run i ends)
// into one sorted slice, pairwise: n log(runs) comparisons where sorting
// the whole took n log n (a tenth of verify's time on 1 MiB chunks).
func mergeRuns(ents []bag.IndexEntry, runs []int) []bag.IndexEntry {
	if len(runs) <= 1 {
		return ents
	}
	buf := make([]bag.IndexEntry, len(ents))
	src, dst := ents, buf
	for len(runs) > 1 {
		var next []int
		start := 0
		for i := 0; i < len(runs); i += 2 {
			if i+1 == len(runs) {
				copy(dst[start:runs[i]], src[start:runs[i]])
				next = append(next, runs[i])
				break
			}
			a, b := src[start:runs[i]], src[runs[i]:runs[i+1]]
			out := dst[start:start]
			for len(a) > 0 && len(b) > 0 {
				if cmpIndexEntry(b[0], a[0]) < 0 {
					out, b = append(out, b[0]), b[1:]
				} else {
					out, a = append(out, a[0]), a[1:]
				}
			}
			n := start + len(out)
			n += copy(dst[n:], a)
			copy(dst[n:], b)
			next = append(next, runs[i+1])
			start = runs[i+1]
		}
		runs = next
		src, dst = dst, src
	}
	return src
}

// indexCounts counts a chunk's messages per channel from its message
// index records, checked as messageIndex checks them but without listing
// and sorting the entries (which cost half of a plot's time on a file of
// 1 MiB chunks).
func (x *Reader) indexCounts(c *chunk) (map[uint16]uint64, error) {
	counts := map[uint16]uint64{}
	err := x.walkMessageIndex(c, func(id uint16, arr []byte) bool {
		counts[id] += uint64(len(arr) / 16)
		return true
	})
	return counts, err
}

// walkMessageIndex reads a chunk's message index records and calls fn
// with each one's channel and entries, once they are checked (each entry's
// offset within the chunk); fn returning false stops the walk.
func (x *Reader) walkMessageIndex(c *chunk, fn func(id uint16, arr []byte) bool) error {
	if c.MsgIdxLen == 0 || c.scanned && c.MsgIdx == nil {
		if c.USize == 0 && len(c.MsgIdx) == 0 && !c.scanned {
			return nil // an empty chunk
		}
		return errNoMessageIndex
	}
	start := c.Offset + c.Length
	if c.MsgIdxLen > uint64(x.size-start) || c.MsgIdxLen > MaxRecordSize {
		return errAt(start, OpMessageIndex, ErrTruncated, "message index records of %d bytes run past the end of the file", c.MsgIdxLen)
	}
	buf, err := x.readAt(start, int64(c.MsgIdxLen))
	if err != nil {
		return err
	}
	// By offset, then channel, so that the first problem met is the same
	// on every read.
	ids := slices.Collect(maps.Keys(c.MsgIdx))
	slices.SortFunc(ids, func(a, b uint16) int { return cmp.Or(cmp.Compare(c.MsgIdx[a], c.MsgIdx[b]), cmp.Compare(a, b)) })
	for _, id := range ids {
		o := c.MsgIdx[id]
		p := int64(o) - start
		if p < 0 || p+recHeaderLen > int64(len(buf)) || Op(buf[p]) != OpMessageIndex {
			return errAt(int64(o), OpMessageIndex, ErrMalformed, "message_index_offsets names %d for channel %d, where there is no message index record", o, id)
		}
		n := binary.LittleEndian.Uint64(buf[p+1:])
		if n > uint64(int64(len(buf))-p-recHeaderLen) {
			return errAt(int64(o), OpMessageIndex, ErrMalformed, "record length %d runs past message_index_length", n)
		}
		d := newDec(buf[p+recHeaderLen : p+recHeaderLen+int64(n)])
		ch := d.u16("channel_id")
		arr, _ := d.prefixed("records")
		if d.err != nil || ch != id || len(arr)%16 != 0 {
			return errAt(int64(o), OpMessageIndex, ErrMalformed, "message index for channel %d does not parse", id)
		}
		for i := 0; i+16 <= len(arr); i += 16 {
			if ro := binary.LittleEndian.Uint64(arr[i+8:]); ro > c.USize || ro > 1<<32-1 {
				return errAt(int64(o), OpMessageIndex, ErrMalformed, "entry offset %d is past the chunk's %d uncompressed bytes", ro, c.USize)
			}
		}
		if !fn(id, arr) {
			return nil
		}
	}
	return nil
}

// readChunk reads a chunk record's bytes (clipped to the file).
func (x *Reader) readChunk(c *chunk, buf []byte) ([]byte, error) {
	if c.Length > MaxRecordSize {
		return nil, errAt(c.Offset, OpChunk, ErrTooLarge, "chunk record of %d bytes", c.Length)
	}
	if int64(cap(buf)) < c.Length {
		buf = make([]byte, c.Length)
	}
	buf = buf[:c.Length]
	if _, err := x.r.ReadAt(buf, c.Offset); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return buf, nil
}

// load reads and decompresses a chunk, through a one-chunk cache.
func (x *Reader) load(c *chunk) (*chunkLoad, error) {
	x.cacheMu.Lock()
	defer x.cacheMu.Unlock()
	if x.cacheLoad != nil && x.cacheOff == c.Offset {
		return x.cacheLoad, nil
	}
	raw, err := x.readChunk(c, nil)
	if err != nil {
		return nil, err
	}
	d := getDecoders()
	l := d.loadChunk(raw, c.Offset, c.DeclaredLen, nil)
	putDecoders(d)
	x.cacheOff, x.cacheLoad = c.Offset, &l
	return &l, nil
}

// chunkEntries decompresses a chunk and lists its messages in record
// order. The error is the chunk's damage, if any.
func (x *Reader) chunkEntries(c *chunk) ([]bag.IndexEntry, error) {
	l, err := x.load(c)
	if err != nil {
		return nil, err
	}
	var ents []bag.IndexEntry
	_, werr := walkRecords(l.data, func(op Op, off int, content []byte) bool {
		if op == OpMessage && len(content) >= messageHeaderLen {
			ents = append(ents, bag.IndexEntry{Time: bag.TimeFromUnixNanos(binary.LittleEndian.Uint64(content[6:])),
				Conn: uint32(binary.LittleEndian.Uint16(content)), Loc: bag.Loc{Block: c.Offset, Offset: uint32(off)}})
		}
		return true
	})
	if l.err != nil {
		return ents, l.err
	}
	if werr != nil {
		return ents, inChunk(werr, c.Offset)
	}
	return ents, nil
}

// walkRecords calls fn for each complete record in a chunk's records, in
// order, until fn returns false. It returns where it stopped and, if a
// record is cut, a message record is too short or an op is not one a
// record can have, why.
func walkRecords(data []byte, fn func(op Op, off int, content []byte) bool) (int, error) {
	p := 0
	for p < len(data) {
		if len(data)-p < recHeaderLen {
			return p, errInChunk(-1, int64(p), 0, ErrTruncated, "record header cut after %d bytes", len(data)-p)
		}
		op := Op(data[p])
		n := binary.LittleEndian.Uint64(data[p+1:])
		if op == 0 || (op > OpDataEnd && op < 0x80) {
			// Op 0 is never a record, and the ops up to 0x7f are
			// reserved: zeroed or overwritten bytes, not records to
			// skip (as zeroed ones would be, 9 bytes at a time).
			return p, errInChunk(-1, int64(p), op, ErrMalformed, "bytes that are not a record (op 0x%02x)", uint8(op))
		}
		if n > uint64(len(data)-p-recHeaderLen) {
			return p, errInChunk(-1, int64(p), op, ErrTruncated, "record length %d runs past the chunk's records (%d bytes left)", n, len(data)-p-recHeaderLen)
		}
		if op == OpMessage && n < messageHeaderLen {
			return p, errInChunk(-1, int64(p), op, ErrMalformed, "message record of %d bytes is shorter than its fixed fields", n)
		}
		if !fn(op, p, data[p+recHeaderLen:p+recHeaderLen+int(n)]) {
			return p, nil
		}
		p += recHeaderLen + int(n)
	}
	return p, nil
}

// inChunk names the chunk in a FormatError made about its records.
func inChunk(err error, chunkOff int64) error {
	var fe *FormatError
	if errors.As(err, &fe) && fe.Chunk < 0 {
		c := *fe
		c.Chunk = chunkOff
		return &c
	}
	return err
}

// Blocks lists the chunks in file order.
func (x *Reader) Blocks() []*bag.Block {
	x.ensureCounts()
	return x.blocks
}

func (x *Reader) chunkAt(off int64) *chunk {
	i := sort.Search(len(x.chunks), func(i int) bool { return x.chunks[i].Offset >= off })
	if i < len(x.chunks) && x.chunks[i].Offset == off {
		return x.chunks[i]
	}
	return nil
}

var _ bag.BlockIndexLister = (*Reader)(nil)

// IndexRecords returns the file offset of the chunk index record of the
// chunk at file offset block: none when the summary has none for it (a
// file read by a scan).
func (x *Reader) IndexRecords(block int64) ([]int64, bool) {
	if c := x.chunkAt(block); c != nil && c.IndexAt > 0 {
		return []int64{c.IndexAt}, true
	}
	return nil, true
}

// BlockIndex lists a chunk's messages from its message index records, or
// by decompressing it when they are missing.
func (x *Reader) BlockIndex(b *bag.Block) ([]bag.IndexEntry, error) {
	c := x.chunkAt(b.Offset)
	if c == nil {
		return nil, errAt(b.Offset, OpChunk, ErrMalformed, "no chunk at offset %d", b.Offset)
	}
	if ents, err := x.messageIndex(c); err == nil {
		return ents, nil
	}
	ents, err := x.chunkEntries(c)
	sort.SliceStable(ents, func(i, j int) bool { return ents[i].Time.Before(ents[j].Time) })
	return ents, err
}

// BlockIndexCounts returns, per channel, the entries BlockIndex lists for
// b and the error it returns, without listing and sorting them when the
// chunk's message index records read (bag.BlockIndexCounter): the walk
// and checks are BlockIndex's, so where they fail, BlockIndex's own
// entries are counted. Where Blocks has counted the chunk from those
// records already (verify asks for both), its counts are taken rather
// than the records read again.
func (x *Reader) BlockIndexCounts(b *bag.Block) (map[uint32]uint64, error) {
	if c := x.chunkAt(b.Offset); c != nil {
		var counts map[uint16]uint64
		var err error
		if x.counted.Load() && c.indexed {
			counts = c.counts // written before counted was set, never after
		} else {
			counts, err = x.indexCounts(c)
		}
		if err == nil {
			out := make(map[uint32]uint64, len(counts))
			for id, n := range counts {
				if n > 0 {
					out[uint32(id)] = n
				}
			}
			return out, nil
		}
	}
	ents, err := x.BlockIndex(b)
	out := map[uint32]uint64{}
	for _, e := range ents {
		out[e.Conn]++
	}
	return out, err
}

// ReadMessage reads the message of channel conn at loc.
func (x *Reader) ReadMessage(conn uint32, loc bag.Loc) (*bag.Message, error) {
	if c := x.chunkAt(loc.Block); c != nil {
		l, err := x.load(c)
		if err != nil {
			return nil, err
		}
		p := int(loc.Offset)
		if p+recHeaderLen > len(l.data) {
			if l.err != nil {
				return nil, l.err
			}
			return nil, errInChunk(c.Offset, int64(p), OpMessage, ErrMalformed, "offset is past the chunk's %d uncompressed bytes", len(l.data))
		}
		var m *bag.Message
		_, werr := walkRecords(l.data[p:], func(op Op, _ int, content []byte) bool {
			if op == OpMessage {
				m = x.makeMessage(content, loc, int64(p+recHeaderLen+messageHeaderLen))
			}
			return false
		})
		if werr != nil {
			return nil, inChunk(werr, c.Offset)
		}
		if m == nil {
			return nil, errInChunk(c.Offset, int64(p), Op(l.data[p]), ErrMalformed, "no message record at this offset")
		}
		if m.Conn == nil || m.Conn.ID != conn {
			return nil, errInChunk(c.Offset, int64(p), OpMessage, ErrMalformed, "the message here is on channel %d, not %d", binary.LittleEndian.Uint16(l.data[p+recHeaderLen:]), conn)
		}
		m.Suspect = l.suspect
		return m, nil
	}
	hdr, err := x.readAt(loc.Block, recHeaderLen)
	if err != nil {
		return nil, err
	}
	n := binary.LittleEndian.Uint64(hdr[1:])
	if Op(hdr[0]) != OpMessage || n < messageHeaderLen || n > uint64(x.size-loc.Block-recHeaderLen) {
		return nil, errAt(loc.Block, Op(hdr[0]), ErrMalformed, "no message record at this offset")
	}
	content, err := x.readAt(loc.Block+recHeaderLen, int64(n))
	if err != nil {
		return nil, err
	}
	m := x.makeMessage(content, loc, loc.Block+recHeaderLen+messageHeaderLen)
	if m.Conn == nil || m.Conn.ID != conn {
		return nil, errAt(loc.Block, OpMessage, ErrMalformed, "the message here is on channel %d, not %d", binary.LittleEndian.Uint16(content), conn)
	}
	return m, nil
}

func (x *Reader) makeMessage(content []byte, loc bag.Loc, dataOff int64) *bag.Message {
	return &bag.Message{Conn: x.conn(binary.LittleEndian.Uint16(content)),
		Time:        bag.TimeFromUnixNanos(binary.LittleEndian.Uint64(content[6:])),
		PublishTime: bag.TimeFromUnixNanos(binary.LittleEndian.Uint64(content[14:])),
		Data:        bytes.Clone(content[messageHeaderLen:]), Loc: loc, DataOffset: dataOff}
}

// Summary describes the file from its statistics and chunk indexes (or
// what the scan found).
func (x *Reader) Summary() (*bag.Summary, error) {
	s := &bag.Summary{Path: x.info.Path, Format: "MCAP", Version: "0", Size: x.size, Indexed: x.info.Indexed,
		Chunks: len(x.chunks), Compression: map[string]int{}}
	for _, c := range x.chunks {
		s.Compression[compressionName(c.Compression)]++
		s.CompressedBytes += c.CSize
		s.UncompressedBytes += c.USize
	}
	counts := map[uint32]uint64{}
	if x.stats != nil && x.info.Scanned == nil {
		for id, n := range x.stats.ChannelCounts {
			counts[uint32(id)] = n
		}
		s.Messages = x.stats.MessageCount
		if s.Messages > 0 {
			s.Start, s.End = bag.TimeFromUnixNanos(x.stats.Start), bag.TimeFromUnixNanos(x.stats.End)
		}
	} else {
		x.ensureCounts()
		first := true
		var start, end uint64
		see := func(a, b uint64) {
			if first || a < start {
				start = a
			}
			if first || b > end {
				end = b
			}
			first = false
		}
		for _, c := range x.chunks {
			var n uint64
			for id, k := range c.counts {
				counts[uint32(id)] += k
				n += k
			}
			s.Messages += n
			if n > 0 {
				see(c.Start, c.End)
			}
		}
		for _, m := range x.loose {
			counts[uint32(m.Channel)]++
			s.Messages++
			see(m.Time, m.Time)
		}
		if !first {
			s.Start, s.End = bag.TimeFromUnixNanos(start), bag.TimeFromUnixNanos(end)
		}
	}
	s.AddTopics(x.conns, counts)
	return s, nil
}

// Attachments lists the attachments (name, media type, offset, length).
func (x *Reader) Attachments() []AttachmentInfo {
	out := make([]AttachmentInfo, len(x.attachments))
	for i, a := range x.attachments {
		out[i] = AttachmentInfo{Name: a.Name, MediaType: a.MediaType, Offset: int64(a.Offset), Length: int64(a.Length),
			LogTime: bag.TimeFromUnixNanos(a.LogTime), CreateTime: bag.TimeFromUnixNanos(a.CreateTime), DataSize: a.DataSize}
	}
	return out
}

// AttachmentInfo describes one attachment record.
type AttachmentInfo struct {
	Name, MediaType     string
	Offset, Length      int64
	LogTime, CreateTime bag.Time
	DataSize            uint64
}

// MetadataInfo describes one metadata record.
type MetadataInfo struct {
	Name           string
	Offset, Length int64
}

// Metadata lists the metadata records.
func (x *Reader) Metadata() []MetadataInfo {
	out := make([]MetadataInfo, len(x.metas))
	for i, m := range x.metas {
		out[i] = MetadataInfo{Name: m.Name, Offset: int64(m.Offset), Length: int64(m.Length)}
	}
	return out
}
