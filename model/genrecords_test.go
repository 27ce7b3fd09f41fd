package model

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	_ "github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/model/internal/reftest"
)

// topicsMCAP is a chunked MCAP file with 13 messages in one chunk.
const topicsMCAP = "../../shared/bags/ros2__rosbag2/rosbag2_cpp/test/rosbag2_cpp/bags/topics_and_services.mcap"

// openStorage opens a shared recording, closed when the test ends.
func openStorage(t *testing.T, path string) bag.Storage {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		reftest.SkipOrFail(t, err)
	}
	s, err := bag.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// allRecords lists the records as the lister gives them.
func allRecords(t *testing.T, l bag.RecordLister) []*bag.Record {
	t.Helper()
	var out []*bag.Record
	if err := l.Records(context.Background(), 0, func(r *bag.Record) bool { out = append(out, r); return true }); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFileRecords(t *testing.T) {
	s := openStorage(t, topicsMCAP)
	l := Lister(s)
	if l == nil {
		t.Fatal("an MCAP storage is not a RecordLister")
	}
	want := allRecords(t, l)
	var last int64
	x, err := BuildFileRecords(context.Background(), l, s.FileInfo().Size, func(done, total int64, stage string) {
		if stage != StageRecords || done < last || done > total {
			t.Errorf("progress %d/%d %q after %d", done, total, stage, last)
		}
		last = done
	})
	if err != nil {
		t.Fatal(err)
	}
	if x.Len() != len(want) || x.Len() == 0 {
		t.Fatalf("%d records, the lister lists %d", x.Len(), len(want))
	}
	if last != s.FileInfo().Size {
		t.Errorf("progress ended at %d of %d", last, s.FileInfo().Size)
	}
	if x.Err != nil || x.Damaged() != 0 {
		t.Errorf("an intact file has damage: %v (%d)", x.Err, x.Damaged())
	}
	for i, w := range want {
		r := x.Record(i)
		if r.Offset != w.Offset || r.Len != w.Len || r.Kind != w.Kind || r.Summary != w.Summary || len(r.Fields) != len(w.Fields) || x.Kind(i) != w.Kind || x.RecordLen(i) != w.Len {
			t.Errorf("record %d read again: %+v, listed %+v", i, r, w)
		}
		if x.Find(w.Offset) != i || (w.Len > 1 && x.Find(w.Offset+w.Len-1) != i) {
			t.Errorf("Find(%d) = %d, want %d", w.Offset, x.Find(w.Offset), i)
		}
	}
	if x.Find(-1) != -1 {
		t.Error("Find before the file found a record")
	}
	// The records tile the file, and the reader reads its bytes.
	end := int64(0)
	for i := range x.Len() {
		if x.Offset(i) != end {
			t.Fatalf("record %d at %d, the previous ends at %d", i, x.Offset(i), end)
		}
		end += x.RecordLen(i)
	}
	if end != x.Size() {
		t.Errorf("records end at %d of %d", end, x.Size())
	}
	head := make([]byte, 8)
	if _, err := x.ReaderAt().ReadAt(head, 0); err != nil || string(head[1:5]) != "MCAP" {
		t.Errorf("read %q, %v", head, err)
	}
	if n, err := x.ReaderAt().ReadAt(make([]byte, 16), x.Size()-4); n != 4 || err == nil {
		t.Errorf("reading past the end: %d, %v", n, err)
	}

	// Cancelled, it stops with ctx's error.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := BuildFileRecords(ctx, l, s.FileInfo().Size, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled build: %v", err)
	}
}

func TestFieldSpans(t *testing.T) {
	s := openStorage(t, topicsMCAP)
	for _, r := range allRecords(t, Lister(s)) {
		spans := FieldSpans(r)
		if len(spans) == 0 {
			t.Errorf("%s at %d: no spans", r.Kind, r.Offset)
			continue
		}
		for i, sp := range spans {
			if sp.Start < r.Offset || sp.End > r.Offset+r.Len || sp.End <= sp.Start || (i > 0 && sp.Start < spans[i-1].End) {
				t.Errorf("%s at %d: span %d %+v out of order or outside the record", r.Kind, r.Offset, i, sp)
			}
			if SpanAt(spans, sp.Start) != i {
				t.Errorf("SpanAt(%d) = %d, want %d", sp.Start, SpanAt(spans, sp.Start), i)
			}
		}
		if r.Kind == "chunk" {
			if spans[0].Kind != SpanLength || spans[0].Name != "op = 0x06 (chunk)" {
				t.Errorf("chunk's first span %+v", spans[0])
			}
			if last := spans[len(spans)-1]; last.Kind != SpanData || last.End != r.Offset+r.Len {
				t.Errorf("chunk's last span %+v", last)
			}
		}
	}
	// Overlapping fields are cut; a damaged record without fields is one
	// span saying why.
	r := &bag.Record{Offset: 100, Len: 10, Fields: []bag.RecordField{{Name: "b", Start: 4, End: 10}, {Name: "a", Value: "1", Start: 0, End: 6}}}
	got := FieldSpans(r)
	if len(got) != 2 || got[0].Name != "a = 1" || got[0].End != 106 || got[1].Start != 106 || got[1].End != 110 || got[1].Field != 1 {
		t.Errorf("overlapping fields: %+v", got)
	}
	bad := &bag.Record{Offset: 5, Len: 3, Damaged: true, Err: errors.New("cut")}
	if got := FieldSpans(bad); len(got) != 1 || !strings.Contains(got[0].Name, "cut") || got[0].End != 8 {
		t.Errorf("damaged record: %+v", got)
	}
}

