package export

import (
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/parquet-go/parquet-go/format"
)

// pageWindow is the zstd window of the Parquet pages: a page is about
// parquet-go's page buffer (256 KiB) and compressed on its own, so a
// larger window finds nothing more. parquet-go's own codec (parquet.Zstd)
// keeps the encoder's default 8 MiB window, whose history is 16 MB of
// live heap for the whole export (issue 29: export within 64 MiB).
const pageWindow = 1 << 20

// zstdCodec is Parquet's ZSTD codec (the same frames as parquet.Zstd, at
// the same level) with a pageWindow window and the encoder's low-memory
// mode. Its encoders are kept in a free list, not a sync.Pool, which each
// collection empties: under the memory limit a collection comes often,
// and a new encoder each time would be garbage of its own.
type zstdCodec struct {
	mu   sync.Mutex
	free []*zstd.Encoder
}

func (c *zstdCodec) String() string { return "ZSTD" }

func (c *zstdCodec) CompressionCodec() format.CompressionCodec { return format.Zstd }

// Encode compresses the page src into dst's storage.
func (c *zstdCodec) Encode(dst, src []byte) ([]byte, error) {
	c.mu.Lock()
	var e *zstd.Encoder
	if n := len(c.free); n > 0 {
		e, c.free = c.free[n-1], c.free[:n-1]
	}
	c.mu.Unlock()
	if e == nil {
		var err error
		e, err = zstd.NewWriter(nil,
			zstd.WithEncoderConcurrency(1),
			zstd.WithEncoderLevel(zstd.SpeedDefault),
			zstd.WithWindowSize(pageWindow),
			zstd.WithLowerEncoderMem(true),
			zstd.WithZeroFrames(true),
			zstd.WithEncoderCRC(false),
		)
		if err != nil {
			return nil, err
		}
	}
	out := e.EncodeAll(src, dst[:0])
	c.mu.Lock()
	c.free = append(c.free, e)
	c.mu.Unlock()
	return out, nil
}

// Decode decompresses a page: the writer never reads one back, but the
// interface asks for it.
func (c *zstdCodec) Decode(dst, src []byte) ([]byte, error) {
	d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.DecodeAll(src, dst[:0])
}
