package ros1

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// fuzzSeeds are the small bags the fuzz targets start from: tiny ones, so
// that each execution is quick and the mutator spends its time on the
// records rather than on kilobytes of payload (with the 70-240 KB fixtures,
// FuzzOpen made 23 executions in 4 minutes). The decompression bomb is
// left out: each run of it inflates 32 MiB.
func fuzzSeeds(f *testing.F) [][]byte {
	seeds := [][]byte{twoChunkBag()}
	paths, _ := filepath.Glob("../../testdata/*.bag")
	more, _ := filepath.Glob("testdata/len-*.bag")
	for _, p := range append(paths, more...) {
		if data, err := os.ReadFile(p); err == nil && len(data) <= 8<<10 {
			seeds = append(seeds, data)
		}
	}
	if len(seeds) < 5 {
		f.Fatalf("only %d fuzz seeds", len(seeds))
	}
	return seeds
}

// FuzzOpen opens arbitrary bytes as a bag and, when that works, reads the
// summary, every message and every record. Nothing may panic, and every
// error about the content must be a *FormatError.
func FuzzOpen(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
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
		for _, r := range it.Skipped() {
			if r.End < r.Start || r.Start < 0 || r.End > int64(len(data)) || r.Why == "" {
				t.Fatalf("skipped range %v outside the file of %d bytes", r, len(data))
			}
		}
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
	for _, data := range fuzzSeeds(f) {
		f.Add(data)
		// The same bag unindexed: index_pos zeroed.
		if len(data) > 4117 {
			c := bytes.Clone(data)
			copy(c[13+4+4+3+1+4+len("index_pos="):], make([]byte, 8))
			f.Add(c)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		exercise(t, data, "fuzz")
	})
}
