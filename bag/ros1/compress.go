package ros1

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"

	"github.com/dsnet/compress/bzip2"
	"github.com/pierrec/lz4/v4"
)

// Compression names used in chunk headers.
const (
	CompressionNone = "none"
	CompressionBZ2  = "bz2"
	CompressionLZ4  = "lz4"
)

// decompressor turns a chunk's compressed bytes into its records. A
// decompressor may be reused for several chunks but not concurrently.
type decompressor interface {
	// decompress appends the uncompressed bytes of src to dst[:0], reading
	// no more than max bytes of output, and returns the result.
	decompress(dst, src []byte, max int) ([]byte, error)
}

// decompressors is the table of supported compressions; each entry is a pool
// so decoders are reused across chunks.
var decompressors = map[string]*decoderPool{
	CompressionBZ2: {New: func() any { return &bz2Decompressor{} }},
	CompressionLZ4: {New: func() any { return &lz4Decompressor{} }},
}

// decoderPool keeps idle decoders for reuse, like sync.Pool, but it does not
// drop them at garbage collection: a bz2 decoder holds ~5 MB of tables, and
// making new ones after every collection doubled the garbage and the peak
// memory of a full read. It keeps at most GOMAXPROCS idle decoders.
type decoderPool struct {
	New  func() any
	mu   sync.Mutex
	idle []any
}

// Get returns an idle decoder or a new one.
func (p *decoderPool) Get() any {
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		d := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return d
	}
	p.mu.Unlock()
	return p.New()
}

// Put returns a decoder to the pool.
func (p *decoderPool) Put(d any) {
	p.mu.Lock()
	if len(p.idle) < runtime.GOMAXPROCS(0) {
		p.idle = append(p.idle, d)
	}
	p.mu.Unlock()
}

// Decompress returns the uncompressed bytes of a chunk's data: src itself for
// "none", otherwise dst (grown as needed) filled with at most size bytes.
// It is an error if the data decompresses to a different size than size.
func Decompress(compression string, dst, src []byte, size uint32) ([]byte, error) {
	if compression == CompressionNone {
		if uint32(len(src)) != size {
			return src, fmt.Errorf("uncompressed chunk holds %d bytes but its header says %d: %w", len(src), size, ErrMalformed)
		}
		return src, nil
	}
	pool := decompressors[compression]
	if pool == nil {
		return nil, fmt.Errorf("compression %q: %w", compression, ErrUnsupportedCompression)
	}
	if size > MaxChunkSize {
		return nil, fmt.Errorf("chunk size %d exceeds the limit of %d bytes: %w", size, MaxChunkSize, ErrTooLarge)
	}
	d := pool.Get().(decompressor)
	defer pool.Put(d)
	lim := min(int(size), InflateLimit(len(src)))
	out, err := d.decompress(dst, src, lim)
	if err != nil {
		return out, fmt.Errorf("%s: %w", compression, err)
	}
	if len(out) > lim && lim < int(size) {
		return out[:lim], bombErr(compression, len(src), lim, int64(size))
	}
	if len(out) != int(size) {
		return out, fmt.Errorf("%s data decompresses to %d bytes but the chunk header says %d: %w", compression, len(out), size, ErrMalformed)
	}
	return out, nil
}

// The ratio a chunk's data may inflate by: a chunk's declared uncompressed
// size is a claim, checked against what its bytes really inflate to while
// they are decompressed. Past InflateFloor bytes of output, data that
// inflates more than InflateRatio times its compressed size is refused as a
// decompression bomb (a finding, not an allocation): real recordings do not
// come close (sensor data compresses 2-20 times, zero-filled images a few
// hundred), while a bz2 stream of 1 GiB of zeros is a few kilobytes.
const (
	InflateFloor = 32 << 20
	InflateRatio = 1024
)

// InflateLimit is the most bytes compressed bytes of length n may inflate to.
func InflateLimit(n int) int {
	return max(InflateFloor, min(InflateRatio*n, MaxChunkSize))
}

// bombErr reports data that inflates past InflateLimit.
func bombErr(compression string, n, lim int, declared int64) error {
	return fmt.Errorf("%s: %d compressed bytes inflate past %d bytes (more than %d:1) before reaching the %d the chunk declares: refused as a decompression bomb: %w", compression, n, lim, InflateRatio, declared, ErrTooLarge)
}

