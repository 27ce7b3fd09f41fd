package ros1

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestWriterRoundTrip writes messages on two connections into many small
// chunks with each compression (compressed chunks are compressed on several
// workers and must still land in order), reads them back in order, and
// checks the result with the doctor.
func TestWriterRoundTrip(t *testing.T) {
	for _, comp := range []string{CompressionNone, CompressionLZ4, CompressionBZ2} {
		t.Run(comp, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "out.bag")
			f, err := os.Create(path)
			if err != nil {
				t.Fatal(err)
			}
			w, err := NewWriter(f, WriterOptions{Compression: comp, ChunkThreshold: 2048})
			if err != nil {
				t.Fatal(err)
			}
			for id, topic := range []string{"/a", "/b"} {
				c := &Connection{ID: uint32(id), Topic: topic}
				c.Fields = Header{{Name: "topic", Value: []byte(topic)}, {Name: "type", Value: []byte("std_msgs/String")}, {Name: "md5sum", Value: []byte("992ce8a1687cec8c8bd883ec73ca41d1")}, {Name: "message_definition", Value: []byte("string data\n")}}
				if err := w.AddConnection(c); err != nil {
					t.Fatal(err)
				}
			}
			const n = 600
			var want [][]byte
			for i := range n {
				data := fmt.Appendf(nil, "....message %d %s", i, bytes.Repeat([]byte{'x'}, i%50))
				copy(data, []byte{byte(len(data) - 4), 0, 0, 0})
				want = append(want, data)
				if err := w.WriteMessage(uint32(i%2), Time{Sec: 100 + uint32(i/10), NSec: uint32(i % 10)}, data); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			f.Close()

			b, err := Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			if len(b.ChunkInfos) < 10 {
				t.Fatalf("%d chunks; the test needs many", len(b.ChunkInfos))
			}
			// Chunks sit in the file in the order they were closed.
			for k := 1; k < len(b.ChunkInfos); k++ {
				p, c := b.ChunkInfos[k-1], b.ChunkInfos[k]
				if c.ChunkPos <= p.ChunkPos || c.Start.Before(p.End) {
					t.Fatalf("chunk %d at %d (from %s) follows one at %d (to %s)", k, c.ChunkPos, c.Start, p.ChunkPos, p.End)
				}
			}
			it := b.Messages(MessageFilter{})
			i := 0
			for it.Next() {
				m := it.Message()
				if i >= n || !bytes.Equal(m.Data, want[i]) || m.Conn.ID != uint32(i%2) {
					t.Fatalf("message %d differs: %q on %d", i, m.Data, m.Conn.ID)
				}
				i++
			}
			if it.Err() != nil || i != n {
				t.Fatalf("read %d of %d messages: %v", i, n, it.Err())
			}
			in, _ := os.Open(path)
			defer in.Close()
			st, _ := in.Stat()
			rep, err := Check(in, st.Size())
			if err != nil || rep.Errors() > 0 {
				t.Fatalf("check: %v %v", err, rep.Findings)
			}
		})
	}
}
