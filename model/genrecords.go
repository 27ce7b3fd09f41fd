package model

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
)

// This file is the Records and Chunk views' model for every format whose
// storage lists its own records (bag.RecordLister: ROS 1, MCAP, .db3):
// what a format decodes of its records comes as their fields, so that one
// view shows every format.

// Lister returns the bag.RecordLister behind s, or nil when its format does
// not list its records.
func Lister(s bag.Storage) bag.RecordLister {
	if s == nil {
		return nil
	}
	if l, ok := s.(bag.RecordLister); ok {
		return l
	}
	if l, ok := bag.Underlying(s).(bag.RecordLister); ok {
		return l
	}
	return nil
}

// OffsetText writes a byte offset in decimal with its hex beside it:
// "535 (0x217)".
func OffsetText(off int64) string {
	if p, own := bag.SplitPart(off); p > 0 {
		// A recording of several files (a split set, an added recording)
		// numbers its files in the offset's high bits (bag.JoinPart).
		return fmt.Sprintf("%d (0x%x) of file %d", own, own, p+1)
	}
	return fmt.Sprintf("%d (0x%x)", off, off)
}

// ListedRecords is a list of records in byte order, as a RecordLister
// gives them: a file's top-level records (FileRecords) or the records
// inside one block (InnerRecords).
type ListedRecords interface {
	// Len returns the number of records.
	Len() int
	// Offset returns the first byte of record i.
	Offset(i int) int64
	// Record returns record i with its fields. A record that cannot be
	// read again comes with Damaged and Err set; it is never nil.
	Record(i int) *bag.Record
	// ReaderAt reads the bytes the records' offsets refer to.
	ReaderAt() io.ReaderAt
	// Size is the number of bytes ReaderAt holds.
	Size() int64
}

// FileRecords lists the top-level records of a file in byte order. It
// keeps each record's offset, length and kind (about 17 bytes a record, so
// files with millions of records stay cheap) and reads a record's fields
// again when they are asked for, keeping the last few read.
type FileRecords struct {
	l       bag.RecordLister
	size    int64
	offsets []int64
	lens    []int64
	kinds   []uint8
	names   []string            // kind names, by kinds[i]
	bad     map[int]*bag.Record // damaged records, kept whole
	// Err is the first damage met, or the error that stopped the walk
	// early (the records before it are listed).
	Err error

	mu    sync.Mutex
	cache map[int]*bag.Record

	// spanned, when set, gives the records without the arrays above
	// (bag.RecordSpanner): n of them, record i at span(i), each read
	// alone when asked for.
	spanned bag.RecordSpanner
	n       int
	span    func(int) (int64, int64)
}

var _ ListedRecords = (*FileRecords)(nil)

// fileRecordsCache is how many records FileRecords keeps read.
const fileRecordsCache = 512

// BuildFileRecords walks the top-level records of l (a file of size bytes)
// in byte order. It reports progress in bytes and stops with ctx's error
// when ctx is cancelled. Damage is not an error: damaged ranges are
// listed as records with Damaged set, and Err names the first.
func BuildFileRecords(ctx context.Context, l bag.RecordLister, size int64, progress ProgressFunc) (*FileRecords, error) {
	if progress == nil {
		progress = func(int64, int64, string) {}
	}
	x := &FileRecords{l: l, size: size, bad: map[int]*bag.Record{}, cache: map[int]*bag.Record{}}
	if sp, ok := l.(bag.RecordSpanner); ok {
		// A remote .db3: its pages lie where its header says, and
		// each is read when shown, not the whole file now.
		if n, span, ok := sp.RecordSpans(); ok {
			x.spanned, x.n, x.span = sp, n, span
			progress(size, size, StageRecords)
			return x, nil
		}
	}
	kind := map[string]uint8{}
	progress(0, size, StageRecords)
	last := time.Now()
	err := l.Records(ctx, 0, func(r *bag.Record) bool {
		k, ok := kind[r.Kind]
		if !ok {
			if len(x.names) == 255 {
				k = 255 // more kinds than any format has: read them again
			} else {
				k = uint8(len(x.names))
				x.names = append(x.names, r.Kind)
				kind[r.Kind] = k
			}
		}
		if r.Damaged {
			x.bad[len(x.offsets)] = r
			if x.Err == nil {
				x.Err = r.Err
				if x.Err == nil {
					x.Err = fmt.Errorf("offset %d: damaged %s record", r.Offset, r.Kind)
				}
			}
		}
		x.offsets = append(x.offsets, r.Offset)
		x.lens = append(x.lens, r.Len)
		x.kinds = append(x.kinds, k)
		if len(x.offsets)%256 == 0 {
			if now := time.Now(); now.Sub(last) > 50*time.Millisecond {
				last = now
				progress(r.Offset+r.Len, size, StageRecords)
			}
		}
		return ctx.Err() == nil
	})
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	if err != nil && x.Err == nil {
		x.Err = err
	}
	x.offsets = slices.Clip(x.offsets)
	x.lens = slices.Clip(x.lens)
	x.kinds = slices.Clip(x.kinds)
	progress(size, size, StageRecords)
	return x, nil
}

