package model

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/foxglove/mcap/go/mcap"

	"github.com/bagscope/bagscope/bag"
)

// inOrder hides a storage's parallel visit: bag.VisitMessages then reads
// it through its iterator, in time order, on one goroutine.
type inOrder struct{ bag.Storage }

// TestCheckPayloadsParallel: decoded on the chunk-reading goroutines, in
// no particular order, the payload check of an MCAP of many small chunks
// gives the findings the one-goroutine, time-ordered check gives: the
// same first 20 bad messages of each channel, the same counts.
func TestCheckPayloadsParallel(t *testing.T) {
	p := filepath.Join(t.TempDir(), "many-bad.mcap")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w, err := mcap.NewWriter(f, &mcap.WriterOptions{Chunked: true, ChunkSize: 2048, Compression: mcap.CompressionZSTD, IncludeCRC: true})
	if err != nil {
		t.Fatal(err)
	}
	w.WriteHeader(&mcap.Header{Profile: "ros2"})
	w.WriteSchema(&mcap.Schema{ID: 1, Name: "test_msgs/msg/Pair", Encoding: "ros2msg", Data: []byte("int32 a\nint32 b\n")})
	w.WriteChannel(&mcap.Channel{ID: 1, SchemaID: 1, Topic: "/pair", MessageEncoding: "cdr"})
	w.WriteChannel(&mcap.Channel{ID: 2, SchemaID: 1, Topic: "/other", MessageEncoding: "cdr"})
	good := []byte{0, 1, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0}
	for i := range 6000 {
		data, ch := good, uint16(1+i%2)
		switch {
		case i%9 == 0:
			data = good[:6+i%4] // cut short
		case i%13 == 1:
			data = append(append([]byte(nil), good...), 9, 9, 9, 9, 9, 9, 9, 9) // bytes to spare
		}
		// Times go back now and then, so file order is not time order.
		ts := uint64(1e18) + uint64(i)*1000 - uint64(i%5)*1500
		w.WriteMessage(&mcap.Message{ChannelID: ch, Sequence: uint32(i), LogTime: ts, Data: data})
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
	if len(s.Blocks()) < 20 {
		t.Fatalf("%d chunks: the test needs many", len(s.Blocks()))
	}
	par, err := CheckPayloads(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	seq, err := CheckPayloads(context.Background(), inOrder{s})
	if err != nil {
		t.Fatal(err)
	}
	if len(seq) != 2*maxPayloadFindings+2 {
		t.Fatalf("%d findings in order, want %d per channel and a count each", len(seq), maxPayloadFindings+1)
	}
	if !reflect.DeepEqual(par, seq) {
		for i := range max(len(par), len(seq)) {
			var a, b string
			if i < len(par) {
				a = fmt.Sprint(par[i])
			}
			if i < len(seq) {
				b = fmt.Sprint(seq[i])
			}
			if a != b {
				t.Errorf("finding %d:\nparallel %s\nin order %s", i, a, b)
			}
		}
	}
}
