package ros1

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"sort"

	"github.com/dsnet/compress/bzip2"
	"github.com/pierrec/lz4/v4"
)

// DefaultChunkThreshold is the uncompressed chunk size at which the
// reference writer closes a chunk.
const DefaultChunkThreshold = 768 * 1024

// WriterOptions configure a Writer.
type WriterOptions struct {
	// Compression is "none" (default), "bz2" or "lz4".
	Compression string
	// ChunkThreshold is the uncompressed size at which a chunk is closed;
	// 0 means DefaultChunkThreshold.
	ChunkThreshold int
}

// Writer writes an indexed bag (format 2.0) as the reference writer lays
// it out: version line, a 4096-byte bag header, chunks each followed by
// their index data records, then the index section (connections and chunk
// infos). Call Close to write the index; until then the file is unindexed.
// Compressed chunks are compressed on one worker per core and written in
// order, at most two per worker behind.
type Writer struct {
	w   io.WriteSeeker
	opt WriterOptions
	pos int64
	err error

	conns     map[uint32]*Connection
	connOrder []uint32
	// The open chunk.
	open       *pendingChunk
	chunkConns map[uint32]bool
	// comp compresses closed chunks; nil until the first one.
	comp *inOrder[pendingChunk]

	infos []chunkInfoW
}

// pendingChunk is a chunk's records and index, then its compressed data.
type pendingChunk struct {
	raw        bytes.Buffer // uncompressed records
	z          bytes.Buffer // compressed data, once done
	err        error
	index      map[uint32][]IndexEntry
	start, end Time
	hasMsgs    bool
}

// reset empties the chunk for reuse.
func (p *pendingChunk) reset() {
	p.raw.Reset()
	p.z.Reset()
	if p.index == nil {
		p.index = map[uint32][]IndexEntry{}
	}
	clear(p.index)
	p.err, p.hasMsgs = nil, false
}

type chunkInfoW struct {
	pos        int64
	start, end Time
	counts     []ChunkConnCount
}

// NewWriter starts a bag on w, which must be positioned at its start.
func NewWriter(w io.WriteSeeker, opt WriterOptions) (*Writer, error) {
	if opt.Compression == "" {
		opt.Compression = CompressionNone
	}
	switch opt.Compression {
	case CompressionNone, CompressionBZ2, CompressionLZ4:
	default:
		return nil, fmt.Errorf("compression %q: %w", opt.Compression, ErrUnsupportedCompression)
	}
	if opt.ChunkThreshold <= 0 {
		opt.ChunkThreshold = DefaultChunkThreshold
	}
	bw := &Writer{w: w, opt: opt, conns: map[uint32]*Connection{}, chunkConns: map[uint32]bool{}}
	bw.open = &pendingChunk{}
	bw.open.reset()
	bw.write([]byte(Magic + "2.0\n"))
	bw.write(bagHeaderRecord(0, 0, 0))
	return bw, bw.err
}

// AddConnection declares a connection. Its ID, topic and connection header
// fields are written as they are.
func (w *Writer) AddConnection(c *Connection) error {
	if _, dup := w.conns[c.ID]; dup {
		return fmt.Errorf("connection %d added twice", c.ID)
	}
	w.conns[c.ID] = c
	w.connOrder = append(w.connOrder, c.ID)
	return nil
}

// WriteMessage appends a message of connection conn received at t.
func (w *Writer) WriteMessage(conn uint32, t Time, data []byte) error {
	if w.err != nil {
		return w.err
	}
	c := w.conns[conn]
	if c == nil {
		return fmt.Errorf("message of connection %d, which was not added", conn)
	}
	ch := w.open
	if !w.chunkConns[conn] {
		w.chunkConns[conn] = true
		ch.raw.Write(connectionRecord(c))
	}
	ch.index[conn] = append(ch.index[conn], IndexEntry{Time: t, Offset: uint32(ch.raw.Len())})
	var hdr [64]byte
	h := appendField(hdr[:0], "op", []byte{byte(OpMessageData)})
	h = appendField(h, "conn", binary.LittleEndian.AppendUint32(nil, conn))
	h = appendField(h, "time", appendTime(nil, t))
	writeRecord(&ch.raw, h, data)
	if !ch.hasMsgs || t.Before(ch.start) {
		ch.start = t
	}
	if !ch.hasMsgs || ch.end.Before(t) {
		ch.end = t
	}
	ch.hasMsgs = true
	if ch.raw.Len() >= w.opt.ChunkThreshold {
		w.flushChunk()
	}
	return w.err
}

