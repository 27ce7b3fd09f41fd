package ros1

import (
	"encoding/binary"
	"math/bits"
)

// xxh32 primes (https://github.com/Cyan4973/xxHash, doc/xxhash_spec.md).
const (
	xxhPrime1 uint32 = 2654435761
	xxhPrime2 uint32 = 2246822519
	xxhPrime3 uint32 = 3266489917
	xxhPrime4 uint32 = 668265263
	xxhPrime5 uint32 = 374761393
)

// xxh32 returns the 32-bit xxHash of b with seed 0, the checksum LZ4 frames
// carry for their descriptor, blocks and content.
func xxh32(b []byte) uint32 {
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
