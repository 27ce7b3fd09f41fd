package ros1

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// ChunkHeader reads (once) the header of the chunk record that ci points at.
func (b *Bag) ChunkHeader(ci *ChunkInfo) (*Chunk, error) {
	return b.ChunkAt(ci.ChunkPos)
}

// ChunkAt reads (once) the header of the chunk record at off.
func (b *Bag) ChunkAt(off int64) (*Chunk, error) {
	b.mu.Lock()
	c := b.chunks[off]
	b.mu.Unlock()
	if c != nil {
		return c, nil
	}
	rec, _, err := b.readRecord(off, nil)
	if err != nil {
		ch, ok := b.recoverChunkLen(rec, err)
		if !ok {
			return nil, err
		}
		b.mu.Lock()
		b.chunks[off] = ch
		b.Warnings = append(b.Warnings, chunkLenWarning(ch, rec.DataLen))
		b.mu.Unlock()
		return ch, nil
	}
	if rec.Op != OpChunk {
		return nil, errAt(off, rec.Op, ErrMalformed, "chunk position points at a %s record, not a chunk", rec.Op)
	}
	if c, err = ParseChunk(rec); err != nil {
		return nil, err
	}
	b.mu.Lock()
	b.chunks[off] = c
	b.mu.Unlock()
	return c, nil
}

// ChunkBuffer holds reusable buffers for reading chunks.
type ChunkBuffer struct {
	raw []byte // compressed bytes
	out []byte // uncompressed bytes
}

// recoverChunkLen finds the real data length of a chunk record whose data
// length field runs past the end of the file (0xffffffff, say) while its
// header is intact: an uncompressed chunk's data is its size field long; a
// compressed chunk's data ends where the next record (its first index data
// record) starts. err is readRecord's error for rec. It returns the chunk
// with its DataLen set, or false when the length cannot be found (the file
// was cut inside the chunk).
func (b *Bag) recoverChunkLen(rec Record, err error) (*Chunk, bool) {
	if rec.Op != OpChunk || rec.Header == nil || !errors.Is(err, ErrTruncated) || rec.DataOffset <= 0 {
		return nil, false
	}
	ch, perr := ParseChunk(rec)
	if perr != nil {
		return nil, false
	}
	var end int64
	if ch.Compression == CompressionNone {
		end = ch.DataOffset + int64(ch.Size)
		if end > b.size {
			return nil, false
		}
		if end < b.size {
			var head [maxResyncHeader + 8]byte
			n, _ := b.r.ReadAt(head[:min(int64(len(head)), b.size-end)], end)
			if !plausibleRecord(head[:n], b.size-end) {
				return nil, false
			}
		}
	} else {
		var buf []byte
		end = b.nextPlausible(ch.DataOffset+1, min(b.size, ch.DataOffset+MaxChunkSize), &buf, OpIndexData)
		if end >= b.size {
			return nil, false
		}
	}
	ch.DataLen = uint32(end - ch.DataOffset)
	ch.LenRecovered = true
	return ch, true
}

// chunkLenWarning says a chunk's data length was recovered.
func chunkLenWarning(ch *Chunk, declared uint32) *FormatError {
	return errAt(ch.Offset, OpChunk, ErrMalformed, "chunk data length field reads %d (%#x), past the end of the file; its data is %d bytes long (found from the record after it), and is read from there", declared, declared, ch.DataLen)
}

