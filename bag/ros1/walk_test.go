package ros1

import (
	"errors"
	"testing"
)

// TestWalkAndIndexAgree walks every real bag's records and chunks and checks
// the walk against the index: the chunk infos point at the chunk records
// the walker finds, each chunk's index data records list exactly the
// message records inside the chunk, and the chunk info counts match.
// Without -long, one in sweepSample of the undamaged shared bags
// (sampledROS1Bags).
func TestWalkAndIndexAgree(t *testing.T) {
	for _, p := range sampledROS1Bags(t, sweepSample, "the shared bags not named as damaged") {
		t.Run(shortName(p), func(t *testing.T) {
			b, err := Open(p)
			if err != nil {
				t.Skipf("not openable (see TestBrokenBags): %v", err)
			}
			defer b.Close()
			chunks := map[int64]bool{}
			ops := map[Op]int{}
			w := b.Walk()
			last := int64(VersionLineLen)
			for w.Next() {
				r := w.Record()
				if r.Offset != last {
					t.Fatalf("record at %d, previous ended at %d", r.Offset, last)
				}
				last = r.End()
				ops[r.Op]++
				if r.Op == OpChunk {
					chunks[r.Offset] = true
				}
			}
			if err := w.Err(); err != nil {
				t.Fatal(err)
			}
			if last != b.Size() {
				t.Fatalf("walk ended at %d of %d", last, b.Size())
			}
			if ops[OpBagHeader] != 1 || ops[OpChunk] != len(b.ChunkInfos) || ops[OpChunkInfo] != len(b.ChunkInfos) {
				t.Fatalf("op counts %v for %d chunk infos", ops, len(b.ChunkInfos))
			}
			var buf ChunkBuffer
			for _, ci := range b.ChunkInfos {
				if !chunks[ci.ChunkPos] {
					t.Fatalf("chunk info points at %d, where the walk found no chunk", ci.ChunkPos)
				}
				ch, err := b.ChunkHeader(ci)
				if err != nil {
					t.Fatal(err)
				}
				data, err := b.ReadChunkData(ch, &buf)
				if err != nil {
					t.Fatal(err)
				}
				inChunk := map[uint32]Time{}
				perConn := map[uint32]uint32{}
				cw := NewChunkWalker(data, ci.ChunkPos)
				for cw.Next() {
					r := cw.Record()
					switch r.Op {
					case OpMessageData:
						md, err := ParseMessageData(*r)
						if err != nil {
							t.Fatal(err)
						}
						inChunk[uint32(r.Offset)] = md.Time
						perConn[md.Conn]++
					case OpConnection:
						if _, err := ParseConnection(*r, cw.Data()); err != nil {
							t.Fatal(err)
						}
					default:
						t.Fatalf("unexpected %s record inside a chunk", r.Op)
					}
				}
				if err := cw.Err(); err != nil {
					t.Fatal(err)
				}
				idx, err := b.ChunkIndex(ci)
				if err != nil {
					t.Fatal(err)
				}
				n := 0
				for _, x := range idx {
					if perConn[x.Conn] != x.Count {
						t.Fatalf("index data says %d messages of connection %d, chunk has %d", x.Count, x.Conn, perConn[x.Conn])
					}
					for _, e := range x.Entries {
						if tm, ok := inChunk[e.Offset]; !ok || tm != e.Time {
							t.Fatalf("index entry %v@%d does not point at a message with that time", e.Time, e.Offset)
						}
						n++
					}
				}
				if n != len(inChunk) || uint64(n) != ci.Messages() {
					t.Fatalf("chunk at %d: %d index entries, %d messages, chunk info says %d", ci.ChunkPos, n, len(inChunk), ci.Messages())
				}
			}
		})
	}
}

// TestBrokenBags checks the documented error of each shared broken bag.
func TestBrokenBags(t *testing.T) {
	requireShared(t)
	tests := []struct {
		file     string
		sentinel error
		offset   int64
	}{
		{"cruise-automation__rosbag.js/fixtures/empty-file.bag", ErrNotBag, 0},
		{"Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_unindexed.bag", ErrUnindexed, 17},
		{"Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag", ErrUnindexed, 17},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			_, err := Open(sharedBags + "/" + tc.file)
			var fe *FormatError
			if !errors.Is(err, tc.sentinel) || !errors.As(err, &fe) || fe.Offset != tc.offset {
				t.Fatalf("error %v, want %v at offset %d", err, tc.sentinel, tc.offset)
			}
		})
	}
}
