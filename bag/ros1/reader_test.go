package ros1

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func openBytes(data []byte) (*Bag, error) { return NewReader(bytes.NewReader(data), int64(len(data))) }

// twoChunkBag has two overlapping chunks, two topics and a tie.
func twoChunkBag() []byte {
	return buildBag([]string{"/a", "/b"}, [][]testMsg{
		{{0, Time{Sec: 10, NSec: 0}, "a1"}, {1, Time{Sec: 11, NSec: 0}, "b1"}, {0, Time{Sec: 13, NSec: 0}, "a3"}},
		{{1, Time{Sec: 12, NSec: 0}, "b2"}, {0, Time{Sec: 13, NSec: 0}, "a4"}, {1, Time{Sec: 14, NSec: 5}, "b3"}},
	})
}

func TestOpenHandMade(t *testing.T) {
	b, err := openBytes(twoChunkBag())
	if err != nil {
		t.Fatal(err)
	}
	if b.Version != "2.0" || len(b.Connections) != 2 || len(b.ChunkInfos) != 2 {
		t.Fatalf("version %q, %d connections, %d chunks", b.Version, len(b.Connections), len(b.ChunkInfos))
	}
	if len(b.Warnings) != 0 {
		t.Fatalf("warnings: %v", b.Warnings)
	}
	s, err := b.Summary()
	if err != nil {
		t.Fatal(err)
	}
	if s.Messages != 6 || s.Start != (Time{Sec: 10, NSec: 0}) || s.End != (Time{Sec: 14, NSec: 5}) || s.Compression["none"] != 2 {
		t.Fatalf("summary %+v", s)
	}
	if len(s.Topics) != 2 || s.Topics[0].Messages != 3 || s.Topics[1].Topic != "/b" {
		t.Fatalf("topics %+v", s.Topics)
	}
}

func TestMessagesOrderAndFilter(t *testing.T) {
	b, err := openBytes(twoChunkBag())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		filter MessageFilter
		want   string
	}{
		// The tie at 13 s comes in file order: chunk 1 before chunk 2.
		{"all", MessageFilter{}, "a1 b1 b2 a3 a4 b3"},
		{"topic", MessageFilter{Topics: []string{"/b"}}, "b1 b2 b3"},
		{"conn", MessageFilter{Conns: []uint32{0}}, "a1 a3 a4"},
		{"start", MessageFilter{Start: Time{Sec: 12, NSec: 0}}, "b2 a3 a4 b3"},
		{"end inclusive", MessageFilter{End: Time{Sec: 13, NSec: 0}}, "a1 b1 b2 a3 a4"},
		{"range and topic", MessageFilter{Topics: []string{"/a"}, Start: Time{Sec: 11, NSec: 0}, End: Time{Sec: 14, NSec: 0}}, "a3 a4"},
		{"unknown topic", MessageFilter{Topics: []string{"/nope"}}, ""},
		{"empty range", MessageFilter{Start: Time{Sec: 20, NSec: 0}}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			it := b.Messages(tc.filter)
			for it.Next() {
				got = append(got, string(it.Message().Data))
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			if g := strings.Join(got, " "); g != tc.want {
				t.Fatalf("got %q, want %q", g, tc.want)
			}
		})
	}
}

func TestMessagePositions(t *testing.T) {
	data := twoChunkBag()
	b, err := openBytes(data)
	if err != nil {
		t.Fatal(err)
	}
	it := b.Messages(MessageFilter{})
	var buf ChunkBuffer
	for it.Next() {
		m := it.Message()
		ch, err := b.ChunkAt(m.ChunkPos)
		if err != nil {
			t.Fatal(err)
		}
		inner, err := b.ReadChunkData(ch, &buf)
		if err != nil {
			t.Fatal(err)
		}
		rec, _, err := parseRecordBytes(inner, int(m.Offset), nil)
		if err != nil {
			t.Fatal(err)
		}
		md, err := ParseMessageData(rec)
		if err != nil {
			t.Fatal(err)
		}
		if md.Time != m.Time || md.Conn != m.Conn.ID || !bytes.Equal(inner[rec.DataOffset:rec.End()], m.Data) {
			t.Fatalf("position %d+%d does not hold message %q", m.ChunkPos, m.Offset, m.Data)
		}
	}
}