// Close writes the last chunk and the index section and patches the bag
// header. It does not close the underlying file.
func (w *Writer) Close() error {
	w.flushChunk()
	if w.comp != nil {
		for w.comp.Len() > 0 {
			w.writeOldest()
		}
		w.comp.Close()
		w.comp = nil
	}
	indexPos := w.pos
	ids := append([]uint32(nil), w.connOrder...)
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		w.write(connectionRecord(w.conns[id]))
	}
	for _, ci := range w.infos {
		h := appendField(nil, "op", []byte{byte(OpChunkInfo)})
		h = appendField(h, "ver", binary.LittleEndian.AppendUint32(nil, 1))
		h = appendField(h, "chunk_pos", binary.LittleEndian.AppendUint64(nil, uint64(ci.pos)))
		h = appendField(h, "start_time", appendTime(nil, ci.start))
		h = appendField(h, "end_time", appendTime(nil, ci.end))
		h = appendField(h, "count", binary.LittleEndian.AppendUint32(nil, uint32(len(ci.counts))))
		var d []byte
		for _, cc := range ci.counts {
			d = binary.LittleEndian.AppendUint32(d, cc.Conn)
			d = binary.LittleEndian.AppendUint32(d, cc.Count)
		}
		var rb bytes.Buffer
		writeRecord(&rb, h, d)
		w.write(rb.Bytes())
	}
	if w.err != nil {
		return w.err
	}
	if _, err := w.w.Seek(VersionLineLen, io.SeekStart); err != nil {
		return err
	}
	if _, err := w.w.Write(bagHeaderRecord(indexPos, uint32(len(w.conns)), uint32(len(w.infos)))); err != nil {
		return err
	}
	_, err := w.w.Seek(0, io.SeekEnd)
	return err
}

// flushChunk closes the open chunk: it is written now when uncompressed,
// else handed to the compression workers and written once it is the
// oldest and done.
func (w *Writer) flushChunk() {
	ch := w.open
	if w.err != nil || !ch.hasMsgs {
		return
	}
	clear(w.chunkConns)
	if w.opt.Compression == CompressionNone {
		w.writeChunk(ch, ch.raw.Bytes())
		ch.reset()
		return
	}
	if w.comp == nil {
		comp := w.opt.Compression
		w.comp = newInOrder(func(ch *pendingChunk) { ch.err = compressChunk(comp, &ch.z, ch.raw.Bytes()) })
	}
	if w.comp.Full() {
		w.writeOldest()
	}
	// The workers take the open chunk; a written one becomes the open one.
	w.comp.Submit(func(p *pendingChunk) { *p, *w.open = *w.open, *p })
	w.open.reset()
}

// writeOldest waits for the oldest compressed chunk and writes it.
func (w *Writer) writeOldest() {
	ch := w.comp.Oldest()
	if ch.err != nil && w.err == nil {
		w.err = ch.err
	}
	w.writeChunk(ch, ch.z.Bytes())
	w.comp.Recycle()
}

// writeChunk writes a chunk record holding data (ch's records, compressed
// or not) and its index data records, and notes its chunk info.
func (w *Writer) writeChunk(ch *pendingChunk, data []byte) {
	if w.err != nil {
		return
	}
	pos := w.pos
	h := appendField(nil, "op", []byte{byte(OpChunk)})
	h = appendField(h, "compression", []byte(w.opt.Compression))
	h = appendField(h, "size", binary.LittleEndian.AppendUint32(nil, uint32(ch.raw.Len())))
	var rb bytes.Buffer
	writeRecord(&rb, h, nil)
	hdr := rb.Bytes()
	binary.LittleEndian.PutUint32(hdr[len(hdr)-4:], uint32(len(data)))
	w.write(hdr)
	w.write(data)
	ci := chunkInfoW{pos: pos, start: ch.start, end: ch.end}
	ids := make([]uint32, 0, len(ch.index))
	for id := range ch.index {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		entries := ch.index[id]
		h := appendField(nil, "op", []byte{byte(OpIndexData)})
		h = appendField(h, "ver", binary.LittleEndian.AppendUint32(nil, 1))
		h = appendField(h, "conn", binary.LittleEndian.AppendUint32(nil, id))
		h = appendField(h, "count", binary.LittleEndian.AppendUint32(nil, uint32(len(entries))))
		d := make([]byte, 0, 12*len(entries))
		for _, e := range entries {
			d = appendTime(d, e.Time)
			d = binary.LittleEndian.AppendUint32(d, e.Offset)
		}
		rb.Reset()
		writeRecord(&rb, h, d)
		w.write(rb.Bytes())
		ci.counts = append(ci.counts, ChunkConnCount{id, uint32(len(entries))})
	}
	w.infos = append(w.infos, ci)
}

func (w *Writer) write(p []byte) {
	if w.err != nil {
		return
	}
	n, err := w.w.Write(p)
	w.pos += int64(n)
	w.err = err
}

// connectionRecord encodes a connection record: op, conn and topic in the
// record header, the connection header fields as data.
func connectionRecord(c *Connection) []byte {
	h := appendField(nil, "op", []byte{byte(OpConnection)})
	h = appendField(h, "conn", binary.LittleEndian.AppendUint32(nil, c.ID))
	h = appendField(h, "topic", []byte(c.Topic))
	var d []byte
	for _, f := range c.Fields {
		d = appendField(d, f.Name, f.Value)
	}
	var b bytes.Buffer
	writeRecord(&b, h, d)
	return b.Bytes()
}

