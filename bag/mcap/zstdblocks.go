package mcap

import "encoding/binary"

// A chunk whose zstd stream fails to decompress part way yields the
// blocks before the failing one (the stream decoder hands out whole
// blocks) and nothing after it: a zstd block needs the output and the
// entropy tables of the blocks before it. So the compressed bytes that
// yielded nothing start where the failing block does, and the report can
// say so ("unreadable from offset N") instead of calling the whole chunk
// unreadable while it counts the messages read from it.

// zstd frame format constants (RFC 8878, section 3.1).
const (
	zstdMagic          = 0xFD2FB528
	zstdSkippableMask  = 0xFFFFFFF0
	zstdSkippableMagic = 0x184D2A50
	zstdBlockHeaderLen = 3
	zstdChecksumLen    = 4
)

// zstdUnitAt returns the unit of the zstd stream src that holds the byte
// at offset at: a frame header, a block (its 3-byte header with its
// content; a frame's last block with the frame's checksum, which the
// decoder checks before it hands that block out) or a skippable frame. The walk trusts the
// sizes the stream states; a unit that runs past src ends at len(src),
// and bytes the walk cannot place (no frame magic) make one unit up to
// the end. at outside src returns (len(src), len(src)).
func zstdUnitAt(src []byte, at int) (start, end int) {
	if at < 0 || at >= len(src) {
		return len(src), len(src)
	}
	unit := func(s, e int) bool {
		if at >= e && e < len(src) {
			return false
		}
		start, end = s, min(e, len(src))
		return true
	}
	for p := 0; ; {
		if len(src)-p < 4 {
			unit(p, len(src))
			return
		}
		magic := binary.LittleEndian.Uint32(src[p:])
		if magic&zstdSkippableMask == zstdSkippableMagic {
			e := len(src)
			if len(src)-p >= 8 {
				e = p + 8 + int(binary.LittleEndian.Uint32(src[p+4:]))
			}
			if unit(p, e) {
				return
			}
			p = e
			continue
		}
		if magic != zstdMagic || len(src)-p < 5 {
			unit(p, len(src))
			return
		}
		fhd := src[p+4]
		q := p + 5
		single := fhd&0x20 != 0
		if !single {
			q++ // window descriptor
		}
		q += [4]int{0, 1, 2, 4}[fhd&3] // dictionary ID
		fcs := [4]int{0, 2, 4, 8}[fhd>>6]
		if fhd>>6 == 0 && single {
			fcs = 1
		}
		q += fcs
		if unit(p, q) {
			return
		}
		for {
			if len(src)-q < zstdBlockHeaderLen {
				unit(q, len(src))
				return
			}
			h := uint32(src[q]) | uint32(src[q+1])<<8 | uint32(src[q+2])<<16
			n := int(h >> 3)
			if h>>1&3 == 1 {
				n = 1 // RLE: one byte, repeated
			}
			e := q + zstdBlockHeaderLen + n
			last := h&1 != 0
			if last && fhd&0x04 != 0 {
				e += zstdChecksumLen
			}
			if unit(q, e) {
				return
			}
			q = e
			if last {
				break
			}
		}
		p = q
	}
}
