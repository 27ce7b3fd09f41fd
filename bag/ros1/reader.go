package ros1

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/bagscope/bagscope/bag"
)

// Limits on lengths read from the file. A length above a limit is reported
// as ErrTooLarge instead of being allocated.
const (
	MaxHeaderLen = 16 << 20 // a record header
	MaxDataLen   = 1 << 30  // a record's data read into memory
	MaxChunkSize = 1 << 30  // a chunk's uncompressed size
)

// Magic is the start of every ROS bag's version line.
const Magic = "#ROSBAG V"

// VersionLineLen is the length of "#ROSBAG V2.0\n".
const VersionLineLen = 13

// Bag is an opened bag file: its version, bag header and index section.
// Chunks are read on demand. A Bag is safe for concurrent use by several
// goroutines.
type Bag struct {
	r      io.ReaderAt
	size   int64
	closer io.Closer
	path   string

	// Version is the format version from the first line ("2.0").
	Version string
	// Header is the bag header record.
	Header *BagHeader
	// Connections from the index section, sorted by ID.
	Connections []*Connection
	// ChunkInfos from the index section, in file order.
	ChunkInfos []*ChunkInfo
	// Scan is set when the bag was read by scanning instead of through
	// its index (see Scan); it says what was found.
	Scan *ScanReport
	// Warnings are problems found while opening that did not stop it
	// (counts that disagree with the bag header, unexpected records in
	// the index section).
	Warnings []error

	connByID map[uint32]*Connection

	// scanIndex holds, for a scanned bag, the index data records found
	// after each closed chunk, by chunk position (for Check), without their
	// entries (scannedIndex reads them again).
	scanIndex map[int64][]*IndexData
	// scanDigest holds, beside each of those records, the sum of its
	// entries' entryDigest, which is all a vouch needs of them
	// (chunkVouch.fits): the doctor need not read them again.
	scanDigest map[int64][]uint64
	// trustedIndex says which of those chunks' index data the scan trusted
	// (complete, and naming only known connections).
	trustedIndex map[int64]bool

	mu     sync.Mutex
	chunks map[int64]*Chunk // chunk record headers read so far, by position
	// vouch, once VouchReads is called, keeps what reads found of the
	// chunks they decompressed, for the quick doctor after them.
	vouch *vouches
	// pre is the doctor's reading of the structure, started beside a read
	// when vouches are kept (preScanRead), or nil; preTaken says a check
	// took it.
	pre      *preScan
	preTaken bool
}

// Open opens the bag file at path. Close it when done.
func Open(path string) (*Bag, error) { return openFile(path, NewReader) }

// OpenRaw opens the file at path with NewRawReader. Close it when done.
func OpenRaw(path string) (*Bag, error) { return openFile(path, NewRawReader) }

func openFile(path string, open func(io.ReaderAt, int64) (*Bag, error)) (*Bag, error) {
	f, err := bag.FSFor(path).Open(path) // a local path, or a URL read in place
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	b, err := open(f, st.Size())
	if err != nil {
		f.Close()
		return nil, err
	}
	b.closer = f
	b.path = bag.Shown(path)
	return b, nil
}

// NewReader opens a bag held by r, which has size bytes. It reads the
// version line, the bag header and the index section.
func NewReader(r io.ReaderAt, size int64) (*Bag, error) {
	b := &Bag{r: r, size: size, chunks: map[int64]*Chunk{}}
	v, err := ReadVersion(r, size)
	if err != nil {
		return nil, err
	}
	b.Version = v
	rec, _, err := b.readRecord(VersionLineLen, nil)
	if err != nil {
		return nil, err
	}
	if rec.Op != OpBagHeader {
		return nil, errAt(rec.Offset, rec.Op, ErrMalformed, "first record is a %s record, want a bag header", rec.Op)
	}
	if b.Header, err = ParseBagHeader(rec); err != nil {
		return nil, err
	}
	if b.Header.IndexPos == 0 {
		return nil, errAt(rec.HeaderOffset, OpBagHeader, ErrUnindexed, "bag header has index_pos 0: the bag is unindexed (the recording was not closed)")
	}
	if b.Header.IndexPos < rec.End() || b.Header.IndexPos > size {
		return nil, errAt(rec.HeaderOffset, OpBagHeader, ErrTruncated, "index_pos %d is outside the file (records start at %d, file has %d bytes): the index section is missing", b.Header.IndexPos, rec.End(), size)
	}
	if b.Header.IndexPos == size && (b.Header.ConnCount > 0 || b.Header.ChunkCount > 0) {
		return nil, errAt(rec.HeaderOffset, OpBagHeader, ErrTruncated, "the file ends at index_pos %d, where the index section of %d connections and %d chunks should start: the index section is missing", size, b.Header.ConnCount, b.Header.ChunkCount)
	}
	if err := b.readIndex(); err != nil {
		return nil, err
	}
	return b, nil
}

