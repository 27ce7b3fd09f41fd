package model

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/foxglove/mcap/go/mcap"

	"github.com/bagscope/bagscope/bag"
)

// TestCheckPayloads writes an MCAP whose messages on one channel do not
// fit their definition (one cut short, one with bytes to spare): the check
// names each, with the offset of its chunk, and a quick check does not.
func TestCheckPayloads(t *testing.T) {
	p := filepath.Join(t.TempDir(), "bad.mcap")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: 1 << 20, Compression: mcap.CompressionLZ4})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteHeader(&mcap.Header{Profile: "ros2"})
	w.WriteSchema(&mcap.Schema{ID: 1, Name: "test_msgs/msg/Pair", Encoding: "ros2msg", Data: []byte("int32 a\nint32 b\n")})
	w.WriteChannel(&mcap.Channel{ID: 1, SchemaID: 1, Topic: "/pair", MessageEncoding: "cdr"})
	good := []byte{0, 1, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0}
	for i, data := range [][]byte{good, good[:10], append(append([]byte(nil), good...), 1, 2, 3, 4, 5, 6, 7, 8), good} {
		w.WriteMessage(&mcap.Message{ChannelID: 1, LogTime: uint64(1e18) + uint64(i), Data: data})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	s, err := OpenStorage(p)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rep, err := CheckStorage(context.Background(), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	var bad []bag.Finding
	for _, f := range rep.Findings {
		if f.Record == "message" {
			bad = append(bad, f)
		}
	}
	if len(bad) != 2 || !strings.Contains(bad[0].Message, "truncated") || !strings.Contains(bad[1].Message, "unused") {
		t.Fatalf("findings %+v, want the cut message and the one with bytes to spare", bad)
	}
	if blocks := s.Blocks(); len(blocks) != 1 || bad[0].Offset != blocks[0].Offset {
		t.Errorf("finding at offset %d, want the chunk's", bad[0].Offset)
	}
	quick, err := CheckStorage(bag.WithQuickCheck(context.Background()), s, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range quick.Findings {
		if f.Record == "message" {
			t.Errorf("a quick check decoded messages: %+v", f)
		}
	}
}
