package mcap

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"sync"

	"github.com/bagscope/bagscope/bag/internal/lz4frame"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// preallocLimit is the largest uncompressed size allocated up front; above
// it (and above preallocRatio times the compressed size) the output buffer
// grows only as decompressed bytes actually arrive, so a lying size cannot
// make the reader allocate.
const (
	preallocLimit = 64 << 20
	preallocRatio = 256
)

// decoders are one goroutine's decompressors, reused from chunk to chunk.
type decoders struct {
	zstd *zstd.Decoder
	// zstdNoCheck skips zstd's own frame checksum, for chunks whose
	// uncompressed_crc is checked anyway.
	zstdNoCheck *zstd.Decoder
	lz4         *lz4.Reader
	src         bytes.Reader
}

var decoderPool = sync.Pool{New: func() any { return &decoders{} }}

func getDecoders() *decoders  { return decoderPool.Get().(*decoders) }
func putDecoders(d *decoders) { d.src.Reset(nil); decoderPool.Put(d) }

func (d *decoders) zstdDecoder(checked bool) (*zstd.Decoder, error) {
	p := &d.zstd
	if checked {
		p = &d.zstdNoCheck
	}
	if *p == nil {
		z, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxChunkSize+1<<20),
			zstd.WithDecodeAllCapLimit(true), zstd.IgnoreChecksum(checked))
		if err != nil {
			return nil, err
		}
		*p = z
	}
	return *p, nil
}

// decompress decompresses a chunk's records into dst (reused when large
// enough) and returns them. On damage it returns what could be decompressed
// before it, with the error. Compression "" returns src itself. checked
// says the caller checks the result against a CRC of its own.
func (d *decoders) decompress(comp string, src []byte, usize uint64, dst []byte, checked bool) ([]byte, error) {
	if usize > MaxChunkSize {
		return nil, fmt.Errorf("uncompressed size %d is over the %d limit: %w", usize, MaxChunkSize, ErrTooLarge)
	}
	switch comp {
	case "":
		return src, nil
	case "zstd":
		z, err := d.zstdDecoder(checked)
		if err != nil {
			return nil, err
		}
		if usize <= preallocLimit || usize <= uint64(len(src))*preallocRatio {
			if uint64(cap(dst)) < usize {
				dst = make([]byte, 0, usize+usize/4)
			}
			out, err := z.DecodeAll(src, dst[:0:usize])
			if err == nil {
				if len(out) > 0 && &out[0] == &dst[:1][0] {
					out = dst[:len(out)] // keep the buffer's whole capacity for reuse
				}
				return out, nil
			}
		}
		d.src.Reset(src)
		if err := z.Reset(&d.src); err != nil {
			return nil, err
		}
		// Reset(nil) hands the stream's block decoder back: with one
		// decoder per Decoder, DecodeAll would wait for it forever.
		defer z.Reset(nil)
		out, err := readGrow(z, usize, len(src), dst)
		if err != nil && uint64(len(out)) < usize && !errors.Is(err, ErrTruncated) {
			// The stream decoder reads a block whole (header, then
			// content) before it decodes it, and hands out whole blocks:
			// the last byte it took is in the block that failed.
			start, end := zstdUnitAt(src, len(src)-d.src.Len()-1)
			err = &streamError{From: start, To: end, Unit: "zstd block", Err: err}
		}
		return out, err
	case "lz4":
		// The common frame block by block into dst; the content checksum
		// is left out when the chunk's CRC is checked anyway.
		// (Decode allocates no more than the input plausibly produces.)
		out, err := lz4frame.Decode(dst, src, int(usize), lz4frame.Options{SkipContentSum: checked, Truncated: ErrTruncated, Malformed: ErrMalformed})
		if !errors.Is(err, lz4frame.ErrUnusual) {
			if err == nil && uint64(len(out)) != usize {
				err = fmt.Errorf("decompressed data is %d bytes, the uncompressed size says %d: %w", len(out), usize, ErrMalformed)
			}
			if be := (*lz4frame.BlockError)(nil); errors.As(err, &be) {
				err = &streamError{From: be.Start, To: be.End, Unit: "lz4 block", Err: err}
			}
			return out, err
		}
		if d.lz4 == nil {
			d.lz4 = lz4.NewReader(nil)
		}
		d.src.Reset(src)
		d.lz4.Reset(&d.src)
		return readGrow(d.lz4, usize, len(src), dst)
	}
	return nil, fmt.Errorf("compression %q: %w", comp, ErrUnsupportedCompression)
}

