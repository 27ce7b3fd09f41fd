package model

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag/ros1"
)

// StageRecords is the progress stage of BuildRecordIndex.
const StageRecords = "indexing records"

// RecordSet is a list of records in byte order, read on demand: the
// top-level records of a bag (RecordIndex) or the records inside one chunk
// (ChunkRecords).
type RecordSet interface {
	// Len returns the number of records.
	Len() int
	// Record returns record i with its header parsed (not its data).
	Record(i int) (ros1.Record, error)
	// ReaderAt reads the bytes the records' offsets refer to.
	ReaderAt() io.ReaderAt
	// Size is the number of bytes ReaderAt holds.
	Size() int64
}

// RecordIndex holds the offset and op of every top-level record of a bag,
// about 9 bytes per record, so bags with millions of records stay cheap.
type RecordIndex struct {
	b       *ros1.Bag
	offsets []int64
	ops     []ros1.Op
	// Err is the first damaged record met (a cut or damaged record); the
	// walk goes on at the next record start the bag knows of.
	Err error
	// Damaged lists the records that could not be read whole, by index,
	// with why (a salvaged chunk cut by the end of the file, say).
	Damaged map[int]error
	// Skipped lists the byte ranges the walk went around, with the error
	// that made it skip them.
	Skipped []ros1.ByteRange
}

var _ RecordSet = (*RecordIndex)(nil)

