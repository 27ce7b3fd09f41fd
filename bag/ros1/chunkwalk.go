package ros1

// ChunkWalker walks the records inside a chunk's uncompressed data. Offsets
// in the records it yields are relative to the start of that data.
//
//	w := NewChunkWalker(data, chunkPos)
//	for w.Next() {
//		rec := w.Record()
//		...
//	}
//	if err := w.Err(); err != nil { ... }
type ChunkWalker struct {
	data     []byte
	chunkPos int64
	pos      int
	rec      Record
	hdr      Header
	err      error
}

// NewChunkWalker returns a walker over data, the uncompressed bytes of the
// chunk record at chunkPos (used in errors).
func NewChunkWalker(data []byte, chunkPos int64) *ChunkWalker {
	return &ChunkWalker{data: data, chunkPos: chunkPos}
}

// Next advances to the next record. It returns false at the end of the data
// or on an error (see Err).
func (w *ChunkWalker) Next() bool {
	if w.err != nil || w.pos >= len(w.data) {
		return false
	}
	rec, hdr, err := parseRecordBytes(w.data, w.pos, w.hdr)
	w.hdr = hdr
	if err != nil {
		w.err = inChunk(err, w.chunkPos)
		return false
	}
	w.rec = rec
	w.pos = int(rec.End())
	return true
}

// Record returns the current record. Its header aliases the chunk data and
// is reused by the next call to Next.
func (w *ChunkWalker) Record() *Record { return &w.rec }

// Data returns the current record's data bytes (aliasing the chunk data).
func (w *ChunkWalker) Data() []byte {
	return w.data[w.rec.DataOffset:w.rec.End()]
}

// Err returns the error that stopped the walk, if any.
func (w *ChunkWalker) Err() error { return w.err }

// parseRecordBytes parses the record starting at off in data. hdr is reused
// for the header fields.
func parseRecordBytes(data []byte, off int, hdr Header) (Record, Header, error) {
	var rec Record
	rem := len(data) - off
	if rem < 4 {
		return rec, hdr, errAt(int64(off), 0, ErrTruncated, "record header length cut off: %d bytes left", rem)
	}
	hlen := int64(le32(data[off:]))
	if hlen+8 > int64(rem) {
		return rec, hdr, errAt(int64(off), 0, ErrTruncated, "record header length %d plus data length field exceeds the %d bytes left", hlen, rem-4)
	}
	h := data[off+4 : off+4+int(hlen)]
	dlen := le32(data[off+4+int(hlen):])
	rec.Offset = int64(off)
	rec.HeaderOffset = int64(off) + 4
	rec.HeaderLen = uint32(hlen)
	rec.DataOffset = int64(off) + 8 + hlen
	rec.DataLen = dlen
	var err error
	if hdr, err = parseHeader(h, rec.HeaderOffset, hdr); err != nil {
		return rec, hdr, err
	}
	rec.Header = hdr
	if rec.Op, err = opOf(hdr, rec.HeaderOffset); err != nil {
		return rec, hdr, err
	}
	if left := int64(len(data)) - rec.DataOffset; int64(dlen) > left {
		return rec, hdr, errAt(int64(off), rec.Op, ErrTruncated, "%s record declares %d data bytes but only %d remain", rec.Op, dlen, left)
	}
	return rec, hdr, nil
}
