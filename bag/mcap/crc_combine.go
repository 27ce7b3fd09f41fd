package mcap

import "sync"

// crc32Combine returns the CRC-32 (IEEE) of a+b from a's CRC, b's CRC and
// b's length, as zlib's crc32_combine does (multiplying by x^(8·len2) modulo
// the polynomial, with the powers x^(2^n) tabled): the doctor checks the
// data section's CRC from the CRCs of the records its workers read, instead
// of reading the whole file again after the walk.
func crc32Combine(crc1, crc2 uint32, len2 int64) uint32 {
	if len2 <= 0 {
		return crc1
	}
	return multModP(x2nModP(len2, 3), crc1) ^ crc2
}

// multModP multiplies a and b modulo the reflected CRC-32 polynomial.
func multModP(a, b uint32) uint32 {
	m := uint32(1) << 31
	var p uint32
	for {
		if a&m != 0 {
			p ^= b
			if a&(m-1) == 0 {
				break
			}
		}
		m >>= 1
		if b&1 != 0 {
			b = b>>1 ^ 0xedb88320
		} else {
			b >>= 1
		}
	}
	return p
}

// x2nTable holds x^(2^n) modulo the polynomial, n = 0..31.
var x2nTable = sync.OnceValue(func() (t [32]uint32) {
	p := uint32(1) << 30 // x^1
	t[0] = p
	for n := 1; n < 32; n++ {
		p = multModP(p, p)
		t[n] = p
	}
	return t
})

// x2nModP returns x^(n·2^k) modulo the polynomial.
func x2nModP(n int64, k uint) uint32 {
	t := x2nTable()
	p := uint32(1) << 31 // x^0
	for n != 0 {
		if n&1 != 0 {
			p = multModP(t[k&31], p)
		}
		n >>= 1
		k++
	}
	return p
}
