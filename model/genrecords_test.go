package model

import (
	"context"
	"errors"
	"fmt"
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
	// A field's length prefix is a span of its own, tinted as framing;
	// a ROS 1 record's header_len and data_len are framing too.
	r0 := &bag.Record{Offset: 10, Len: 20, Fields: []bag.RecordField{{Name: "header_len", Start: 0, End: 4},
		{Name: "topic", Value: `"/a"`, Start: 4, End: 16, Prefix: 4}, {Name: "data_len", Start: 16, End: 20}}}
	if got := FieldSpans(r0); len(got) != 4 || got[0].Kind != SpanLength || got[1].Kind != SpanFieldLength || got[1].End != 18 ||
		got[2].Kind != SpanField || got[2].Start != 18 || got[2].Name != `topic = "/a"` || got[3].Kind != SpanLength {
		t.Errorf("prefixed field: %+v", got)
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
	// The block's own record and its chunk index, through the lister.
	if x.Own == nil || x.Own.Kind != "chunk" || x.Own.Offset != b.Offset {
		t.Errorf("own record %+v", x.Own)
	}
	if !x.IndexKnown || len(x.Index) != 1 || x.Index[0].Kind != "chunk index" || !strings.HasPrefix(x.Index[0].Summary, fmt.Sprintf("chunk at %d ", b.Offset)) {
		t.Errorf("index records %+v (known %v)", x.Index, x.IndexKnown)
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
	// A topic's rows are its messages' records and its channel record.
	for topic, n := range topics {
		rows := x.TopicRows(s, []string{topic})
		channels := 0
		for _, i := range rows {
			if r := x.Record(i); r.Kind == "channel" {
				channels++
				if !strings.Contains(r.Summary, topic) {
					t.Errorf("%s: the channel record at %d is %q", topic, r.Offset, r.Summary)
				}
			} else if _, ok := x.Message(i); !ok {
				t.Errorf("%s: row of a %s record", topic, r.Kind)
			}
		}
		if len(rows) != n+1 || channels != 1 {
			t.Errorf("%s: %d rows, %d messages and %d channel records", topic, len(rows), n, channels)
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

// TestBlockDetailOfROS1 checks a ROS 1 chunk as the Chunk view reads it
// through the seam against the bag itself: its counts per connection add up
// to the chunk info's and to the message records inside it, its own record
// is the chunk record with its header fields, and its index record is the
// chunk info, with the fields the ROS 1 views decoded.
func TestBlockDetailOfROS1(t *testing.T) {
	for _, p := range []string{"../testdata/lz4-multichunk.bag", "../testdata/bz2-multichunk.bag", "../testdata/none-multichunk.bag", "../assets/sample.bag"} {
		t.Run(filepath.Base(p), func(t *testing.T) {
			d, err := Open(context.Background(), p, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			blocks := d.Storage.Blocks()
			if len(blocks) != len(d.Bag.ChunkInfos) || len(blocks) == 0 {
				t.Fatalf("%d blocks, %d chunk infos", len(blocks), len(d.Bag.ChunkInfos))
			}
			for i, ci := range d.Bag.ChunkInfos {
				c := BlockDetailAt(d.Storage, ci.ChunkPos)
				if c == nil || c.Index != i || c.N != len(blocks) || c.Damage() != "" {
					t.Fatalf("chunk at %d: %+v", ci.ChunkPos, c)
				}
				in, err := ReadInnerRecords(context.Background(), d.Storage, ci.ChunkPos)
				if err != nil || in.Err != nil {
					t.Fatal(err, in.Err)
				}
				if in.Size() != int64(c.Block.UncompressedSize) {
					t.Errorf("chunk %d: %d bytes uncompressed, the data has %d", i, c.Block.UncompressedSize, in.Size())
				}
				perConn := map[uint32]uint64{}
				for k := range in.Len() {
					if e, ok := in.Message(k); ok {
						if in.Record(k).Kind != "message data" {
							t.Fatalf("chunk %d: message %+v at a %s record", i, e, in.Record(k).Kind)
						}
						perConn[e.Conn]++
					}
				}
				for _, cc := range c.Conns {
					if perConn[cc.Conn] != cc.Count || cc.Topic == "?" {
						t.Errorf("chunk %d conn %d (%s): info says %d, records %d", i, cc.Conn, cc.Topic, cc.Count, perConn[cc.Conn])
					}
				}
				own := map[string]string{}
				if in.Own != nil {
					for _, f := range in.Own.Fields {
						own[f.Name] = f.Value
					}
				}
				if in.Own == nil || in.Own.Kind != "chunk" || own["size"] != fmt.Sprint(c.Block.UncompressedSize) || own["compression"] != fmt.Sprintf("%q", c.Block.Compression) {
					t.Errorf("chunk %d: own record %+v", i, in.Own)
				}
				if !in.IndexKnown || len(in.Index) != 1 || in.Index[0].Offset != ci.Offset || in.Index[0].Kind != "chunk info" {
					t.Fatalf("chunk %d: index records %+v (known %v), want the chunk info at %d", i, in.Index, in.IndexKnown, ci.Offset)
				}
				ver := ""
				for _, f := range in.Index[0].Fields {
					if f.Name == "ver" {
						ver = f.Value
					}
				}
				if ver != fmt.Sprint(ci.Ver) {
					t.Errorf("chunk %d: chunk info ver %q, want %d", i, ver, ci.Ver)
				}
			}
		})
	}
}

// TestBlockDetailOfROS1Damaged shows why the salvaged chunk of a cut bag
// is damaged, and that a scan rebuilt its chunk info.
func TestBlockDetailOfROS1Damaged(t *testing.T) {
	s := openStorage(t, sharedBags+"/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag")
	c := BlockDetailOf(s, 0)
	if c == nil || !strings.Contains(c.Damage(), "never closed") {
		t.Fatalf("cut chunk not damaged: %+v", c)
	}
	in, err := ReadInnerRecords(context.Background(), s, c.Block.Offset)
	if err != nil {
		t.Fatal(err)
	}
	if !in.IndexKnown || len(in.Index) != 0 {
		t.Errorf("index records %+v (known %v): the scan rebuilt the chunk info", in.Index, in.IndexKnown)
	}
}
