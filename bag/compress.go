package bag

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
var decompressors = map[string]*sync.Pool{
	CompressionBZ2: {New: func() any { return &bz2Decompressor{} }},
	CompressionLZ4: {New: func() any { return &lz4Decompressor{} }},
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
	out, err := d.decompress(dst, src, int(size))
	if err != nil {
		return out, fmt.Errorf("%s: %w", compression, err)
	}
	if len(out) != int(size) {
		return out, fmt.Errorf("%s data decompresses to %d bytes but the chunk header says %d: %w", compression, len(out), size, ErrMalformed)
	}
	return out, nil
}

// readAllLimited reads r into dst[:0], growing it as output arrives (never
// beyond max+1 bytes), so a lying size field costs no memory up front.
func readAllLimited(dst []byte, r io.Reader, max int) ([]byte, error) {
	dst = dst[:0]
	if cap(dst) < 64<<10 && max > 0 {
		dst = make([]byte, 0, min(max+1, 64<<10))
	}
	for {
		if len(dst) == cap(dst) {
			if len(dst) > max {
				return dst, nil
			}
			grow := min(max+1, 2*cap(dst)) - len(dst)
			dst = append(dst, make([]byte, grow)...)[:len(dst)]
		}
		n, err := r.Read(dst[len(dst):cap(dst)])
		dst = dst[:len(dst)+n]
		if errors.Is(err, io.EOF) {
			return dst, nil
		}
		if err != nil {
			return dst, err
		}
	}
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
		return dst[:0], err
	}
	return readAllLimited(dst, d.r, max)
}

type lz4Decompressor struct {
	src bytes.Reader
	r   *lz4.Reader
}

func (d *lz4Decompressor) decompress(dst, src []byte, max int) ([]byte, error) {
	d.src.Reset(src)
	if d.r == nil {
		d.r = lz4.NewReader(&d.src)
	} else {
		d.r.Reset(&d.src)
	}
	return readAllLimited(dst, d.r, max)
}
