package db3

import (
	"bytes"
	"fmt"

	"github.com/klauspost/compress/zstd"
)

// MaxMessageSize caps a message's decompressed size.
const MaxMessageSize = 1 << 30

var zstdMagic = []byte{0x28, 0xb5, 0x2f, 0xfd}

// zstdDecoder decompresses message blobs, reusing one decoder.
type zstdDecoder struct {
	d *zstd.Decoder
}

// isCompressed reports whether a message blob is a zstd frame (rosbag2's
// MESSAGE compression mode). A CDR message starts with its encapsulation
// header (00 01 00 00), never with the zstd magic.
func isCompressed(data []byte) bool { return bytes.HasPrefix(data, zstdMagic) }

// decompress decompresses a zstd blob into dst.
func (s *Store) decompress(dst, data []byte) ([]byte, error) {
	s.zmu.Lock()
	defer s.zmu.Unlock()
	if s.zdec == nil {
		d, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderMaxMemory(MaxMessageSize))
		if err != nil {
			return nil, err
		}
		s.zdec = &zstdDecoder{d: d}
	}
	out, err := s.zdec.d.DecodeAll(data, dst[:0])
	if err != nil {
		return nil, fmt.Errorf("zstd: %w", err)
	}
	return out, nil
}
