// Package lz4frame decodes the LZ4 frames of ROS 1 lz4 chunks and MCAP
// lz4 chunks block by block, straight into the output buffer: two to three
// times faster than pierrec/lz4's streaming frame reader, which stays the
// fallback for the frames it leaves (ErrUnusual).
package lz4frame

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"slices"

	"github.com/pierrec/lz4/v4"
)

func le32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }
func le64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// ErrUnusual means a frame uses a feature Decode leaves to the frame
// reader (pierrec/lz4's lz4.Reader): dictionary IDs, blocks under 64 KiB,
// skippable or legacy frames, several frames.
var ErrUnusual = errors.New("lz4 frame needs the frame reader")

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

// Options are how Decode checks a frame and the sentinels its errors wrap.
type Options struct {
	// SkipContentSum leaves the content checksum unchecked, for callers
	// that check the output against a checksum of their own (an MCAP
	// chunk's CRC).
	SkipContentSum bool
	// Truncated and Malformed are wrapped by the errors of a frame cut
	// short and of a frame that does not decode.
	Truncated, Malformed error
}

// Decode decodes the single LZ4 frame src into dst[:0] (grown as needed),
// producing at most limit bytes, each block with lz4.UncompressBlock
// straight into the output. It checks the header checksum, block checksums
// and the content checksum when the frame has them. It returns ErrUnusual
// for frames it leaves to the frame reader.
func Decode(dst, src []byte, limit int, o Options) ([]byte, error) {
	if len(src) < 7 || le32(src) != lz4FrameMagic {
		return dst[:0], ErrUnusual
	}
	flg, bd := src[4], src[5]
	if flg&lz4FlagVersion != 0x40 || flg&lz4FlagDictID != 0 || flg&0x02 != 0 || bd&0x8F != 0 {
		return dst[:0], ErrUnusual
	}
	blockMax := 1 << (8 + 2*int(bd>>4&7)) // 4: 64 KiB ... 7: 4 MiB
	if bd>>4&7 < 4 {
		return dst[:0], ErrUnusual
	}
	pos := 6
	size := -1
	if flg&lz4FlagSize != 0 {
		if len(src) < pos+9 {
			return dst[:0], fmt.Errorf("frame descriptor cut off: %w", o.Truncated)
		}
		if n := le64(src[pos:]); n <= uint64(limit) {
			size = int(n)
		} else {
			return dst[:0], fmt.Errorf("frame declares %d bytes of content, more than the chunk's %d: %w", n, limit, o.Malformed)
		}
		pos += 8
	}
	if hc := byte(XXH32(src[4:pos]) >> 8); src[pos] != hc {
		return dst[:0], fmt.Errorf("frame descriptor checksum %#02x, want %#02x: %w", src[pos], hc, o.Malformed)
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
			return out, fmt.Errorf("lz4 block size cut off at byte %d: %w", pos, o.Truncated)
		}
		bs := le32(src[pos:])
		bstart := pos // the block's size field
		pos += 4
		if bs == 0 {
			break // end mark
		}
		raw := bs&lz4BlockRaw != 0
		n := int(bs &^ lz4BlockRaw)
		if n > blockMax || n > len(src)-pos {
			return out, &BlockError{Start: bstart, End: len(src), Err: fmt.Errorf("lz4 block of %d bytes at byte %d exceeds the block maximum %d or the %d bytes left: %w", n, pos-4, blockMax, len(src)-pos, o.Malformed)}
		}
		block := src[pos : pos+n]
		pos += n
		if flg&lz4FlagBlockSum != 0 {
			if len(src)-pos < 4 {
				return out, fmt.Errorf("lz4 block checksum cut off: %w", o.Truncated)
			}
			if got, want := XXH32(block), le32(src[pos:]); got != want {
				return out, &BlockError{Start: bstart, End: pos + 4, Err: fmt.Errorf("lz4 block at byte %d has checksum %#08x, want %#08x: %w", bstart, got, want, o.Malformed)}
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
			return out, &BlockError{Start: bstart, End: pos, Err: fmt.Errorf("lz4 block at byte %d: %v: %w", bstart+4, err, o.Malformed)}
		}
		out = out[:len(out)+k]
		if len(out) > limit {
			return out, nil // the caller reports the size mismatch
		}
	}
	if size >= 0 && len(out) != size {
		return out, fmt.Errorf("lz4 frame holds %d bytes but declares %d: %w", len(out), size, o.Malformed)
	}
	if flg&lz4FlagContentSum != 0 {
		if o.SkipContentSum {
			pos += 4
		} else {
			if len(src)-pos < 4 {
				return out, fmt.Errorf("lz4 content checksum cut off: %w", o.Truncated)
			}
			if got, want := XXH32(out), le32(src[pos:]); got != want {
				return out, fmt.Errorf("lz4 content checksum %#08x, want %#08x: %w", got, want, o.Malformed)
			}
			pos += 4
		}
	}
	if pos != len(src) {
		// Another frame, or trailing bytes: let the frame reader judge.
		return dst[:0], ErrUnusual
	}
	return out, nil
}