// readAllLimited reads r into dst[:0], growing it as output arrives, and
// stops after max+1 bytes (one more than allowed, so the caller can tell the
// output was too long). A lying size field costs no memory up front, and
// the buffer grows by doubling, never past max+1: at most one and a half
// times the output is held while it grows.
func readAllLimited(dst []byte, r io.Reader, max int) ([]byte, error) {
	limit := max + 1
	dst = dst[:0]
	if cap(dst) < 64<<10 {
		dst = make([]byte, 0, min(limit, 64<<10))
	}
	for len(dst) < limit {
		if len(dst) == cap(dst) {
			nb := make([]byte, len(dst), min(limit, 2*cap(dst)))
			copy(nb, dst)
			dst = nb
		}
		n, err := r.Read(dst[len(dst):min(cap(dst), limit)])
		dst = dst[:len(dst)+n]
		if errors.Is(err, io.EOF) {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
	return dst, nil
}

type bz2Decompressor struct {
	src bytes.Reader
	r   *bzip2.Reader
}

func (d *bz2Decompressor) decompress(dst, src []byte, max int) ([]byte, error) {
	d.src.Reset(src)
	if d.r == nil {
		r, err := bzip2.NewReader(&d.src, nil)
		if err != nil {
			return dst[:0], err
		}
		d.r = r
	} else if err := d.r.Reset(&d.src); err != nil {
		d.r = nil
		return dst[:0], err
	}
	out, err := readAllLimited(dst, d.r, max)
	if err != nil || len(out) > max {
		// The reader stopped mid-stream; its buffers may keep output
		// that a Reset does not clear, so start afresh next time.
		d.r = nil
	}
	return out, err
}

// lz4Decompressor decodes the LZ4 frame that roslz4 writes for each chunk.
// The normal path walks the frame's blocks itself and decodes each with
// lz4.UncompressBlock straight into the output buffer, which is two to three
// times faster than the streaming frame reader; frames it does not handle
// (dictionary IDs, skippable or legacy frames, several frames) go to the
// frame reader.
type lz4Decompressor struct {
	src bytes.Reader
	r   *lz4.Reader
}

func (d *lz4Decompressor) decompress(dst, src []byte, max int) ([]byte, error) {
	out, err := decodeLZ4Frame(dst, src, max)
	if !errors.Is(err, errLZ4Unusual) {
		return out, err
	}
	d.src.Reset(src)
	if d.r == nil {
		d.r = lz4.NewReader(&d.src)
	} else {
		d.r.Reset(&d.src)
	}
	return readAllLimited(dst, d.r, max)
}

// errLZ4Unusual means a frame uses a feature decodeLZ4Frame leaves to the
// frame reader.
var errLZ4Unusual = errors.New("lz4 frame needs the frame reader")

// LZ4 frame format constants (lz4_Frame_format.md).
const (
	lz4FrameMagic     = 0x184D2204
	lz4FlagVersion    = 0xC0 // version bits, must be 01
	lz4FlagIndep      = 0x20 // blocks are independent
	lz4FlagBlockSum   = 0x10 // each block is followed by its xxh32
	lz4FlagSize       = 0x08 // the descriptor holds the content size
	lz4FlagContentSum = 0x04 // the frame ends with the content's xxh32
	lz4FlagDictID     = 0x01 // the descriptor holds a dictionary ID
	lz4BlockRaw       = 1 << 31
	lz4WindowSize     = 64 << 10
)

// decodeLZ4Frame decodes the single LZ4 frame src into dst[:0] (grown as
// needed), producing at most limit bytes. It checks the header checksum, block
// checksums and the content checksum when the frame has them. It returns
// errLZ4Unusual for frames it leaves to the frame reader.
func decodeLZ4Frame(dst, src []byte, limit int) ([]byte, error) {
	if len(src) < 7 || le32(src) != lz4FrameMagic {
		return dst[:0], errLZ4Unusual
	}
	flg, bd := src[4], src[5]
	if flg&lz4FlagVersion != 0x40 || flg&lz4FlagDictID != 0 || flg&0x02 != 0 || bd&0x8F != 0 {
		return dst[:0], errLZ4Unusual
	}
	blockMax := 1 << (8 + 2*int(bd>>4&7)) // 4: 64 KiB ... 7: 4 MiB
	if bd>>4&7 < 4 {
		return dst[:0], errLZ4Unusual
	}
	pos := 6
	size := -1
	if flg&lz4FlagSize != 0 {
		if len(src) < pos+9 {
			return dst[:0], fmt.Errorf("frame descriptor cut off: %w", ErrTruncated)
		}
		if n := le64(src[pos:]); n <= uint64(limit) {
			size = int(n)
		} else {
			return dst[:0], fmt.Errorf("frame declares %d bytes of content, more than the chunk's %d: %w", n, limit, ErrMalformed)
		}
		pos += 8
	}
	if hc := byte(xxh32(src[4:pos]) >> 8); src[pos] != hc {
		return dst[:0], fmt.Errorf("frame descriptor checksum %#02x, want %#02x: %w", src[pos], hc, ErrMalformed)
	}
	pos++

	// The output size is known from the chunk header; allocate it once, but
	// no more than the input plausibly produces (16:1; more is rare and just
	// grows the buffer), so that a lying size field, or DecompressPrefix's
	// large limit, costs no memory.
	want := min(limit, 16*len(src)+lz4WindowSize)
	if size >= 0 {
		want = min(size, want) // the content size field is a claim too
	}
	if cap(dst) < want {
		dst = make([]byte, 0, want)
	}
	out := dst[:0]
	indep := flg&lz4FlagIndep != 0
	for {
		if len(src)-pos < 4 {
			return out, fmt.Errorf("lz4 block size cut off at byte %d: %w", pos, ErrTruncated)
		}
		bs := le32(src[pos:])
		pos += 4
		if bs == 0 {
			break // end mark
		}
		raw := bs&lz4BlockRaw != 0
		n := int(bs &^ lz4BlockRaw)
		if n > blockMax || n > len(src)-pos {
			return out, fmt.Errorf("lz4 block of %d bytes at byte %d exceeds the block maximum %d or the %d bytes left: %w", n, pos-4, blockMax, len(src)-pos, ErrMalformed)
		}
		block := src[pos : pos+n]
		pos += n
		if flg&lz4FlagBlockSum != 0 {
			if len(src)-pos < 4 {
				return out, fmt.Errorf("lz4 block checksum cut off: %w", ErrTruncated)
			}
			if got, want := xxh32(block), le32(src[pos:]); got != want {
				return out, fmt.Errorf("lz4 block at byte %d has checksum %#08x, want %#08x: %w", pos-4-n, got, want, ErrMalformed)
			}
			pos += 4
		}
		// Room for one more block, within limit+1 so overlong output is caught.
		if room := min(blockMax, limit+1-len(out)); cap(out)-len(out) < room {
			out = slices.Grow(out, max(room, min(cap(out), limit+1-len(out))))
		}
		free := out[len(out):min(cap(out), len(out)+blockMax, limit+1)]
		var k int
		var err error
		switch {
		case raw:
			k = copy(free, block)
			if k < len(block) {
				err = errLZ4TooLong
			}
		case indep || len(out) == 0:
			k, err = lz4.UncompressBlock(block, free)
		default:
			k, err = lz4.UncompressBlockWithDict(block, free, out[max(0, len(out)-lz4WindowSize):])
		}
		if err != nil {
			return out, fmt.Errorf("lz4 block at byte %d: %v: %w", pos-n, err, ErrMalformed)
		}
		out = out[:len(out)+k]
		if len(out) > limit {
			return out, nil // the caller reports the size mismatch
		}
	}
	if size >= 0 && len(out) != size {
		return out, fmt.Errorf("lz4 frame holds %d bytes but declares %d: %w", len(out), size, ErrMalformed)
	}
	if flg&lz4FlagContentSum != 0 {
		if len(src)-pos < 4 {
			return out, fmt.Errorf("lz4 content checksum cut off: %w", ErrTruncated)
		}
		if got, want := xxh32(out), le32(src[pos:]); got != want {
			return out, fmt.Errorf("lz4 content checksum %#08x, want %#08x: %w", got, want, ErrMalformed)
		}
		pos += 4
	}
	if pos != len(src) {
		// Another frame, or trailing bytes: let the frame reader judge.
		return dst[:0], errLZ4Unusual
	}
	return out, nil
}

var errLZ4TooLong = errors.New("block longer than the space left")
