package ros1

import (
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
)

// BenchmarkDecompress measures decompressing a bag's chunks one after the
// other on one goroutine (the first 64 chunks, read into memory first).
func BenchmarkDecompress(b *testing.B) {
	for _, p := range benchBags(b) {
		b.Run(filepath.Base(p), func(b *testing.B) {
			bg, err := Open(p)
			if err != nil {
				b.Fatal(err)
			}
			defer bg.Close()
			type chunk struct {
				c   *Chunk
				raw []byte
			}
			var chunks []chunk
			var size int64
			for _, ci := range bg.ChunkInfos[:min(64, len(bg.ChunkInfos))] {
				c, err := bg.ChunkHeader(ci)
				if err != nil {
					b.Fatal(err)
				}
				raw := make([]byte, c.DataLen)
				if err := bg.readAt(raw, c.DataOffset, OpChunk, "chunk"); err != nil {
					b.Fatal(err)
				}
				chunks = append(chunks, chunk{c, raw})
				size += int64(c.Size)
			}
			b.SetBytes(size)
			b.ReportAllocs()
			var dst []byte
			for b.Loop() {
				for _, c := range chunks {
					if dst, err = Decompress(c.c.Compression, dst, c.raw, c.c.Size); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkMessagesTopic measures reading one topic (/imu, a fifth of the
// messages of mixed.bag) in time order.
func BenchmarkMessagesTopic(b *testing.B) {
	for _, p := range benchBags(b) {
		b.Run(filepath.Base(p), func(b *testing.B) { benchRead(b, p, MessageFilter{Topics: []string{"/imu"}}) })
	}
}

// BenchmarkMessagesWorkers measures reading every message with one worker
// and with GOMAXPROCS workers, to show what the pool gains.
func BenchmarkMessagesWorkers(b *testing.B) {
	for _, p := range benchBags(b) {
		for _, procs := range []int{1, runtime.GOMAXPROCS(0)} {
			b.Run(filepath.Base(p)+"/procs="+strconv.Itoa(procs), func(b *testing.B) {
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
				benchRead(b, p, MessageFilter{})
			})
		}
	}
}
