package model

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
	"github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model/msgref"
)

// TestMessageReaderMarksDamage: a message read alone (the Message view's
// read) carries the mark a read of every message gives it: Suspect where
// the iteration says so (a resynced chunk of a real bag), and Damaged for
// a message recovered whole from a damaged chunk (the cut chunk of
// test_truncated.bag), never neither. The intact bag has no mark. The
// iteration is the oracle for Suspect; the chunks the recording reports
// damaged are for Damaged.
func TestMessageReaderMarksDamage(t *testing.T) {
	tilt := filepath.Join(sharedBags, "facontidavide__PlotJuggler/datasamples/tilt_laser.bag")
	cases := []struct {
		name string
		src  string
		// damage edits the copy (nil: read as it is).
		damage func(t *testing.T, data []byte) []byte
		// suspect, damaged: whether some message must carry that mark.
		suspect, damaged bool
	}{
		{"intact", tilt, nil, false, false},
		{"record header broken in an uncompressed chunk", tilt, breakRecord, true, false},
		{"chunk cut by the end of the file", filepath.Join(sharedBags, "Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag"), nil, false, true},
		{"MCAP chunk whose records fail their CRC", tilt, flipInMCAPChunk, true, false},
		{"db3 page whose bytes do not add up", filepath.Join(sharedBags, "facontidavide__PlotJuggler/datasamples/rosbag2_test/rosbag2_test_0.db3"), func(t *testing.T, data []byte) []byte {
			out, page := db3test.UnsoundLeaf(data)
			if page == 0 {
				t.Fatal("no table leaf page")
			}
			return out
		}, true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := os.ReadFile(tc.src)
			if err != nil {
				t.Skipf("the shared recordings are needed: %v", err)
			}
			if tc.damage != nil {
				data = tc.damage(t, data)
			}
			p := filepath.Join(t.TempDir(), filepath.Base(tc.src))
			if bytes.HasPrefix(data, []byte("\x89MCAP")) {
				p += ".mcap"
			}
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			s, err := OpenStorage(p)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			units := bag.DamagedUnits(s, nil)
			r := NewMessageReader(s, nil)
			it := s.Messages(bag.MessageFilter{})
			defer it.Close()
			var suspect, damaged, n int
			for it.Next() {
				m := it.Message()
				if n++; n > 400 && m.Suspect == "" && units(m.Loc) == "" {
					continue // the marked ones all, and the first others
				}
				ref := msgref.Ref{T: m.Time.Nanos(), Loc: msgref.Loc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}}
				got, err := r.Read(ref)
				if err != nil {
					t.Fatalf("message at %+v: %v", ref.Loc, err)
				}
				if got.Suspect != m.Suspect {
					t.Fatalf("message at %+v: read alone its mark is %q, the iteration's %q", ref.Loc, got.Suspect, m.Suspect)
				}
				wantDamaged := m.Suspect == "" && units(m.Loc) != ""
				if (got.Damaged != "") != wantDamaged {
					t.Fatalf("message at %+v: Damaged %q, want it set %v", ref.Loc, got.Damaged, wantDamaged)
				}
				if got.Suspect != "" {
					suspect++
				}
				if got.Damaged != "" {
					damaged++
				}
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			if (suspect > 0) != tc.suspect || (damaged > 0) != tc.damaged {
				t.Errorf("%d suspect and %d from damaged chunks; want suspect %v, damaged %v", suspect, damaged, tc.suspect, tc.damaged)
			}
			if tc.damaged {
				// The mark names the chunk and its damage.
				for _, b := range s.Blocks() {
					if why := units(bag.Loc{Block: b.Offset}); why != "" && !strings.Contains(why, "chunk at") {
						t.Errorf("the damaged chunk's mark does not name it: %q", why)
					}
				}
			}
		})
	}
}

// breakRecord gives the second message record of the second uncompressed
// chunk of a ROS 1 bag a header length past its chunk: the iteration
// resyncs the chunk, whose messages are then suspect.
func breakRecord(t *testing.T, data []byte) []byte {
	t.Helper()
	b, err := ros1.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, ci := range b.ChunkInfos[1:] {
		ch, err := b.ChunkHeader(ci)
		if err != nil || ch.Compression != ros1.CompressionNone {
			continue
		}
		idx, err := b.ChunkIndex(ci)
		if err != nil || len(idx) == 0 || len(idx[0].Entries) < 2 {
			continue
		}
		out := append([]byte(nil), data...)
		binary.LittleEndian.PutUint32(out[ch.DataOffset+int64(idx[0].Entries[1].Offset):], 0x7fffffff)
		return out
	}
	t.Fatal("no uncompressed chunk with two messages")
	return nil
}

// flipInMCAPChunk writes a ROS 1 bag as an MCAP of uncompressed chunks
// with their CRCs and flips a byte in the middle of its second chunk: the
// chunk's records fail their CRC, and the iteration reads them suspect.
func flipInMCAPChunk(t *testing.T, data []byte) []byte {
	t.Helper()
	b, err := ros1.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if _, err := mcap.Write(&out, ros1.NewStore(b), mcap.WriteOptions{Compression: "none", ChunkSize: 256 << 10}); err != nil {
		t.Fatal(err)
	}
	m, err := mcap.NewReader(bytes.NewReader(out.Bytes()), int64(out.Len()), "")
	if err != nil {
		t.Fatal(err)
	}
	blk := m.Blocks()[1]
	res := out.Bytes()
	res[blk.Offset+blk.Len/2] ^= 0x01
	return res
}