// ReadChunkData reads and decompresses the data of chunk c. The result
// aliases buf's memory (pass nil for a fresh buffer) and stays valid until
// buf is used again.
func (b *Bag) ReadChunkData(c *Chunk, buf *ChunkBuffer) ([]byte, error) {
	out, err := b.readChunkData(c, buf)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// readChunkData is ReadChunkData that, when the data cannot be
// decompressed whole, returns what decompressed before the damage with the
// error (a nil result with an error means nothing could be read). An error
// that is not a *FormatError is an I/O error.
func (b *Bag) readChunkData(c *Chunk, buf *ChunkBuffer) ([]byte, error) {
	if buf == nil {
		buf = &ChunkBuffer{}
	}
	if c.DataLen > MaxChunkSize {
		return nil, errAt(c.Offset, OpChunk, ErrTooLarge, "chunk data length %d exceeds the limit of %d bytes", c.DataLen, MaxChunkSize)
	}
	// Chunks differ a little in size: growing by a quarter at least means a
	// reused buffer is seldom reallocated.
	raw := slices.Grow(buf.raw[:0], int(c.DataLen))[:c.DataLen]
	buf.raw = raw
	if err := b.readAt(raw, c.DataOffset, OpChunk, "chunk data"); err != nil {
		return nil, err
	}
	var out []byte
	var err error
	if c.Open && c.Compression != CompressionNone {
		// A salvaged open chunk: keep the complete records of the
		// prefix that decompresses.
		out, _ = decompressPrefix(c.Compression, buf.out, raw, int(c.Size))
		if len(out) < int(c.Size) {
			err = fmt.Errorf("open chunk decompresses to %d bytes, fewer than the %d salvaged before: %w", len(out), c.Size, ErrMalformed)
		} else {
			out = out[:c.Size]
		}
	} else {
		out, err = Decompress(c.Compression, buf.out, raw, c.Size)
	}
	if c.Compression != CompressionNone {
		buf.out = out
	}
	if err != nil {
		if c.Compression != CompressionNone && len(out) > int(c.Size) {
			out = out[:c.Size]
		}
		if unverified(err) {
			// A checksum over output already produced failed: the damage
			// is somewhere in it, so none of it can be trusted.
			out = out[:0]
		}
		return out, &FormatError{Offset: c.DataOffset, Chunk: -1, Op: OpChunk, Msg: err.Error(), Err: unwrapSentinel(err)}
	}
	return out, nil
}

// unverified reports whether a decompression error is a checksum mismatch
// found after the output it covers was produced: bzip2's block and stream
// checksums (a bzip2 chunk is usually one block), LZ4's content checksum.
// LZ4 block checksums are checked before their block is decoded, so the
// output before a bad block stands.
func unverified(err error) bool {
	if err == nil {
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "mismatching block checksum") || strings.Contains(msg, "mismatching stream checksum") ||
		strings.Contains(msg, "lz4 content checksum")
}

// unwrapSentinel returns the package sentinel err wraps, or err itself.
func unwrapSentinel(err error) error {
	for _, s := range []error{ErrUnsupportedCompression, ErrTooLarge, ErrMalformed, ErrTruncated} {
		if errors.Is(err, s) {
			return s
		}
	}
	return fmt.Errorf("%w: %v", ErrMalformed, err)
}

// ChunkIndex reads the index data records that follow chunk ci: one per
// connection in the chunk, as the writer puts them right after the chunk
// record.
//
// For a scanned bag, the index data the scan trusted is returned without
// reading the file again; for the other chunks (the salvaged open chunk,
// chunks whose index data was missing or incomplete) the index is rebuilt
// from the chunk's message records, in file order.
func (b *Bag) ChunkIndex(ci *ChunkInfo) ([]*IndexData, error) {
	if b.Scan != nil {
		if b.trustedIndex[ci.ChunkPos] {
			return b.scannedIndex(ci.ChunkPos), nil
		}
		return b.rebuildIndex(ci)
	}
	ch, err := b.ChunkHeader(ci)
	if err != nil {
		return nil, err
	}
	off := ch.End()
	out := make([]*IndexData, 0, len(ci.Conns))
	for range ci.Conns {
		rec, _, err := b.readRecord(off, nil)
		if err != nil {
			return out, err
		}
		if rec.Op != OpIndexData {
			return out, errAt(off, rec.Op, ErrMalformed, "expected an index data record after the chunk at %d, found a %s record", ci.ChunkPos, rec.Op)
		}
		data, err := b.ReadData(&rec)
		if err != nil {
			return out, err
		}
		x, err := ParseIndexData(rec, data)
		if err != nil {
			return out, err
		}
		out = append(out, x)
		off = rec.End()
	}
	return out, nil
}

// rebuildIndex makes index data for a chunk from its message data records:
// one record per connection, entries in file order.
func (b *Bag) rebuildIndex(ci *ChunkInfo) ([]*IndexData, error) {
	ch, err := b.ChunkHeader(ci)
	if err != nil {
		return nil, err
	}
	var buf ChunkBuffer
	data, err := b.ReadChunkData(ch, &buf)
	if err != nil {
		return nil, err
	}
	byConn := map[uint32]*IndexData{}
	var out []*IndexData
	w := NewChunkWalker(data, ch.Offset)
	for w.Next() {
		rec := w.Record()
		if rec.Op != OpMessageData {
			continue
		}
		m, err := ParseMessageData(*rec)
		if err != nil {
			return out, err
		}
		x := byConn[m.Conn]
		if x == nil {
			x = &IndexData{Record: Record{Op: OpIndexData, Pos: Pos{Offset: -1}}, Ver: 1, Conn: m.Conn}
			byConn[m.Conn] = x
			out = append(out, x)
		}
		x.Entries = append(x.Entries, IndexEntry{Time: m.Time, Offset: uint32(rec.Offset)})
		x.Count++
	}
	return out, w.Err()
}
