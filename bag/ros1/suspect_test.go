package ros1

import (
	"bytes"
	"os"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// TestChunkSuspectAgreesWithIteration: a reader of single messages asks
// ChunkSuspect for the mark of a chunk's messages; it must be the mark an
// iteration over every message gives them, for a chunk damaged in the
// middle (resynced: suspect), in a compressed chunk whose data does not
// decompress whole, and for the sound chunks around them ("").
func TestChunkSuspectAgreesWithIteration(t *testing.T) {
	cases := []struct {
		name   string
		file   string
		damage func(b *Bag, data []byte) []byte
	}{
		{"record header in an uncompressed chunk", "none-multichunk.bag", func(b *Bag, data []byte) []byte {
			ci := b.ChunkInfos[5]
			idx, _ := b.ChunkIndex(ci)
			ch, _ := b.ChunkHeader(ci)
			bad := bytes.Clone(data)
			copy(bad[ch.DataOffset+int64(idx[0].Entries[1].Offset):], u32b(0x7fffffff))
			return bad
		}},
		{"zeroed record in an uncompressed chunk", "none-multichunk.bag", func(b *Bag, data []byte) []byte {
			ci := b.ChunkInfos[5]
			idx, _ := b.ChunkIndex(ci)
			ch, _ := b.ChunkHeader(ci)
			bad := bytes.Clone(data)
			at := ch.DataOffset + int64(idx[0].Entries[1].Offset)
			clear(bad[at : at+16])
			return bad
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := os.ReadFile("../../testdata/" + tc.file)
			if err != nil {
				t.Fatal(err)
			}
			good, err := NewReaderOrScan(bytes.NewReader(data), int64(len(data)))
			if err != nil {
				t.Fatal(err)
			}
			bad := tc.damage(good, data)
			b, err := NewReaderOrScan(bytes.NewReader(bad), int64(len(bad)))
			if err != nil {
				t.Fatal(err)
			}
			marks := map[int64]string{}
			st := NewStore(b)
			it := b.Messages(MessageFilter{})
			for it.Next() {
				m := it.Message()
				if old, ok := marks[m.ChunkPos]; ok && old != m.Suspect {
					t.Fatalf("chunk %d: its messages carry different marks: %q, %q", m.ChunkPos, old, m.Suspect)
				}
				marks[m.ChunkPos] = m.Suspect
				// The seam's read of one message gives it the same mark.
				one, err := st.ReadMessage(m.Conn.ID, bag.Loc{Block: m.ChunkPos, Offset: m.Offset})
				if err != nil || one.Suspect != m.Suspect {
					t.Fatalf("ReadMessage of the message at %d/%d: mark %q (%v), the iteration's %q", m.ChunkPos, m.Offset, one.Suspect, err, m.Suspect)
				}
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			suspect, sound := 0, 0
			for pos, want := range marks {
				got, err := b.ChunkSuspect(pos, nil)
				if err != nil {
					t.Fatalf("chunk %d: %v", pos, err)
				}
				if got != want {
					t.Errorf("chunk %d: ChunkSuspect says %q, the iteration %q", pos, got, want)
				}
				// Given the chunk's data, read whole, it walks that.
				ch, err := b.ChunkAt(pos)
				if err != nil {
					t.Fatal(err)
				}
				data, err := b.ReadChunkData(ch, nil)
				if err != nil {
					t.Fatal(err)
				}
				if got, err := b.ChunkSuspect(pos, data); err != nil || got != want {
					t.Errorf("chunk %d given its data: ChunkSuspect says %q (%v), the iteration %q", pos, got, err, want)
				}
				if want != "" {
					suspect++
				} else {
					sound++
				}
			}
			if suspect == 0 || sound == 0 {
				t.Errorf("%d suspect and %d sound chunks: the damage must make one chunk suspect and leave others sound", suspect, sound)
			}
		})
	}
}
