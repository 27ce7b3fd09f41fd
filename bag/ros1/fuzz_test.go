package ros1

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// FuzzOpen opens arbitrary bytes as a bag and, when that works, reads the
// summary, every message and every record. Nothing may panic, and every
// error about the content must be a *FormatError.
func FuzzOpen(f *testing.F) {
	f.Add(twoChunkBag())
	seeds, _ := filepath.Glob("../../testdata/*.bag")
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil && len(data) < 80<<10 {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		check := func(err error) {
			var fe *FormatError
			if err != nil && !errors.As(err, &fe) {
				t.Fatalf("error without an offset: %T %v", err, err)
			}
		}
		r := bytes.NewReader(data)
		if raw, err := NewRawReader(r, int64(len(data))); err == nil {
			w := raw.Walk()
			for w.Next() {
			}
			check(w.Err())
		} else {
			check(err)
		}
		b, err := NewReader(r, int64(len(data)))
		check(err)
		if err != nil {
			return
		}
		_, err = b.Summary()
		check(err)
		it := b.Messages(MessageFilter{})
		for it.Next() {
		}
		check(it.Err())
		var buf ChunkBuffer
		for _, ci := range b.ChunkInfos {
			ch, err := b.ChunkHeader(ci)
			check(err)
			if err != nil {
				continue
			}
			inner, err := b.ReadChunkData(ch, &buf)
			check(err)
			cw := NewChunkWalker(inner, ci.ChunkPos)
			for cw.Next() {
			}
			check(cw.Err())
			_, err = b.ChunkIndex(ci)
			check(err)
		}
	})
}

// FuzzScan opens arbitrary bytes with NewReaderOrScan, which scans
// unindexed and damaged bags, and reads everything it finds.
func FuzzScan(f *testing.F) {
	f.Add(twoChunkBag())
	seeds, _ := filepath.Glob("../../testdata/*.bag")
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil && len(data) < 80<<10 {
			f.Add(data)
			// The same bag unindexed: index_pos zeroed.
			if len(data) > 4117 {
				c := bytes.Clone(data)
				copy(c[13+4+4+3+1+4+len("index_pos="):], make([]byte, 8))
				f.Add(c)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		exercise(t, data, "fuzz")
	})
}