// ReadVersion reads the version line at the start of r and returns the
// version ("2.0").
func ReadVersion(r io.ReaderAt, size int64) (string, error) {
	if size == 0 {
		return "", errAt(0, 0, ErrNotBag, "empty file")
	}
	var line [VersionLineLen]byte
	n, err := r.ReadAt(line[:], 0)
	if n < len(Magic) || !bytes.HasPrefix(line[:n], []byte(Magic)) {
		if err != nil && !errors.Is(err, io.EOF) {
			return "", err
		}
		return "", errAt(0, 0, ErrNotBag, "file does not start with %q", Magic)
	}
	nl := bytes.IndexByte(line[:n], '\n')
	if nl < 0 {
		return "", errAt(0, 0, ErrNotBag, "version line is not terminated")
	}
	v := string(line[len(Magic):nl])
	if v != "2.0" {
		return v, errAt(int64(len(Magic)), 0, ErrUnsupportedVersion, "unsupported bag version %s (only 2.0 is read)", v)
	}
	return v, nil
}

// Size returns the file's size in bytes.
func (b *Bag) Size() int64 { return b.size }

// Path returns the path given to Open, or "".
func (b *Bag) Path() string { return b.path }

// ReaderAt returns the underlying reader.
func (b *Bag) ReaderAt() io.ReaderAt { return b.r }

// Close closes the file opened by Open.
func (b *Bag) Close() error {
	if b.closer != nil {
		return b.closer.Close()
	}
	return nil
}

// Connection returns the connection with the given ID, or nil.
func (b *Bag) Connection(id uint32) *Connection { return b.connByID[id] }

// readAt reads len(p) bytes at off, reporting a short read as ErrTruncated.
func (b *Bag) readAt(p []byte, off int64, op Op, what string) error {
	if off < 0 || off+int64(len(p)) > b.size {
		return errAt(off, op, ErrTruncated, "%s needs %d bytes but the file ends at %d", what, len(p), b.size)
	}
	n, err := b.r.ReadAt(p, off)
	if n == len(p) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return errAt(off, op, ErrTruncated, "%s: read %d of %d bytes", what, n, len(p))
	}
	return fmt.Errorf("reading %s at offset %d: %w", what, off, err)
}

// recordLookahead is how many bytes readRecord reads at once: enough for
// the lengths and header of a chunk, connection, chunk info or index data
// record, so that one pread usually gets the whole header.
const recordLookahead = 128

// readRecord reads the record at off: its lengths and header (not its
// data). buf is reused if large enough; the returned Record's header values
// alias the returned buffer (which holds the header_len field, the header
// and the data_len field).
func (b *Bag) readRecord(off int64, buf []byte) (Record, []byte, error) {
	var rec Record
	if off < 0 || off+4 > b.size {
		var lenb [4]byte
		return rec, buf, b.readAt(lenb[:], off, 0, "record header length")
	}
	// One read for the lengths and, usually, the whole header.
	got := int(min(int64(max(recordLookahead, cap(buf))), b.size-off))
	if cap(buf) < got {
		buf = make([]byte, got)
	}
	buf = buf[:got]
	n, err := b.r.ReadAt(buf, off)
	if n < 4 {
		if err == nil || errors.Is(err, io.EOF) {
			return rec, buf, errAt(off, 0, ErrTruncated, "record header length: read %d of %d bytes", n, 4)
		}
		return rec, buf, fmt.Errorf("reading record header length at offset %d: %w", off, err)
	}
	got = n
	hlen := le32(buf)
	if hlen > MaxHeaderLen {
		return rec, buf, errAt(off, 0, ErrTooLarge, "record header length %d exceeds the limit of %d bytes", hlen, MaxHeaderLen)
	}
	if rem := b.size - off - 4; int64(hlen)+4 > rem {
		return rec, buf, errAt(off, 0, ErrTruncated, "record header length %d plus data length field exceeds the %d bytes left in the file", hlen, rem)
	}
	need := 4 + int(hlen) + 4
	if got < need {
		if cap(buf) < need {
			nb := make([]byte, need)
			copy(nb, buf[:got])
			buf = nb
		}
		buf = buf[:need]
		if err := b.readAt(buf[got:], off+int64(got), 0, "record header"); err != nil {
			return rec, buf, err
		}
	}
	buf = buf[:need]
	hdr := buf[4:]
	rec.Offset = off
	rec.HeaderOffset = off + 4
	rec.HeaderLen = hlen
	rec.DataOffset = off + 8 + int64(hlen)
	rec.DataLen = le32(hdr[hlen:])
	h, err := parseHeader(hdr[:hlen], rec.HeaderOffset, nil)
	if err != nil {
		return rec, buf, err
	}
	rec.Header = h
	if rec.Op, err = opOf(h, rec.HeaderOffset); err != nil {
		return rec, buf, err
	}
	if rem := b.size - rec.DataOffset; int64(rec.DataLen) > rem {
		return rec, buf, errAt(off, rec.Op, ErrTruncated, "%s record declares %d data bytes but only %d remain in the file", rec.Op, rec.DataLen, rem)
	}
	return rec, buf, nil
}