// TestMalformed builds broken bags and checks the error's sentinel, offset
// and op.
func TestMalformed(t *testing.T) {
	good := twoChunkBag()
	b, _ := openBytes(good)
	indexPos := b.Header.IndexPos

	withHeader := func(fields ...hfield) []byte {
		return append([]byte("#ROSBAG V2.0\n"), record(header(fields...), nil)...)
	}
	patch := func(off int64, v []byte) []byte {
		c := bytes.Clone(good)
		copy(c[off:], v)
		return c
	}
	tests := []struct {
		name     string
		data     []byte
		sentinel error
		offset   int64
		contains string
	}{
		{"empty", nil, ErrNotBag, 0, "empty file"},
		{"not a bag", []byte("hello world, this is text"), ErrNotBag, 0, "does not start with"},
		{"version 1.2", []byte("#ROSBAG V1.2\n"), ErrUnsupportedVersion, 9, "unsupported bag version 1.2"},
		{"version line only", []byte("#ROSBAG V2.0\n"), ErrTruncated, 13, "record header length"},
		{"header length too big", append([]byte("#ROSBAG V2.0\n"), u32b(0xfffffff0)...), ErrTooLarge, 13, "exceeds the limit"},
		{"header length past end", append([]byte("#ROSBAG V2.0\n"), u32b(100)...), ErrTruncated, 13, "exceeds the 0 bytes left"},
		{"field length past header", append([]byte("#ROSBAG V2.0\n"), record(append(u32b(50), "op=x"...), nil)...), ErrMalformed, 17, "exceeds the 4 bytes left"},
		{"field without =", append([]byte("#ROSBAG V2.0\n"), record(append(u32b(3), "abc"...), nil)...), ErrMalformed, 17, "without '='"},
		{"no op", withHeader(hfield{"index_pos", u64b(1)}), ErrMalformed, 17, "no op field"},
		{"first record not bag header", withHeader(hfield{"op", opb(OpChunk)}), ErrMalformed, 13, "want a bag header"},
		{"bag header missing field", withHeader(hfield{"op", opb(OpBagHeader)}, hfield{"index_pos", u64b(1)}), ErrMalformed, 17, `missing header field "conn_count"`},
		{"bag header short field", withHeader(hfield{"op", opb(OpBagHeader)}, hfield{"index_pos", u32b(1)}), ErrMalformed, 17, `"index_pos" has 4 bytes, want 8`},
		{"unindexed", patch(int64(17+4+len("op=")+1+4+len("index_pos=")), u64b(0)), ErrUnindexed, 17, "index_pos 0"},
		{"index_pos past end", patch(int64(17+4+len("op=")+1+4+len("index_pos=")), u64b(1<<40)), ErrTruncated, 17, "outside the file"},
		{"index cut", good[:len(good)-10], ErrTruncated, -1, "declares"},
		{"data length past end", patch(indexPos+4+int64(le32(good[indexPos:])), u32b(1<<20)), ErrTruncated, indexPos, "connection record declares 1048576 data bytes"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := openBytes(tc.data)
			if err == nil {
				t.Fatal("opened without error")
			}
			if !errors.Is(err, tc.sentinel) {
				t.Errorf("error %v is not %v", err, tc.sentinel)
			}
			var fe *FormatError
			if !errors.As(err, &fe) {
				t.Fatalf("error %T is not a *FormatError", err)
			}
			if tc.offset >= 0 && fe.Offset != tc.offset {
				t.Errorf("offset %d, want %d (%v)", fe.Offset, tc.offset, err)
			}
			if !strings.Contains(err.Error(), tc.contains) {
				t.Errorf("error %q lacks %q", err, tc.contains)
			}
		})
	}
}

// TestMalformedChunks damages chunk contents and checks that reading the
// messages goes on past the damage and reports it, with the offset inside
// the chunk, as a skipped range; Err stays nil.
func TestMalformedChunks(t *testing.T) {
	good := twoChunkBag()
	b, _ := openBytes(good)
	ch, _ := b.ChunkAt(b.ChunkInfos[0].ChunkPos)
	all := len(readAll(t, b, MessageFilter{}))
	tests := []struct {
		name     string
		mutate   func(c []byte)
		contains string // in the skipped range's reason; "" when nothing is lost
		lost     uint64
	}{
		// The index data records locate every message after the damage.
		{"inner header length", func(c []byte) { copy(c[ch.DataOffset:], u32b(1<<30)) }, "in the chunk at 4109", 0},
		// The data is whole: nothing is lost.
		{"size mismatch", func(c []byte) {
			copy(c[ch.HeaderOffset+int64(ch.HeaderLen)-4:], u32b(ch.Size+1))
		}, "", 0},
		{"unsupported compression", func(c []byte) {
			i := bytes.Index(c[ch.HeaderOffset:], []byte("none"))
			copy(c[ch.HeaderOffset+int64(i):], "zstd")
		}, `"zstd"`, uint64(b.ChunkInfos[0].Messages())},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := bytes.Clone(good)
			tc.mutate(c)
			b, err := openBytes(c)
			if err != nil {
				t.Fatal(err)
			}
			it := b.Messages(MessageFilter{})
			n := 0
			for it.Next() {
				n++
			}
			if err := it.Err(); err != nil {
				t.Fatalf("Err() = %v, want nil: damage does not end the read", err)
			}
			sk := it.Skipped()
			if tc.contains == "" {
				if len(sk) > 0 || n != all {
					t.Fatalf("read %d of %d messages, skipped %v; want all, nothing skipped", n, all, sk)
				}
				return
			}
			if len(sk) != 1 || !strings.Contains(sk[0].Why, tc.contains) {
				t.Fatalf("skipped %v, want one range whose reason contains %q", sk, tc.contains)
			}
			if it.LostMessages() != tc.lost || uint64(n) != uint64(all)-tc.lost {
				t.Errorf("read %d of %d messages, %d lost; want %d lost", n, all, it.LostMessages(), tc.lost)
			}
		})
	}
}
