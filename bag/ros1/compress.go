package ros1

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"sync"

	"github.com/bagscope/bagscope/bag/internal/lz4frame"
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
var errLZ4Unusual = lz4frame.ErrUnusual

// decodeLZ4Frame decodes the single LZ4 frame src into dst[:0] (see
// lz4frame.Decode), its errors wrapping ErrTruncated and ErrMalformed.
func decodeLZ4Frame(dst, src []byte, limit int) ([]byte, error) {
	return lz4frame.Decode(dst, src, limit, lz4frame.Options{Truncated: ErrTruncated, Malformed: ErrMalformed})
}
