package ros1

import "fmt"

// DecompressPrefix decompresses as much of src as possible: for data cut
// off in the middle (a chunk that was still being written) it returns the
// bytes of every complete compressed block before the cut, and the error
// that stopped it. At most max bytes are produced, and no more than
// InflateLimit(len(src)).
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
	lim := min(max, InflateLimit(len(src)))
	out, err := d.decompress(dst, src, lim)
	if err == nil && len(out) > lim && lim < max {
		return out[:lim], bombErr(compression, len(src), lim, int64(max))
	}
	return out, err
}
