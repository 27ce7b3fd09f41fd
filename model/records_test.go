package model

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

func TestBuildRecordIndex(t *testing.T) {
	for _, path := range []string{
		"../testdata/single-message.bag",
		"../testdata/empty.bag",
		"../testdata/lz4-multichunk.bag",
		"../testdata/bz2-multichunk.bag",
		"../testdata/none-multichunk.bag",
	} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			if _, err := os.Stat(path); err != nil {
				t.Skipf("fixture missing: %v", err)
			}
			b, err := ros1.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			var last int64
			x, err := BuildRecordIndex(context.Background(), b, func(done, total int64, _ string) { last = done })
			if err != nil {
				t.Fatal(err)
			}
			if x.Err != nil {
				t.Fatalf("walk stopped: %v", x.Err)
			}
			if last != b.Size() {
				t.Errorf("last progress %d, want %d", last, b.Size())
			}
			w := b.Walk()
			i := 0
			for ; w.Next(); i++ {
				rec := w.Record()
				if i >= x.Len() || x.Offset(i) != rec.Offset || x.Op(i) != rec.Op {
					t.Fatalf("record %d: index differs from walk at %d", i, rec.Offset)
				}
				got, err := x.Record(i)
				if err != nil || got.DataLen != rec.DataLen || len(got.Header) != len(rec.Header) {
					t.Fatalf("Record(%d) = %+v, %v", i, got.Pos, err)
				}
				checkSpans(t, &got)
				if rec.Op == ros1.OpChunk {
					cr, err := ReadChunkRecords(context.Background(), b, rec.Offset)
					if err != nil || cr.Err != nil || cr.Len() == 0 {
						t.Fatalf("chunk at %d: %v %v", rec.Offset, err, cr.Err)
					}
					for j := 0; j < cr.Len(); j++ {
						r, _ := cr.Record(j)
						checkSpans(t, &r)
						if r.End() > cr.Size() {
							t.Fatalf("inner record %d ends past the chunk data", j)
						}
					}
				}
			}
			if i != x.Len() {
				t.Errorf("index has %d records, walk %d", x.Len(), i)
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

func TestBuildRecordIndexCancel(t *testing.T) {
	path := "../testdata/lz4-multichunk.bag"
	b, err := ros1.Open(path)
	if err != nil {
		t.Skip(err)
	}
	defer b.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := BuildRecordIndex(ctx, b, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestRecordIndexPastDamage builds the record index of every shared bag
// that must be scanned: every chunk the scan found is listed (the salvaged
// ones marked damaged), where before the list stopped at the first damage.
func TestRecordIndexPastDamage(t *testing.T) {
	scanned := 0
	for _, p := range reftest.SharedBagPaths(t, sharedBags) {
		b, err := ros1.OpenOrScan(p)
		if err != nil || b.Scan == nil {
			if err == nil {
				b.Close()
			}
			continue
		}
		scanned++
		t.Run(p[len(sharedBags)+1:], func(t *testing.T) {
			defer b.Close()
			x, err := BuildRecordIndex(context.Background(), b, nil)
			if err != nil {
				t.Fatal(err)
			}
			at := map[int64]int{}
			for i := range x.Len() {
				at[x.Offset(i)] = i
				if i > 0 && x.Offset(i) <= x.Offset(i-1) {
					t.Fatalf("record %d at %d is not after record %d at %d", i, x.Offset(i), i-1, x.Offset(i-1))
				}
				rec, err := x.Record(i)
				if err != nil {
					t.Errorf("record %d at %d cannot be read: %v", i, x.Offset(i), err)
				} else if rec.Op != x.Op(i) {
					t.Errorf("record %d: op %v, listed as %v", i, rec.Op, x.Op(i))
				}
			}
			for _, ci := range b.ChunkInfos {
				i, ok := at[ci.ChunkPos]
				if !ok {
					t.Errorf("the chunk at %d, which the scan read, is not listed (first damage: %v)", ci.ChunkPos, x.Err)
					continue
				}
				if x.Op(i) != ros1.OpChunk {
					t.Errorf("record at %d is a %v, want a chunk", ci.ChunkPos, x.Op(i))
				}
			}
			if o := b.Scan.Open; o != nil {
				i, ok := at[o.Pos]
				if !ok || x.Damaged[i] == nil {
					t.Errorf("the open chunk at %d should be listed as damaged (listed %v)", o.Pos, ok)
				}
			}
		})
	}
	if scanned == 0 {
		t.Fatal("no shared bag needed scanning: the test checks nothing")
	}
}

// TestRecordIndexPastDamagedChunk breaks the header of a chunk in the middle
// of an indexed bag: the walk lists the records before it, skips to the
// next chunk the index knows, and lists every later record.
func TestRecordIndexPastDamagedChunk(t *testing.T) {
	src := "../testdata/none-multichunk.bag"
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ros1.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	want, err := BuildRecordIndex(context.Background(), b, nil)
	b.Close()
	if err != nil || want.Err != nil {
		t.Fatalf("intact bag: %v, %v", err, want.Err)
	}
	if len(b.ChunkInfos) < 3 {
		t.Fatalf("fixture has %d chunks, want at least 3", len(b.ChunkInfos))
	}
	bad := b.ChunkInfos[1].ChunkPos
	// A header length running past the end of the file.
	copy(data[bad:], []byte{0xff, 0xff, 0xff, 0x7f})
	path := filepath.Join(t.TempDir(), "damaged.bag")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := ros1.OpenOrScan(path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	got, err := BuildRecordIndex(context.Background(), db, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.Err == nil {
		t.Fatal("no damage reported")
	}
	lost := map[int64]bool{}
	for i := range got.Len() {
		lost[got.Offset(i)] = true
	}
	var missing []int64
	for i := range want.Len() {
		if o := want.Offset(i); !lost[o] && (o < bad || o >= b.ChunkInfos[2].ChunkPos) {
			missing = append(missing, o)
		}
	}
	if len(missing) > 0 {
		t.Errorf("records outside the damaged chunk and its index data are missing: %v (first damage %v, skipped %v)", missing, got.Err, got.Skipped)
	}
	if len(got.Skipped) != 1 || got.Skipped[0].Start != bad {
		t.Errorf("skipped = %v, want one range from %d", got.Skipped, bad)
	}
}