// Len returns the number of records.
func (x *FileRecords) Len() int {
	if x.span != nil {
		return x.n
	}
	return len(x.offsets)
}

// Offset returns the file offset of record i.
func (x *FileRecords) Offset(i int) int64 {
	if x.span != nil {
		off, _ := x.span(i)
		return off
	}
	return x.offsets[i]
}

// RecordLen returns the length of record i in bytes.
func (x *FileRecords) RecordLen(i int) int64 {
	if x.span != nil {
		_, n := x.span(i)
		return n
	}
	return x.lens[i]
}

// Kind returns the kind of record i ("chunk", "damaged").
func (x *FileRecords) Kind(i int) string {
	if k := x.kind(i); k != "" {
		return k
	}
	return x.Record(i).Kind
}

// kind is Kind without reading the record: "" for a kind not kept.
func (x *FileRecords) kind(i int) string {
	if x.span != nil {
		return ""
	}
	if k := x.kinds[i]; int(k) < len(x.names) {
		return x.names[k]
	}
	return ""
}

// IsDamaged says whether record i is damaged bytes.
func (x *FileRecords) IsDamaged(i int) bool { return x.bad[i] != nil }

// Damaged returns the number of damaged records.
func (x *FileRecords) Damaged() int { return len(x.bad) }

// Record returns record i with its fields, read again from the file.
func (x *FileRecords) Record(i int) *bag.Record {
	if r := x.bad[i]; r != nil {
		return r
	}
	x.mu.Lock()
	r := x.cache[i]
	x.mu.Unlock()
	if r != nil {
		return r
	}
	if x.spanned != nil {
		return x.keep(i, x.readSpanned(i))
	}
	off := x.offsets[i]
	var got *bag.Record
	err := x.l.Records(context.Background(), off, func(rec *bag.Record) bool {
		got = rec
		return false
	})
	switch {
	case got == nil && err == nil:
		err = errors.New("the record is gone")
		fallthrough
	case got == nil:
		got = &bag.Record{Offset: off, Len: x.lens[i], Kind: x.kind(i), Damaged: true, Err: err, Summary: err.Error()}
	case got.Offset != off:
		e := fmt.Errorf("offset %d: the record read again starts at %d", off, got.Offset)
		got = &bag.Record{Offset: off, Len: x.lens[i], Kind: x.kind(i), Damaged: true, Err: e, Summary: e.Error()}
	}
	return x.keep(i, got)
}

// keep caches record i.
func (x *FileRecords) keep(i int, r *bag.Record) *bag.Record {
	x.mu.Lock()
	if len(x.cache) >= fileRecordsCache {
		clear(x.cache)
	}
	x.cache[i] = r
	x.mu.Unlock()
	return r
}

// readSpanned reads record i of a spanned list.
func (x *FileRecords) readSpanned(i int) *bag.Record {
	r := x.spanned.SpannedRecord(i)
	if off, n := x.span(i); r == nil || r.Offset != off {
		e := fmt.Errorf("offset %d: the record cannot be read", off)
		r = &bag.Record{Offset: off, Len: n, Damaged: true, Err: e, Summary: e.Error()}
	}
	return r
}

// Find returns the index of the last record that starts at or before off,
// or -1 when there is none.
func (x *FileRecords) Find(off int64) int {
	return sort.Search(x.Len(), func(i int) bool { return x.Offset(i) > off }) - 1
}

