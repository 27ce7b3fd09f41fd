package model

import (
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag/ros1"
)

// TestRecordSpansTileRecords splits every record of ROS 1 fixtures, and
// every record inside their chunks, into spans: the spans tile each
// record and name its fields.
func TestRecordSpansTileRecords(t *testing.T) {
	for _, path := range []string{
		"../testdata/single-message.bag",
		"../testdata/empty.bag",
		"../testdata/lz4-multichunk.bag",
		"../testdata/bz2-multichunk.bag",
		"../testdata/none-multichunk.bag",
	} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			b, err := ros1.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			n := 0
			for w := b.Walk(); w.Next(); n++ {
				rec := *w.Record()
				checkSpans(t, &rec)
				if rec.Op != ros1.OpChunk {
					continue
				}
				ch, err := b.ChunkAt(rec.Offset)
				if err != nil {
					t.Fatal(err)
				}
				data, err := b.ReadChunkData(ch, nil)
				if err != nil {
					t.Fatal(err)
				}
				inner := 0
				cw := ros1.NewChunkWalker(data, rec.Offset)
				for ; cw.Next(); inner++ {
					r := *cw.Record()
					checkSpans(t, &r)
					if r.End() > int64(len(data)) {
						t.Fatalf("inner record %d ends past the chunk data", inner)
					}
				}
				if cw.Err() != nil || inner == 0 {
					t.Fatalf("chunk at %d: %d records, %v", rec.Offset, inner, cw.Err())
				}
			}
			if n == 0 {
				t.Fatal("no record walked")
			}
		})
	}
}

// checkSpans checks that the spans tile the record and name its fields.
func checkSpans(t *testing.T, rec *ros1.Record) {
	t.Helper()
	s := RecordSpans(rec)
	if s[0].Start != rec.Offset || s[len(s)-1].End != rec.End() {
		t.Fatalf("spans cover %d..%d, record %d..%d", s[0].Start, s[len(s)-1].End, rec.Offset, rec.End())
	}
	for i := 1; i < len(s); i++ {
		if s[i].Start != s[i-1].End {
			t.Fatalf("gap between %v and %v", s[i-1], s[i])
		}
	}
	if len(s) != 3+2*len(rec.Header) {
		t.Fatalf("%d spans for %d fields", len(s), len(rec.Header))
	}
	for k, sp := range s {
		if sp.End > sp.Start && SpanAt(s, sp.Start) != k || sp.End > sp.Start && SpanAt(s, sp.End-1) != k {
			t.Fatalf("SpanAt misses %v", sp)
		}
	}
	if SpanAt(s, rec.End()) != -1 || SpanAt(s, rec.Offset-1) != -1 {
		t.Fatal("SpanAt outside the record")
	}
}

func TestRecordSpansExample(t *testing.T) {
	rec := ros1.Record{Pos: ros1.Pos{Offset: 100, HeaderOffset: 104, HeaderLen: 33, DataOffset: 141, DataLen: 3},
		Op: ros1.OpConnection, Header: ros1.Header{
			{Name: "op", Value: []byte{7}, Offset: 0},
			{Name: "topic", Value: []byte("/a"), Offset: 8},
			{Name: "conn", Value: []byte{0, 0, 0, 0}, Offset: 20},
		}}
	s := RecordSpans(&rec)
	want := []string{
		"header_len (bytes 100..103)",
		"header field op length (bytes 104..107)",
		"header field op (bytes 108..111)",
		"header field topic length (bytes 112..115)",
		"header field topic (bytes 116..123)",
		"header field conn length (bytes 124..127)",
		"header field conn (bytes 128..136)",
		"data_len (bytes 137..140)",
	}
	for i, w := range want {
		if got := s[i].String(); got != w {
			t.Errorf("span %d = %q, want %q", i, got, w)
		}
	}
	if got := s[len(s)-1].String(); got != "data (bytes 141..143)" {
		t.Errorf("data span %q", got)
	}
}