// BuildRecordIndex walks the top-level records of b in byte order. It
// reports progress in bytes (throttled) and stops with ctx's error when ctx
// is cancelled. A damaged record is not an error: Err says what it was,
// and the walk goes on past it where it can (see Damaged and Skipped).
func BuildRecordIndex(ctx context.Context, b *ros1.Bag, progress ProgressFunc) (*RecordIndex, error) {
	if progress == nil {
		progress = func(int64, int64, string) {}
	}
	x := &RecordIndex{b: b}
	size := b.Size()
	progress(0, size, StageRecords)
	w := b.Walk()
	for n := 0; ; n++ {
		if !w.Next() {
			if w.Err() == nil {
				break
			}
			if x.Err == nil {
				x.Err = w.Err()
			}
			next, ok := x.resync(w.Offset(), w.Err())
			if !ok {
				break
			}
			w = b.WalkFrom(next)
			continue
		}
		rec := w.Record()
		x.offsets = append(x.offsets, rec.Offset)
		x.ops = append(x.ops, rec.Op)
		if n%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			progress(rec.End(), size, StageRecords)
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	x.offsets = x.offsets[:len(x.offsets):len(x.offsets)]
	x.ops = x.ops[:len(x.ops):len(x.ops)]
	progress(size, size, StageRecords)
	return x, nil
}

// resync decides where the walk goes on after the damaged record at off:
// a chunk the bag can still read (one the scan salvaged, say) is listed,
// damaged; the walk resumes at the next record start the bag knows of (a
// chunk from its index or its scan, the index section, or the end of a
// byte range the scan skipped), or stops when there is none.
func (x *RecordIndex) resync(off int64, why error) (int64, bool) {
	b := x.b
	from := off
	if ch, err := b.ChunkAt(off); err == nil {
		if x.Damaged == nil {
			x.Damaged = map[int]error{}
		}
		x.Damaged[len(x.offsets)] = why
		x.offsets = append(x.offsets, off)
		x.ops = append(x.ops, ros1.OpChunk)
		from = ch.End()
	}
	next := int64(-1)
	consider := func(o int64) {
		if o > off && o >= from && o < b.Size() && (next < 0 || o < next) {
			next = o
		}
	}
	for _, ci := range b.ChunkInfos {
		consider(ci.ChunkPos)
	}
	if b.Header != nil && b.Scan == nil {
		consider(b.Header.IndexPos)
	}
	if b.Scan != nil {
		for _, r := range b.Scan.Skipped {
			consider(r.End)
		}
	}
	if next >= 0 && next > from {
		x.Skipped = append(x.Skipped, ros1.ByteRange{Start: from, End: next, Why: why.Error()})
	}
	return next, next >= 0
}

// Len returns the number of records.
func (x *RecordIndex) Len() int { return len(x.offsets) }

// Offset returns the file offset of record i.
func (x *RecordIndex) Offset(i int) int64 { return x.offsets[i] }

// Op returns the op of record i.
func (x *RecordIndex) Op(i int) ros1.Op { return x.ops[i] }

// Record reads record i's header from the file. A damaged chunk comes as
// the scan salvaged it: its data length is what could be read.
func (x *RecordIndex) Record(i int) (ros1.Record, error) {
	if _, bad := x.Damaged[i]; bad && x.ops[i] == ros1.OpChunk {
		ch, err := x.b.ChunkAt(x.offsets[i])
		if err != nil {
			return ros1.Record{}, err
		}
		return ch.Record, nil
	}
	return x.b.ReadRecord(x.offsets[i])
}

// ReaderAt returns the bag file's reader.
func (x *RecordIndex) ReaderAt() io.ReaderAt { return x.b.ReaderAt() }

// Size returns the bag file's size.
func (x *RecordIndex) Size() int64 { return x.b.Size() }

// ChunkRecords are the records inside one chunk, parsed from its
// decompressed data. Their offsets are relative to that data.
type ChunkRecords struct {
	// Chunk is the chunk record's header.
	Chunk   *ros1.Chunk
	data    []byte
	records []ros1.Record
	// Err is the error that stopped the walk early, if any.
	Err error
}

var _ RecordSet = (*ChunkRecords)(nil)

// ReadChunkRecords decompresses the chunk record at off and parses the
// records inside it. A damaged inner record ends the list (see Err).
func ReadChunkRecords(ctx context.Context, b *ros1.Bag, off int64) (*ChunkRecords, error) {
	ch, err := b.ChunkAt(off)
	if err != nil {
		return nil, err
	}
	data, err := b.ReadChunkData(ch, nil)
	if err != nil {
		return nil, fmt.Errorf("reading chunk at %d: %w", off, err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	c := &ChunkRecords{Chunk: ch, data: data}
	w := ros1.NewChunkWalker(data, off)
	for w.Next() {
		rec := *w.Record()
		rec.Header = append(ros1.Header(nil), rec.Header...) // the walker reuses its slice
		c.records = append(c.records, rec)
		if len(c.records)%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
	}
	c.Err = w.Err()
	return c, nil
}

// Len returns the number of records in the chunk.
func (c *ChunkRecords) Len() int { return len(c.records) }

// Record returns record i; its header aliases the chunk data.
func (c *ChunkRecords) Record(i int) (ros1.Record, error) { return c.records[i], nil }

// ReaderAt reads the chunk's decompressed data.
func (c *ChunkRecords) ReaderAt() io.ReaderAt { return bytes.NewReader(c.data) }

// Size returns the length of the decompressed data.
func (c *ChunkRecords) Size() int64 { return int64(len(c.data)) }

// SpanKind says what part of a record a span covers.
type SpanKind int

// Span kinds.
const (
	SpanLength      SpanKind = iota // the header_len or data_len field
	SpanFieldLength                 // a header field's 4-byte length prefix
	SpanField                       // a header field's name=value bytes
	SpanData                        // the record's data
)

// Span is a named range of a record's bytes, [Start, End).
type Span struct {
	Name       string
	Kind       SpanKind
	Start, End int64
	// Field is the header field's index for SpanFieldLength and SpanField.
	Field int
}

// String names the span and its bytes (inclusive), for a status line.
func (s Span) String() string {
	if s.End <= s.Start {
		return fmt.Sprintf("%s (empty, at byte %d)", s.Name, s.Start)
	}
	return fmt.Sprintf("%s (bytes %d..%d)", s.Name, s.Start, s.End-1)
}

// RecordSpans splits rec's bytes into spans in byte order: the header_len
// field, each header field's length prefix and name=value bytes, the
// data_len field and the data. Offsets are those of rec.
func RecordSpans(rec *ros1.Record) []Span {
	spans := make([]Span, 0, 3+2*len(rec.Header))
	spans = append(spans, Span{Name: "header_len", Kind: SpanLength, Start: rec.Offset, End: rec.HeaderOffset})
	for i, f := range rec.Header {
		at := rec.HeaderOffset + int64(f.Offset)
		n := int64(len(f.Name) + 1 + len(f.Value))
		spans = append(spans,
			Span{Name: "header field " + f.Name + " length", Kind: SpanFieldLength, Start: at, End: at + 4, Field: i},
			Span{Name: "header field " + f.Name, Kind: SpanField, Start: at + 4, End: at + 4 + n, Field: i})
	}
	hend := rec.HeaderOffset + int64(rec.HeaderLen)
	spans = append(spans,
		Span{Name: "data_len", Kind: SpanLength, Start: hend, End: hend + 4},
		Span{Name: "data", Kind: SpanData, Start: rec.DataOffset, End: rec.End()})
	return spans
}

// SpanAt returns the index of the span holding byte off, or -1. spans must
// be sorted and not overlap, as RecordSpans returns them.
func SpanAt(spans []Span, off int64) int {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].End > off })
	if i < len(spans) && spans[i].Start <= off {
		return i
	}
	return -1
}