// ReaderAt reads the file's bytes.
func (x *FileRecords) ReaderAt() io.ReaderAt { return rangeReader{x.l, x.size} }

// Size returns the file's size.
func (x *FileRecords) Size() int64 { return x.size }

// rangeReader reads a RecordLister's file through ReadRange.
type rangeReader struct {
	l    bag.RecordLister
	size int64
}

func (r rangeReader) ReadAt(p []byte, off int64) (int, error) {
	// size bounds the first file only: a later file of a recording of
	// several is read at its joined offset (bag.JoinPart), past size, and
	// ends where its own file does.
	if part, _ := bag.SplitPart(off); part == 0 && off >= r.size {
		return 0, io.EOF
	}
	b, err := r.l.ReadRange(off, len(p))
	n := copy(p, b)
	if err != nil {
		return n, err
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// InnerRecords are the records inside one block, with offsets into its
// uncompressed data, and the messages the block's index lists, by the
// offset of their record.
type InnerRecords struct {
	// Block is the file offset of the block's record.
	Block int64
	// Info is the block as the storage lists it, nil when it does not.
	Info *bag.Block
	Recs []*bag.Record
	Data []byte
	// Err is what stopped the listing early (damage); the records before
	// it are listed.
	Err error
	// Messages are the block's messages by the offset of their record in
	// Data, from the block's index (empty when it cannot be read).
	Messages map[uint32]bag.IndexEntry
	// Own is the block's own record as the storage lists it (a ROS 1
	// chunk record's header fields), nil when it cannot be read.
	Own *bag.Record
	// Index are the records that index the block (a ROS 1 chunk info, an
	// MCAP chunk index), when the storage says (IndexKnown): none then
	// means the file holds none for it.
	Index      []*bag.Record
	IndexKnown bool
}

var _ ListedRecords = (*InnerRecords)(nil)

// ReadInnerRecords lists the records inside the block at file offset
// block, decompressing it, and reads the block's message index. It fails
// only when nothing could be read; a block damaged part way lists what
// could be read, with Err.
func ReadInnerRecords(ctx context.Context, s bag.Storage, block int64) (*InnerRecords, error) {
	l := Lister(s)
	if l == nil {
		return nil, errors.New("this format does not list its records")
	}
	recs, data, err := l.BlockRecords(block)
	if err != nil && recs == nil && data == nil {
		return nil, err
	}
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	x := &InnerRecords{Block: block, Recs: recs, Data: data, Err: err, Messages: map[uint32]bag.IndexEntry{}}
	x.Own = recordAt(ctx, l, block)
	if il, ok := l.(bag.BlockIndexLister); ok {
		var offs []int64
		offs, x.IndexKnown = il.IndexRecords(block)
		for _, off := range offs {
			if r := recordAt(ctx, l, off); r != nil {
				x.Index = append(x.Index, r)
			}
		}
	}
	for _, b := range s.Blocks() {
		if b.Offset == block {
			x.Info = b
			idx, _ := s.BlockIndex(b)
			for _, e := range idx {
				if e.Loc.Block == block {
					x.Messages[e.Loc.Offset] = e
				}
			}
			break
		}
	}
	return x, nil
}

// recordAt reads the top-level record at file offset off, or returns nil
// when none starts there.
func recordAt(ctx context.Context, l bag.RecordLister, off int64) *bag.Record {
	var got *bag.Record
	_ = l.Records(ctx, off, func(r *bag.Record) bool {
		got = r
		return false
	})
	if got == nil || got.Offset != off {
		return nil
	}
	return got
}

// Len returns the number of records.
func (x *InnerRecords) Len() int { return len(x.Recs) }

// Offset returns the offset of record i in the block's data.
func (x *InnerRecords) Offset(i int) int64 { return x.Recs[i].Offset }

// Record returns record i.
func (x *InnerRecords) Record(i int) *bag.Record { return x.Recs[i] }

// ReaderAt reads the block's uncompressed data.
func (x *InnerRecords) ReaderAt() io.ReaderAt { return bytesReader(x.Data) }

// Size returns the length of the uncompressed data.
func (x *InnerRecords) Size() int64 { return int64(len(x.Data)) }

// Find returns the index of the record that starts at off, or -1.
func (x *InnerRecords) Find(off int64) int {
	i := sort.Search(len(x.Recs), func(i int) bool { return x.Recs[i].Offset >= off })
	if i < len(x.Recs) && x.Recs[i].Offset == off {
		return i
	}
	return -1
}

// Message returns the message whose record is record i, as the block's
// index lists it.
func (x *InnerRecords) Message(i int) (bag.IndexEntry, bool) {
	r := x.Recs[i]
	if r.Offset < 0 || r.Offset > int64(^uint32(0)) {
		return bag.IndexEntry{}, false
	}
	e, ok := x.Messages[uint32(r.Offset)]
	return e, ok
}

// TopicRows returns the indices of the records that belong to the given
// topics, in order: their messages' records, and the records that declare
// them (a ROS 1 connection record, an MCAP channel: a field "topic" naming
// one). No topics means no filter: nil.
func (x *InnerRecords) TopicRows(s bag.Storage, topics []string) []int {
	if len(topics) == 0 {
		return nil
	}
	rows := []int{}
	for i, r := range x.Recs {
		if e, ok := x.Message(i); ok {
			if c := s.Connection(e.Conn); c != nil && slices.Contains(topics, c.Topic) {
				rows = append(rows, i)
			}
			continue
		}
		for _, f := range r.Fields {
			if f.Name != "topic" {
				continue
			}
			if t, err := strconv.Unquote(f.Value); err == nil && slices.Contains(topics, t) {
				rows = append(rows, i)
			}
			break
		}
	}
	return rows
}

type bytesReader []byte

func (b bytesReader) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(b)) {
		return 0, io.EOF
	}
	n := copy(p, b[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// FieldSpans splits a listed record's bytes into spans, one per field, in
// byte order, with offsets those of the record: the framing (op, length,
// magic) as SpanLength, payloads (data, records, content) as SpanData and
// every other field as SpanField, numbered for its tint. A span's name is
// the field's name and its value, when short. Overlapping fields are cut
// so that the spans do not overlap; a damaged record with no fields is one
// span naming why.
func FieldSpans(r *bag.Record) []Span {
	if len(r.Fields) == 0 {
		if r.Damaged && r.Len > 0 {
			why := "damaged bytes"
			if r.Err != nil {
				why = "damaged: " + r.Err.Error()
			}
			return []Span{{Name: why, Kind: SpanField, Start: r.Offset, End: r.Offset + r.Len, Field: damagedField}}
		}
		return nil
	}
	fields := slices.Clone(r.Fields)
	slices.SortStableFunc(fields, func(a, b bag.RecordField) int { return cmp.Compare(a.Start, b.Start) })
	spans := make([]Span, 0, len(fields))
	end, n := int64(0), 0
	for _, f := range fields {
		start, stop := max(f.Start, end, 0), min(f.End, r.Len)
		if stop <= start {
			continue
		}
		s := Span{Name: spanName(f), Kind: SpanField, Start: r.Offset + start, End: r.Offset + stop}
		switch strings.ToLower(f.Name) {
		case "op", "opcode", "length", "magic", "header_len", "data_len":
			s.Kind = SpanLength
		case "data", "records", "content", "payload", "compressed records", "padding":
			s.Kind = SpanData
		default:
			s.Field = n
			n++
		}
		if p := f.Prefix; p > 0 && start == f.Start && start+p < stop {
			// The field's length prefix is tinted as framing.
			spans = append(spans, Span{Name: f.Name + " length", Kind: SpanFieldLength, Start: s.Start, End: s.Start + p, Field: s.Field})
			s.Start += p
		}
		spans = append(spans, s)
		end = stop
	}
	return spans
}

// damagedField is the Field number of a damaged range's span: its tint is
// the pink of the hex view's field hues.
const damagedField = 4

// spanName names a field's span: its name, and its value when short.
func spanName(f bag.RecordField) string {
	v := strings.ReplaceAll(f.Value, "\n", `\n`)
	if v == "" || len([]rune(v)) > 48 {
		return f.Name
	}
	return f.Name + " = " + v
}

// Field is one labelled value of the Chunk view.
type Field struct{ Name, Value string }

// BlockDetail is what the Chunk view shows about one block of a storage:
// the block as the storage lists it and its messages per connection.
type BlockDetail struct {
	// Index is the block's place among the storage's blocks; N is their
	// number.
	Index, N int
	Block    *bag.Block
	// Conns are the block's per-connection counts, with topic and type,
	// in connection order.
	Conns []BlockConn
	// skipped is why a range the storage's scan skipped overlaps the
	// block, or "".
	skipped string
}

// BlockConn is one connection's message count in a block.
type BlockConn struct {
	Conn        uint32
	Topic, Type string
	Count       uint64
}

// BlockDetailAt describes the block whose record is at pos, or returns nil
// when the storage lists no block there.
func BlockDetailAt(s bag.Storage, pos int64) *BlockDetail {
	for i, b := range s.Blocks() {
		if b.Offset == pos {
			return BlockDetailOf(s, i)
		}
	}
	return nil
}

// BlockDetailOf describes the i'th block of the storage.
func BlockDetailOf(s bag.Storage, i int) *BlockDetail {
	blocks := s.Blocks()
	if i < 0 || i >= len(blocks) {
		return nil
	}
	b := blocks[i]
	d := &BlockDetail{Index: i, N: len(blocks), Block: b}
	if sc := s.FileInfo().Scanned; sc != nil {
		for _, sk := range sc.Skipped {
			if sk.Start < b.Offset+max(b.Len, 1) && sk.End > b.Offset {
				d.skipped = sk.Why
				break
			}
		}
	}
	for id, n := range b.Counts {
		c := BlockConn{Conn: id, Count: n, Topic: "?"}
		if conn := s.Connection(id); conn != nil {
			c.Topic, c.Type = conn.Topic, conn.Type
		}
		d.Conns = append(d.Conns, c)
	}
	sort.Slice(d.Conns, func(a, b int) bool { return d.Conns[a].Conn < d.Conns[b].Conn })
	return d
}

// Ratio is the compressed size over the uncompressed size (1 for an
// uncompressed block), or 0 when unknown.
func (d *BlockDetail) Ratio() float64 {
	b := d.Block
	if b.UncompressedSize == 0 {
		return 0
	}
	return float64(b.CompressedSize) / float64(b.UncompressedSize)
}

// Fields are the block's facts: where it is, its times relative to start
// (the recording's start, nanoseconds) and as UTC time of day, its
// messages, compression and sizes.
func (d *BlockDetail) Fields(start int64) []Field {
	b := d.Block
	rel := func(t bag.Time) string {
		return fmt.Sprintf("%s (%s UTC)", human.RelTime(t.Nanos()-start), time.Unix(0, t.Nanos()).UTC().Format("15:04:05.000"))
	}
	comp := b.Compression
	if comp == "" {
		comp = "none"
	}
	ratio := "—"
	if r := d.Ratio(); r > 0 {
		ratio = fmt.Sprintf("%.1f%% (%.2f×)", r*100, 1/r)
	}
	usize := "unknown"
	if b.UncompressedSize > 0 {
		usize = fmt.Sprintf("%s (%s bytes)", human.Size(int64(b.UncompressedSize)), human.Count(b.UncompressedSize))
	}
	conns := len(b.Counts)
	return []Field{
		{"Chunk", fmt.Sprintf("%d of %d", d.Index+1, d.N)},
		{"Record at", "byte " + OffsetText(b.Offset)},
		{"Length", fmt.Sprintf("%s (%s bytes, to byte %s)", human.Size(b.Len), human.Count(uint64(b.Len)), OffsetText(b.Offset+b.Len-1))},
		{"Start", rel(b.Start)},
		{"End", rel(b.End)},
		{"Duration", human.Seconds(b.End.Nanos()-b.Start.Nanos(), 3) + " s"},
		{"Messages", fmt.Sprintf("%s on %d connection%s", human.Count(b.Messages()), conns, map[bool]string{true: "s"}[conns != 1])},
		{"Compression", comp},
		{"Compressed size", fmt.Sprintf("%s (%s bytes)", human.Size(int64(b.CompressedSize)), human.Count(b.CompressedSize))},
		{"Uncompressed size", usize},
		{"Ratio", ratio},
	}
}

// Damage says why the block is damaged, or "": the storage's reason, or
// that of a range its scan skipped over the block's bytes.
func (d *BlockDetail) Damage() string {
	switch {
	case d.Block.Damaged && d.Block.Err != nil:
		return d.Block.Err.Error()
	case d.Block.Damaged:
		return "the block cannot be read whole"
	}
	return d.skipped
}
