package ros1

import "fmt"

// DecompressPrefix decompresses as much of src as possible: for data cut
// off in the middle (a chunk that was still being written) it returns the
// bytes of every complete compressed block before the cut, and the error
// that stopped it. At most max bytes are produced.
func DecompressPrefix(compression string, src []byte, max int) ([]byte, error) {
	return decompressPrefix(compression, nil, src, max)
}

func decompressPrefix(compression string, dst, src []byte, max int) ([]byte, error) {
	if compression == CompressionNone {
		return src[:min(len(src), max)], nil
	}
	pool := decompressors[compression]
	if pool == nil {
		return nil, fmt.Errorf("compression %q: %w", compression, ErrUnsupportedCompression)
	}
	d := pool.Get().(decompressor)
	defer pool.Put(d)
	return d.decompress(dst, src, max)
}