// streamError is a compressed stream that fails to decompress at a unit
// of its own (a zstd or LZ4 block): the bytes before From yielded the
// output, those from From on yield nothing. From and To are offsets in
// the compressed records.
type streamError struct {
	From, To int
	Unit     string
	Err      error
}

func (e *streamError) Error() string { return e.Err.Error() }
func (e *streamError) Unwrap() error { return e.Err }

// readGrow reads up to usize bytes from r into dst, growing dst as bytes
// arrive, and checks that the stream holds exactly usize bytes.
func readGrow(r io.Reader, usize uint64, srcLen int, dst []byte) ([]byte, error) {
	start := min(usize, uint64(srcLen)*4+64<<10)
	if uint64(cap(dst)) < start {
		dst = make([]byte, 0, start)
	}
	dst = dst[:0]
	for {
		if uint64(len(dst)) == usize {
			// One more byte would mean the declared size is wrong.
			var one [1]byte
			n, err := io.ReadFull(r, one[:])
			if n > 0 {
				return dst, fmt.Errorf("decompressed data is longer than the uncompressed size %d: %w", usize, ErrMalformed)
			}
			if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
				return dst, fmt.Errorf("after %d bytes: %w", len(dst), err)
			}
			return dst, nil
		}
		if len(dst) == cap(dst) {
			grow := min(uint64(cap(dst)), usize-uint64(len(dst)))
			dst = append(dst, make([]byte, grow)...)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):min(uint64(cap(dst)), usize)])
		dst = dst[:len(dst)+n]
		if err != nil {
			if errors.Is(err, io.EOF) {
				if uint64(len(dst)) == usize {
					return dst, nil
				}
				return dst, fmt.Errorf("decompressed data ends after %d of %d bytes: %w", len(dst), usize, ErrTruncated)
			}
			return dst, fmt.Errorf("decompression fails after %d of %d bytes: %w", len(dst), usize, err)
		}
	}
}

// chunkLoad is a chunk record read and decompressed.
type chunkLoad struct {
	hdr  chunkHeader
	data []byte // the uncompressed records, or the prefix that could be read
	// err is the damage met (nil for a sound chunk): data then holds what
	// could be decompressed before it (the records that make sense, for a
	// CRC mismatch, with suspect set).
	err error
	// cut is set when the record runs past the end of the file.
	cut bool
	// suspect says why the records in data are not to be trusted (a CRC
	// mismatch: they are kept, marked); "" when they are.
	suspect string
	// failFrom and failTo are the file offsets of the compressed unit (a
	// zstd or LZ4 block) where decompression failed, or whose output is
	// where the records stop making sense; failUnit names it and failHow
	// says what went wrong. The bytes before failFrom yielded the records
	// read, those from it on nothing. 0 and "" when no such unit is known.
	failFrom, failTo  int64
	failUnit, failHow string
	// readEnd is the file offset the records read came from bytes
	// before: failFrom for a block that does not decompress (it yields
	// nothing), failTo for one whose output stops making sense part way
	// (the records before that point are read).
	readEnd int64
	// recs are the chunk's compressed records as stored, base their file
	// offset (for locate).
	recs []byte
	base int64
}