// ReadData reads a top-level record's data bytes.
func (b *Bag) ReadData(rec *Record) ([]byte, error) {
	if rec.DataLen > MaxDataLen {
		return nil, errAt(rec.Offset, rec.Op, ErrTooLarge, "record data length %d exceeds the limit of %d bytes", rec.DataLen, MaxDataLen)
	}
	p := make([]byte, rec.DataLen)
	if err := b.readAt(p, rec.DataOffset, rec.Op, "record data"); err != nil {
		return nil, err
	}
	return p, nil
}

// ReadRecord reads the top-level record at off (header parsed, data not
// read). Its header is owned by the caller.
func (b *Bag) ReadRecord(off int64) (Record, error) {
	rec, _, err := b.readRecord(off, nil)
	return rec, err
}

// readIndex reads the connection and chunk info records of the index
// section, from index_pos to the end of the file.
func (b *Bag) readIndex() error {
	b.connByID = map[uint32]*Connection{}
	off := b.Header.IndexPos
	// The index section is small (a few hundred bytes per chunk): read it
	// in one go instead of two or three reads per record.
	if n := b.size - off; n > 0 && n <= maxIndexPrefetch {
		sec := make([]byte, n)
		if m, _ := b.r.ReadAt(sec, off); int64(m) == n {
			r := b.r
			b.r = &prefetched{r: r, base: off, data: sec}
			defer func() { b.r = r }()
		}
	}
	for off < b.size {
		rec, _, err := b.readRecord(off, nil)
		if err != nil {
			return err
		}
		switch rec.Op {
		case OpConnection:
			data, err := b.ReadData(&rec)
			if err != nil {
				return err
			}
			c, err := ParseConnection(rec, data)
			if err != nil {
				return err
			}
			if old, dup := b.connByID[c.ID]; dup {
				b.Warnings = append(b.Warnings, errAt(rec.Offset, OpConnection, ErrMalformed, "connection %d defined again (first at %d); the later one is used", c.ID, old.Offset))
			}
			b.connByID[c.ID] = c
		case OpChunkInfo:
			data, err := b.ReadData(&rec)
			if err != nil {
				return err
			}
			ci, err := ParseChunkInfo(rec, data)
			if err != nil {
				return err
			}
			b.ChunkInfos = append(b.ChunkInfos, ci)
		default:
			b.Warnings = append(b.Warnings, errAt(rec.Offset, rec.Op, ErrMalformed, "unexpected %s record in the index section", rec.Op))
		}
		off = rec.End()
	}
	for _, c := range b.connByID {
		b.Connections = append(b.Connections, c)
	}
	sort.Slice(b.Connections, func(i, j int) bool { return b.Connections[i].ID < b.Connections[j].ID })
	if n := uint32(len(b.Connections)); n != b.Header.ConnCount {
		b.Warnings = append(b.Warnings, errAt(b.Header.HeaderOffset, OpBagHeader, ErrMalformed, "bag header says %d connections, the index section has %d", b.Header.ConnCount, n))
	}
	if n := uint32(len(b.ChunkInfos)); n < b.Header.ChunkCount {
		// Like the reference, which reads chunk_count chunk infos: the
		// index section is cut or damaged, and a scan finds the chunks.
		return errAt(b.Header.HeaderOffset, OpBagHeader, ErrTruncated, "bag header says %d chunks, the index section has only %d chunk info records: it is incomplete", b.Header.ChunkCount, n)
	} else if n != b.Header.ChunkCount {
		b.Warnings = append(b.Warnings, errAt(b.Header.HeaderOffset, OpBagHeader, ErrMalformed, "bag header says %d chunks, the index section has %d", b.Header.ChunkCount, n))
	}
	for _, ci := range b.ChunkInfos {
		for _, cc := range ci.Conns {
			if b.connByID[cc.Conn] == nil {
				b.Warnings = append(b.Warnings, errAt(ci.Offset, OpChunkInfo, ErrMalformed, "chunk info lists connection %d, which the index does not define", cc.Conn))
			}
		}
	}
	return nil
}

// NewRawReader opens a bag for walking its records only: it checks the
// version line and reads the bag header if it can, but needs no index, so
// it works on unindexed and damaged bags. Connections and ChunkInfos are
// empty.
func NewRawReader(r io.ReaderAt, size int64) (*Bag, error) {
	b := &Bag{r: r, size: size, chunks: map[int64]*Chunk{}, connByID: map[uint32]*Connection{}}
	v, err := ReadVersion(r, size)
	if err != nil {
		return nil, err
	}
	b.Version = v
	if rec, _, err := b.readRecord(VersionLineLen, nil); err == nil && rec.Op == OpBagHeader {
		b.Header, _ = ParseBagHeader(rec)
	}
	return b, nil
}

// maxIndexPrefetch is the largest index section readIndex reads in one go.
const maxIndexPrefetch = 64 << 20

// prefetched serves reads inside [base, base+len(data)) from data and the
// others from r.
type prefetched struct {
	r    io.ReaderAt
	base int64
	data []byte
}

func (p *prefetched) ReadAt(q []byte, off int64) (int, error) {
	if off >= p.base && off+int64(len(q)) <= p.base+int64(len(p.data)) {
		return copy(q, p.data[off-p.base:]), nil
	}
	return p.r.ReadAt(q, off)
}
