package ros1

import (
	"bytes"
	"testing"
)

// TestDecoderReuseAfterFailure reads a damaged chunk and then good ones
// with the same pooled decoders: the failure must not leak into them.
func TestDecoderReuseAfterFailure(t *testing.T) {
	for _, name := range []string{"bz2-multichunk.bag", "lz4-multichunk.bag"} {
		t.Run(name, func(t *testing.T) {
			b, err := Open("../../testdata/" + name)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			var good [][]byte
			var buf ChunkBuffer
			for _, ci := range b.ChunkInfos[:4] {
				ch, _ := b.ChunkHeader(ci)
				d, err := b.ReadChunkData(ch, &buf)
				if err != nil {
					t.Fatal(err)
				}
				good = append(good, bytes.Clone(d))
			}
			ch, _ := b.ChunkHeader(b.ChunkInfos[0])
			raw := make([]byte, ch.DataLen)
			b.ReaderAt().ReadAt(raw, ch.DataOffset)
			for i := 0; i < 20; i++ {
				bad := bytes.Clone(raw)
				bad[len(bad)/2+i] ^= 0xa5
				Decompress(ch.Compression, nil, bad, ch.Size) // fails or not; must not poison
				for j, ci := range b.ChunkInfos[:4] {
					c, _ := b.ChunkHeader(ci)
					d, err := b.ReadChunkData(c, &buf)
					if err != nil || !bytes.Equal(d, good[j]) {
						t.Fatalf("after damaged input %d, chunk %d reads differently (err %v)", i, j, err)
					}
				}
			}
		})
	}
}

// TestReadAllLimitedZeroMax guards against a read loop that never ends
// when the output limit is 0 (a salvaged open chunk with no complete record).
func TestReadAllLimitedZeroMax(t *testing.T) {
	for _, max := range []int{0, 1, 5} {
		out, err := readAllLimited(nil, bytes.NewReader([]byte("abcdefgh")), max)
		if err != nil || len(out) != max+1 {
			t.Fatalf("max %d: %q, %v", max, out, err)
		}
	}
}