var errLZ4TooLong = errors.New("block longer than the space left")

// BlockError is a block of the frame that does not decode: Start is the
// offset of its size field in src, End the end of the block (its checksum
// included). The output Decode returns with it is that of the blocks
// before it.
type BlockError struct {
	Start, End int
	Err        error
}

func (e *BlockError) Error() string { return e.Err.Error() }
func (e *BlockError) Unwrap() error { return e.Err }

// xxh32 primes (https://github.com/Cyan4973/xxHash, doc/xxhash_spec.md).
const (
	xxhPrime1 uint32 = 2654435761
	xxhPrime2 uint32 = 2246822519
	xxhPrime3 uint32 = 3266489917
	xxhPrime4 uint32 = 668265263
	xxhPrime5 uint32 = 374761393
)

// XXH32 returns the 32-bit xxHash of b with seed 0, the checksum LZ4 frames
// carry for their descriptor, blocks and content.
func XXH32(b []byte) uint32 {
	n := len(b)
	var h uint32
	if n >= 16 {
		p1, p2 := xxhPrime1, xxhPrime2 // variables: the sums wrap
		v1 := p1 + p2
		v2 := p2
		v3 := uint32(0)
		v4 := -p1
		for len(b) >= 16 {
			s := (*[16]byte)(b)
			v1 = bits.RotateLeft32(v1+binary.LittleEndian.Uint32(s[0:4])*xxhPrime2, 13) * xxhPrime1
			v2 = bits.RotateLeft32(v2+binary.LittleEndian.Uint32(s[4:8])*xxhPrime2, 13) * xxhPrime1
			v3 = bits.RotateLeft32(v3+binary.LittleEndian.Uint32(s[8:12])*xxhPrime2, 13) * xxhPrime1
			v4 = bits.RotateLeft32(v4+binary.LittleEndian.Uint32(s[12:16])*xxhPrime2, 13) * xxhPrime1
			b = b[16:]
		}
		h = bits.RotateLeft32(v1, 1) + bits.RotateLeft32(v2, 7) + bits.RotateLeft32(v3, 12) + bits.RotateLeft32(v4, 18)
	} else {
		h = xxhPrime5
	}
	h += uint32(n)
	for ; len(b) >= 4; b = b[4:] {
		h = bits.RotateLeft32(h+binary.LittleEndian.Uint32(b)*xxhPrime3, 17) * xxhPrime4
	}
	for _, c := range b {
		h = bits.RotateLeft32(h+uint32(c)*xxhPrime5, 11) * xxhPrime1
	}
	h ^= h >> 15
	h *= xxhPrime2
	h ^= h >> 13
	h *= xxhPrime3
	h ^= h >> 16
	return h
}