// readBytes returns how many bytes of the chunk record at off, from its
// start, the records walked (data's first walked bytes) were read from
// when damage stopped the read: those before the compressed unit that
// failed, or, for records stored uncompressed, those before the first
// record that does not make sense. 0 when that is not known (a stream
// that decompressed whole but holds nonsense).
func (l *chunkLoad) readBytes(off int64, walked int) int64 {
	switch {
	case l.readEnd > 0:
		return l.readEnd - off
	case l.hdr.RecordsAt == 0:
	case l.hdr.Compression == "":
		return recHeaderLen + int64(l.hdr.RecordsAt) + int64(walked)
	case walked == len(l.data) && uint64(walked) == l.hdr.USize:
		// Every record decompressed and made sense (a CRC mismatch
		// inside a message: each is kept, suspect).
		return l.base + int64(len(l.recs)) - off
	}
	return 0
}

// locate finds, for a zstd chunk whose records make sense only up to byte
// x of their decompressed output, the compressed block whose output holds
// byte x (failFrom, failTo), unless a unit before it is already known to
// have failed. It decompresses the stream again up to that byte: the
// stream decoder reads a block whole before it hands out its first byte,
// and reads no further while the output asked for is in hand.
func (d *decoders) locate(l *chunkLoad, x int) {
	if l.hdr.Compression != "zstd" || x < 0 || uint64(x) >= l.hdr.USize || len(l.recs) == 0 {
		return
	}
	z, err := d.zstdDecoder(true)
	if err != nil {
		return
	}
	d.src.Reset(l.recs)
	if z.Reset(&d.src) != nil {
		return
	}
	n, _ := io.CopyN(io.Discard, z, int64(x)+1)
	consumed := len(l.recs) - d.src.Len()
	z.Reset(nil)
	d.src.Reset(nil)
	if n != int64(x)+1 || consumed == 0 {
		return
	}
	start, end := zstdUnitAt(l.recs, consumed-1)
	if from := l.base + int64(start); l.failFrom == 0 || from < l.failFrom {
		l.failFrom, l.failTo, l.failUnit, l.failHow = from, l.base+int64(end), "zstd block", "decompresses to records that make no sense"
		l.readEnd = l.failTo
	}
}

// nonsenseAt reports whether the record at x of data is one that stops a
// walk for making no sense, rather than one cut by the end of a stream
// that could not be decompressed whole.
func nonsenseAt(data []byte, x int, whole bool) bool {
	if x >= len(data) {
		return false
	}
	if whole || len(data)-x < recHeaderLen {
		return whole
	}
	return binary.LittleEndian.Uint64(data[x+1:]) <= uint64(len(data)-x-recHeaderLen)
}

// keepTrusted keeps the records of a damaged chunk's data that make sense
// (trustedPrefix), and finds the compressed block where they stop when
// they stop for making none.
func (d *decoders) keepTrusted(l *chunkLoad, data []byte) {
	l.data = trustedPrefix(data, l.hdr)
	if x := len(l.data); nonsenseAt(data, x, uint64(len(data)) == l.hdr.USize) {
		d.locate(l, x)
	}
}

// failWords says where decompression failed: " (the zstd block at file
// offsets 1200..9900 does not decompress)", or "".
func (l *chunkLoad) failWords() string {
	if l.failUnit == "" {
		return ""
	}
	return fmt.Sprintf(" (the %s at file offsets %d..%d %s)", l.failUnit, l.failFrom, l.failTo, l.failHow)
}