// bagHeaderRecord encodes the bag header, padded with spaces to 4096 bytes
// as the reference writer does.
func bagHeaderRecord(indexPos int64, conns, chunks uint32) []byte {
	h := appendField(nil, "op", []byte{byte(OpBagHeader)})
	h = appendField(h, "index_pos", binary.LittleEndian.AppendUint64(nil, uint64(indexPos)))
	h = appendField(h, "conn_count", binary.LittleEndian.AppendUint32(nil, conns))
	h = appendField(h, "chunk_count", binary.LittleEndian.AppendUint32(nil, chunks))
	var b bytes.Buffer
	writeRecord(&b, h, bytes.Repeat([]byte{' '}, 4096-len(h)-8))
	return b.Bytes()
}

func appendField(b []byte, name string, value []byte) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(name)+1+len(value)))
	b = append(b, name...)
	b = append(b, '=')
	return append(b, value...)
}

func appendTime(b []byte, t Time) []byte {
	b = binary.LittleEndian.AppendUint32(b, t.Sec)
	return binary.LittleEndian.AppendUint32(b, t.NSec)
}

func writeRecord(w *bytes.Buffer, header, data []byte) {
	var n [4]byte
	binary.LittleEndian.PutUint32(n[:], uint32(len(header)))
	w.Write(n[:])
	w.Write(header)
	binary.LittleEndian.PutUint32(n[:], uint32(len(data)))
	w.Write(n[:])
	w.Write(data)
}

// compressChunk compresses a chunk's records into z (emptied first), with
// a compressor from the pool.
func compressChunk(compression string, z *bytes.Buffer, raw []byte) error {
	z.Reset()
	pool := compressors[compression]
	if pool == nil {
		return fmt.Errorf("%w: cannot write %q chunks", ErrUnsupportedCompression, compression)
	}
	c := pool.Get().(chunkCompressor)
	err := c.compress(z, raw)
	if err == nil {
		// A compressor that failed may hold a half-written stream.
		pool.Put(c)
	}
	return err
}

// chunkCompressor compresses one chunk's records at a time and is reused
// for the next: a new compressor per chunk allocated its tables per chunk
// (dsnet's bzip2 writer at level 9: its 900 kB block, the block twice over
// and a suffix array of 2×900k ints, 17 MB), and the garbage made fix of a
// bz2 bag peak at 131 MB (issue 29).
type chunkCompressor interface {
	compress(z *bytes.Buffer, raw []byte) error
}

// compressors are the idle compressors, kept across collections and at
// most GOMAXPROCS of each (decoderPool): the writer's workers take one each.
var compressors = map[string]*decoderPool{
	CompressionBZ2: {New: func() any { return &bz2Compressor{} }},
	CompressionLZ4: {New: func() any { return &lz4Compressor{} }},
}

// bz2Level is the bzip2 level the writer compresses at: blocks of 400 kB
// rather than the reference writer's 900 kB (level 9). dsnet's encoder
// holds 20 bytes a byte of its block (the block twice over and a suffix
// array of 2×n ints): 7 MB a worker rather than 17, which took fix of a
// bz2 bag from 67 to 59 MiB of peak RSS. A 768 kB chunk is two blocks;
// on mixed_bz2.bag the copy came out 0.2% larger and 20% faster (13.91
// against 13.88 MB, 5.2 against 6.8 s of CPU). Any reader reads any
// level: the stream header says it ("BZh4").
const bz2Level = 4

type bz2Compressor struct{ w *bzip2.Writer }

func (c *bz2Compressor) compress(z *bytes.Buffer, raw []byte) error {
	if c.w == nil {
		w, err := bzip2.NewWriter(z, &bzip2.WriterConfig{Level: bz2Level})
		if err != nil {
			return err
		}
		c.w = w
	} else if err := c.w.Reset(z); err != nil {
		return err
	}
	if _, err := c.w.Write(raw); err != nil {
		return err
	}
	return c.w.Close()
}

// lz4Compressor writes LZ4 frames of 1 MiB blocks, as roslz4 does
// (block size ID 6), rather than pierrec/lz4's default 4 MiB, whose
// buffers (a block and its compressed copy, 8 MiB a worker) held more
// than a chunk of 768 kB needs.
type lz4Compressor struct{ w *lz4.Writer }

func (c *lz4Compressor) compress(z *bytes.Buffer, raw []byte) error {
	if c.w == nil {
		c.w = lz4.NewWriter(z)
		if err := c.w.Apply(lz4.BlockSizeOption(lz4.Block1Mb)); err != nil {
			return err
		}
	} else {
		c.w.Reset(z)
	}
	if _, err := c.w.Write(raw); err != nil {
		return err
	}
	return c.w.Close()
}