func TestInnerRecordsAndBlockDetail(t *testing.T) {
	s := openStorage(t, topicsMCAP)
	blocks := s.Blocks()
	if len(blocks) == 0 {
		t.Fatal("no blocks")
	}
	b := blocks[0]
	x, err := ReadInnerRecords(context.Background(), s, b.Offset)
	if err != nil || x.Err != nil {
		t.Fatal(err, x.Err)
	}
	if x.Info != b || x.Len() == 0 || x.Size() != int64(b.UncompressedSize) {
		t.Fatalf("%d records in %d bytes of block %+v", x.Len(), x.Size(), x.Info)
	}
	// Every message the block's index lists has its record.
	idx, err := s.BlockIndex(b)
	if err != nil || uint64(len(idx)) != b.Messages() || len(x.Messages) != len(idx) {
		t.Fatalf("%d index entries (%v), %d messages", len(idx), err, len(x.Messages))
	}
	topics := map[string]int{}
	for _, e := range idx {
		i := x.Find(int64(e.Loc.Offset))
		if i < 0 || x.Record(i).Kind != "message" {
			t.Fatalf("no message record at %d", e.Loc.Offset)
		}
		if m, ok := x.Message(i); !ok || m != e {
			t.Errorf("record %d is message %+v, want %+v", i, m, e)
		}
		topics[s.Connection(e.Conn).Topic]++
	}
	if x.Find(1) != -1 {
		t.Error("found a record at offset 1")
	}
	buf := make([]byte, 4)
	if _, err := x.ReaderAt().ReadAt(buf, x.Offset(0)); err != nil || buf[0] != x.Record(0).Op {
		t.Errorf("data starts %x (%v), record 0 has op %x", buf, err, x.Record(0).Op)
	}
	for topic, n := range topics {
		rows := x.TopicRows(s, []string{topic})
		if len(rows) != n {
			t.Errorf("%s: %d rows, %d messages", topic, len(rows), n)
		}
	}
	if x.TopicRows(s, nil) != nil || len(x.TopicRows(s, []string{"/nowhere"})) != 0 {
		t.Error("topic filter without topics")
	}

	d := BlockDetailAt(s, b.Offset)
	if d == nil || d.Index != 0 || d.N != len(blocks) || BlockDetailAt(s, b.Offset+1) != nil || BlockDetailOf(s, len(blocks)) != nil {
		t.Fatalf("detail %+v", d)
	}
	var n uint64
	for i, c := range d.Conns {
		n += c.Count
		if c.Topic == "?" || (i > 0 && c.Conn <= d.Conns[i-1].Conn) {
			t.Errorf("conn %+v", c)
		}
	}
	if n != b.Messages() {
		t.Errorf("%d messages in the conns, %d in the block", n, b.Messages())
	}
	fields := map[string]string{}
	for _, f := range d.Fields(b.Start.Nanos()) {
		fields[f.Name] = f.Value
	}
	for name, want := range map[string]string{
		"Chunk": "1 of ", "Record at": "byte " + OffsetText(b.Offset), "Start": "+0.000 s", "Compression": "none", "Ratio": "100.0%",
	} {
		if !strings.HasPrefix(fields[name], want) {
			t.Errorf("%s = %q, want it to start %q", name, fields[name], want)
		}
	}
	if d.Damage() != "" {
		t.Errorf("intact block damaged: %s", d.Damage())
	}
	if OffsetText(535) != "535 (0x217)" {
		t.Error(OffsetText(535))
	}
}

// TestFileRecordsDamaged lists a file cut short: the cut bytes come as a
// damaged record, kept whole, and Err says why.
func TestFileRecordsDamaged(t *testing.T) {
	if _, err := os.Stat(topicsMCAP); err != nil {
		reftest.SkipOrFail(t, err)
	}
	data, err := os.ReadFile(topicsMCAP)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(t.TempDir(), "cut.mcap")
	if err := os.WriteFile(cut, data[:9000], 0o644); err != nil {
		t.Fatal(err)
	}
	s := openStorage(t, cut)
	x, err := BuildFileRecords(context.Background(), Lister(s), 9000, nil)
	if err != nil {
		t.Fatal(err)
	}
	if x.Damaged() == 0 || x.Err == nil {
		t.Fatalf("no damage in a cut file: %d records", x.Len())
	}
	last := x.Len() - 1
	if !x.IsDamaged(last) || !x.Record(last).Damaged || x.Offset(last)+x.RecordLen(last) != 9000 {
		t.Errorf("last record %+v", x.Record(last))
	}
	if sp := FieldSpans(x.Record(last)); len(sp) != 1 || !strings.HasPrefix(sp[0].Name, "damaged") {
		t.Errorf("damaged spans %+v", sp)
	}
}

// TestListerOfROS1 checks that a ROS 1 storage lists its records through
// the seam, as every format does (bag/ros1/lister.go tests what it lists).
func TestListerOfROS1(t *testing.T) {
	d := openSampleDoc(t)
	if Lister(d.Storage) == nil {
		t.Error("the ROS 1 storage does not list its records through the seam")
	}
	if Lister(nil) != nil {
		t.Error("nil storage")
	}
}