// loadChunk parses the chunk record raw (its 9-byte header included,
// possibly cut short by the end of the file) that starts at file offset
// off, and decompresses its records into dst.
func (d *decoders) loadChunk(raw []byte, off int64, declaredLen uint64, dst []byte) chunkLoad {
	var l chunkLoad
	if len(raw) < recHeaderLen || Op(raw[0]) != OpChunk {
		l.err = errAt(off, OpChunk, ErrMalformed, "no chunk record here")
		return l
	}
	content := raw[recHeaderLen:]
	l.cut = uint64(len(content)) < declaredLen
	dc := newDec(content)
	l.hdr = parseChunkHeader(dc)
	if dc.err != nil {
		sentinel := ErrMalformed
		if l.cut {
			sentinel = ErrTruncated
		}
		l.err = errAt(off, OpChunk, sentinel, "chunk header: %v", dc.err)
		return l
	}
	avail := uint64(len(content) - l.hdr.RecordsAt)
	recs := content[l.hdr.RecordsAt:]
	if l.hdr.RecordsLen <= avail {
		recs = recs[:l.hdr.RecordsLen]
	} else if !l.cut {
		l.err = errAt(off, OpChunk, ErrMalformed, "records length %d runs past the record's end (%d bytes left)", l.hdr.RecordsLen, avail)
		return l
	}
	data, err := d.decompress(l.hdr.Compression, recs, l.hdr.USize, dst, l.hdr.CRC != 0 && !l.cut)
	l.data = data
	l.recs, l.base = recs, off+recHeaderLen+int64(l.hdr.RecordsAt)
	if se := (*streamError)(nil); errors.As(err, &se) {
		l.failFrom, l.failTo, l.failUnit, l.failHow = l.base+int64(se.From), l.base+int64(se.To), se.Unit, "does not decompress"
		l.readEnd = l.failFrom
	}
	switch {
	case l.cut:
		l.err = errAt(off, OpChunk, ErrTruncated, "the chunk is cut by the end of the file after %d of %d compressed bytes", avail, l.hdr.RecordsLen)
	case errors.Is(err, ErrUnsupportedCompression) || errors.Is(err, ErrTooLarge):
		l.data = nil
		l.err = errAt(off, OpChunk, errors.Unwrap(err), "%v", err)
	case err != nil && uint64(len(data)) == l.hdr.USize && l.hdr.CRC != 0 && crc32.ChecksumIEEE(data) == l.hdr.CRC:
		// The records are whole and match their CRC: what failed is
		// past them.
	case err != nil:
		if errors.Is(err, zstd.ErrCRCMismatch) || errors.Is(err, lz4.ErrInvalidFrameChecksum) || errors.Is(err, lz4.ErrInvalidBlockChecksum) {
			// The damage is somewhere in what was decompressed: the
			// records that make sense are kept, every one suspect.
			d.keepTrusted(&l, data)
			l.err = errAt(off, OpChunk, ErrCRC, "%s data: %v%s", compressionName(l.hdr.Compression), err, l.failWords())
			l.suspect = fmt.Sprintf("offset %d: read from the chunk at %d, whose %s checksum does not match its data", off, off, compressionName(l.hdr.Compression))
			break
		}
		d.keepTrusted(&l, data)
		l.err = errAt(off, OpChunk, ErrMalformed, "%s data: %v%s", compressionName(l.hdr.Compression), err, l.failWords())
	case uint64(len(data)) != l.hdr.USize:
		l.err = errAt(off, OpChunk, ErrMalformed, "records are %d bytes, uncompressed_size says %d", len(data), l.hdr.USize)
	case l.hdr.CRC != 0:
		if c := crc32.ChecksumIEEE(data); c != l.hdr.CRC {
			// The records that make sense are kept, every one suspect.
			d.keepTrusted(&l, data)
			l.err = errAt(off, OpChunk, ErrCRC, "uncompressed records have CRC %08x, uncompressed_crc says %08x%s", c, l.hdr.CRC, l.failWords())
			l.suspect = fmt.Sprintf("offset %d: read from the chunk at %d, whose records fail their CRC (%08x, uncompressed_crc says %08x)", off, off, c, l.hdr.CRC)
		}
	}
	return l
}

// trustedPrefix returns the records of a damaged chunk's decompressed
// prefix up to the first one that does not make sense (an op that has no
// place in a chunk, a message outside the chunk's time range).
func trustedPrefix(data []byte, h chunkHeader) []byte {
	end, _ := walkRecords(data, func(op Op, _ int, content []byte) bool {
		switch op {
		case OpSchema, OpChannel:
			return true
		case OpMessage:
			t := binary.LittleEndian.Uint64(content[6:])
			return t >= h.Start && t <= h.End
		}
		return false
	})
	return data[:end]
}

func crcIEEE(b []byte) uint32 { return crc32.ChecksumIEEE(b) }
