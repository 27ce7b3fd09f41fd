// Package column holds compact, exact, read-only columns of a plot series:
// Times keeps int64 nanosecond times in about 4 bytes each instead of 8.
// It has no dependencies, so the extraction (model) builds it directly and
// the plots (plot, ui) read it without a copy.
package column

import (
	"math"
	"slices"
	"sort"
)

// BlockLen times share one base; DecodeBlock decodes that many at most.
const BlockLen = 1 << blockShift

const (
	blockShift = 7
	blockLen   = BlockLen
	blockMask  = blockLen - 1
)

// block is the base of up to 128 consecutive times: the smallest of them,
// every time stored as its unsigned 32-bit distance from it. A block whose
// times span 2^32 ns (4.29 s) or more keeps them whole instead. pos is the
// index of the block's first offset in Times.off, or for a whole block
// -1-pos is the index of its first time in Times.wide.
type block struct {
	base int64
	pos  int32
}

// Times is a column of int64 times, stored in blocks of 128 as 4-byte
// offsets from the block's smallest time (4.125 bytes a time), or whole
// (8 bytes) for a block whose times span 4.29 s or more. Every int64 round
// trips exactly, in any order (steps back, huge steps); At is O(1).
// A Times is immutable once built, so series may share one.
type Times struct {
	n    int
	off  []uint32 // the offsets of the narrow blocks' times
	blk  []block
	wide []int64 // the times of the wide blocks
}

// Len returns the number of times.
func (c *Times) Len() int {
	if c == nil {
		return 0
	}
	return c.n
}

// At returns time i.
func (c *Times) At(i int) int64 {
	b := c.blk[i>>blockShift]
	if b.pos >= 0 {
		return b.base + int64(c.off[int(b.pos)+i&blockMask])
	}
	return c.wide[int(-1-b.pos)+i&blockMask]
}

// Decode appends times [i, j) to dst and returns it.
func (c *Times) Decode(dst []int64, i, j int) []int64 {
	for i < j {
		k := i >> blockShift
		end := min(j, (k+1)<<blockShift)
		b := c.blk[k]
		if b.pos < 0 {
			w := int(-1-b.pos) - k<<blockShift
			dst = append(dst, c.wide[w+i:w+end]...)
		} else {
			p := int(b.pos) - k<<blockShift
			for _, o := range c.off[p+i : p+end] {
				dst = append(dst, b.base+int64(o))
			}
		}
		i = end
	}
	return dst
}

// DecodeBlock writes the times of block k (times k*BlockLen onwards, at
// most BlockLen) into buf and returns how many there are; a caller walking the
// column in order decodes a block at a time.
func (c *Times) DecodeBlock(buf *[BlockLen]int64, k int) int {
	i, end := k<<blockShift, min(c.n, (k+1)<<blockShift)
	b := c.blk[k]
	if b.pos < 0 {
		w := int(-1 - b.pos)
		return copy(buf[:], c.wide[w:w+end-i])
	}
	p := int(b.pos)
	for x, o := range c.off[p : p+end-i] {
		buf[x] = b.base + int64(o)
	}
	return end - i
}

// Search returns the smallest index i at which At(i) >= t, or Len when
// there is none, for an ascending column (as sort.Search).
func (c *Times) Search(t int64) int {
	if c.Len() == 0 {
		return 0
	}
	// Find the block first (its first time), then within it.
	nb := len(c.blk)
	k := sort.Search(nb, func(k int) bool { return c.At(k<<blockShift) >= t })
	// The answer lies in block k-1 (after its first time) or is k's first.
	if k == 0 {
		return 0
	}
	lo, hi := (k-1)<<blockShift, min(c.n, k<<blockShift)
	return lo + sort.Search(hi-lo, func(x int) bool { return c.At(lo+x) >= t })
}

// Equal reports whether c and o hold the same times.
func (c *Times) Equal(o *Times) bool {
	if c == o {
		return true
	}
	if c.Len() != o.Len() {
		return false
	}
	var a, b [128]int64
	for k := range c.blk {
		n := c.DecodeBlock(&a, k)
		o.DecodeBlock(&b, k)
		if !equalInts(a[:n], b[:n]) {
			return false
		}
	}
	return true
}

func equalInts(a, b []int64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Bytes returns the memory the column holds (its capacity), for reports.
func (c *Times) Bytes() int {
	if c == nil {
		return 0
	}
	return 4*cap(c.off) + 16*cap(c.blk) + 8*cap(c.wide)
}

// Builder appends times to a Times. The zero Builder is ready; Grow sizes
// it for a known count so appending never copies.
type Builder struct {
	c       Times
	pending [blockLen]int64
	np      int
}

// Grow makes room for n more times.
func (b *Builder) Grow(n int) {
	total := b.c.n + n
	if cap(b.c.off) < total {
		off := make([]uint32, len(b.c.off), total)
		copy(off, b.c.off)
		b.c.off = off
	}
	if nb := (total + blockMask) >> blockShift; cap(b.c.blk) < nb {
		blk := make([]block, len(b.c.blk), nb)
		copy(blk, b.c.blk)
		b.c.blk = blk
	}
}

// Append adds time t.
func (b *Builder) Append(t int64) {
	b.pending[b.np] = t
	b.np++
	if b.np == blockLen {
		b.flush()
	}
}

// Len returns the number of times appended.
func (b *Builder) Len() int { return b.c.n + b.np }

// flush stores the pending block.
func (b *Builder) flush() {
	p := b.pending[:b.np]
	if len(p) == 0 {
		return
	}
	lo, hi := p[0], p[0]
	for _, t := range p[1:] {
		lo, hi = min(lo, t), max(hi, t)
	}
	// hi-lo overflows int64 when the block spans more than half the range;
	// compare as unsigned, which is exact for any lo <= hi.
	if uint64(hi)-uint64(lo) <= math.MaxUint32 {
		b.c.blk = append(b.c.blk, block{base: lo, pos: int32(len(b.c.off))})
		for _, t := range p {
			b.c.off = append(b.c.off, uint32(uint64(t)-uint64(lo)))
		}
	} else {
		b.c.blk = append(b.c.blk, block{base: lo, pos: int32(-1 - len(b.c.wide))})
		b.c.wide = append(b.c.wide, p...)
	}
	b.c.n += len(p)
	b.np = 0
}

// Times finishes the column; the Builder must not be used afterwards.
// Storage grown for narrow blocks that turned out whole (a topic slower
// than 30 Hz) is given back.
func (b *Builder) Times() *Times {
	b.flush()
	c := b.c
	if cap(c.off) > len(c.off)+len(c.off)/32 {
		c.off = slices.Clip(slices.Clone(c.off))
	}
	if cap(c.wide) > len(c.wide)+len(c.wide)/32 {
		c.wide = slices.Clip(slices.Clone(c.wide))
	}
	b.c = Times{}
	return &c
}

// FromSlice builds a column holding ts.
func FromSlice(ts []int64) *Times {
	var b Builder
	b.Grow(len(ts))
	for _, t := range ts {
		b.Append(t)
	}
	return b.Times()
}
