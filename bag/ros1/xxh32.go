package ros1

import "github.com/bagscope/bagscope/bag/internal/lz4frame"

// xxh32 returns the 32-bit xxHash of b with seed 0 (lz4frame.XXH32).
func xxh32(b []byte) uint32 { return lz4frame.XXH32(b) }