// FieldText returns a header field's decoded value as text.
func FieldText(f ros1.Field) string {
	switch v := f.Decoded().(type) {
	case ros1.Op:
		return fmt.Sprintf("0x%02x (%s)", uint8(v), v)
	case ros1.Time:
		return fmt.Sprintf("%s (%s)", v, v.Std().Format("2006-01-02 15:04:05.000 MST"))
	case string:
		return fmt.Sprintf("%q", v)
	case []byte:
		return fmt.Sprintf("% x", v)
	default:
		return fmt.Sprint(v)
	}
}

// KindName names a header field kind for display.
func KindName(k ros1.FieldKind) string {
	switch k {
	case ros1.KindOp:
		return "op"
	case ros1.KindUint32:
		return "uint32"
	case ros1.KindUint64:
		return "uint64"
	case ros1.KindTime:
		return "time"
	case ros1.KindString:
		return "string"
	}
	return "bytes"
}

// RecordSummary is a short line about rec's key fields: the topic of a
// connection, the connection and time of a message, the compression and
// size of a chunk, the chunk position and times of a chunk info. b, when
// not nil, names the topics of message connections.
func RecordSummary(rec *ros1.Record, b *ros1.Bag) string {
	h := rec.Header
	u32 := func(name string) (uint32, bool) {
		for _, f := range h {
			if f.Name == name {
				v, ok := f.Decoded().(uint32)
				return v, ok
			}
		}
		return 0, false
	}
	val := func(name string) string {
		for _, f := range h {
			if f.Name == name {
				switch v := f.Decoded().(type) {
				case string:
					return v
				case []byte:
					return fmt.Sprintf("% x", v)
				default:
					return fmt.Sprint(v)
				}
			}
		}
		return "?"
	}
	var parts []string
	switch rec.Op {
	case ros1.OpBagHeader:
		parts = append(parts, "index_pos "+val("index_pos"), "conns "+val("conn_count"), "chunks "+val("chunk_count"))
	case ros1.OpConnection:
		parts = append(parts, val("topic"), "conn "+val("conn"))
	case ros1.OpMessageData:
		s := "conn " + val("conn")
		if id, ok := u32("conn"); ok && b != nil {
			if c := b.Connection(id); c != nil {
				s += " " + c.Topic
			}
		}
		parts = append(parts, s, "time "+val("time"))
	case ros1.OpChunk:
		s := val("compression") + ", " + val("size") + " bytes"
		if size, ok := u32("size"); ok && size > 0 && rec.DataLen > 0 {
			s += fmt.Sprintf(" (ratio %.2f)", float64(size)/float64(rec.DataLen))
		}
		parts = append(parts, s)
	case ros1.OpChunkInfo:
		parts = append(parts, "chunk_pos "+val("chunk_pos"), val("start_time")+" .. "+val("end_time"), "conns "+val("count"))
	case ros1.OpIndexData:
		parts = append(parts, "conn "+val("conn"), "count "+val("count"))
	default:
		for _, f := range h {
			if f.Name != "op" {
				parts = append(parts, f.Name)
			}
		}
	}
	return strings.Join(parts, "  ·  ")
}
