package mcap

import (
	"hash/crc32"
	"math/rand/v2"
	"testing"
)

// TestCRC32Combine: the CRC of a whole made from its pieces' CRCs equals the
// CRC of the whole, for pieces of every size, empty ones included.
func TestCRC32Combine(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	data := make([]byte, 1<<20+77)
	for i := range data {
		data[i] = byte(rng.Uint32())
	}
	for trial := range 50 {
		var crc uint32
		for p := 0; p < len(data); {
			n := min(len(data)-p, rng.IntN(1<<(trial%18+1)))
			crc = crc32Combine(crc, crc32.ChecksumIEEE(data[p:p+n]), int64(n))
			p += n
		}
		if want := crc32.ChecksumIEEE(data); crc != want {
			t.Fatalf("trial %d: combined %08x, whole %08x", trial, crc, want)
		}
	}
}
