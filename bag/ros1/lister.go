package ros1

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

var _ bag.BlockIndexLister = (*Store)(nil)

// maxListedEntries bounds the entries of an index data or chunk info
// record listed as fields; the rest are one field.
const maxListedEntries = 4096

// maxListedData bounds the data bytes read to list a record's data as
// fields (a connection header, index entries, chunk info entries).
const maxListedData = maxListedEntries * 12

// ReadRange reads file bytes [off, off+n).
func (s *Store) ReadRange(off int64, n int) ([]byte, error) {
	size := s.Bag.Size()
	if off < 0 || n < 0 || off > size || int64(n) > size-off {
		return nil, fmt.Errorf("bytes %d..%d are outside the file (%d bytes)", off, off+int64(n), size)
	}
	p := make([]byte, n)
	if m, err := s.Bag.ReaderAt().ReadAt(p, off); err != nil && !(errors.Is(err, io.EOF) && m == n) {
		return nil, err
	}
	return p, nil
}

// Records lists the bag's top-level records from file offset from on, in
// byte order: the version line, the bag header, chunks, index data,
// connections and chunk infos, each with its header fields decoded and its
// data as fields where it is structured (a connection header, index
// entries, chunk info entries). A record that does not parse ends in a
// Damaged record over the bytes up to the next record start the bag knows
// of (a chunk the scan salvaged is listed, damaged, first).
func (s *Store) Records(ctx context.Context, from int64, fn func(*bag.Record) bool) error {
	b := s.Bag
	if from < VersionLineLen {
		line, err := s.ReadRange(0, VersionLineLen)
		if err != nil {
			return err
		}
		if !fn(&bag.Record{Offset: 0, Len: VersionLineLen, Kind: "version line", Summary: strings.TrimSpace(string(line)),
			Fields: []bag.RecordField{{Name: "version", Value: fmt.Sprintf("%q", line), Start: 0, End: VersionLineLen}}}) {
			return nil
		}
		from = VersionLineLen
	}
	w := b.WalkFrom(from)
	for n := 0; ; n++ {
		if n%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if w.Next() {
			if !fn(s.listed(w.Record())) {
				return nil
			}
			continue
		}
		if w.Err() == nil {
			return nil
		}
		off, why := w.Offset(), w.Err()
		skipFrom := off
		if ch, err := b.ChunkAt(off); err == nil {
			r := s.listed(&ch.Record)
			r.Damaged, r.Err = true, why
			if !fn(r) {
				return nil
			}
			skipFrom = ch.End()
		}
		next := s.nextKnown(off, skipFrom)
		end := next
		if end < 0 {
			end = b.Size()
		}
		if end > skipFrom {
			if !fn(&bag.Record{Offset: skipFrom, Len: end - skipFrom, Kind: "unreadable bytes", Damaged: true, Err: why}) {
				return nil
			}
		}
		if next < 0 {
			return nil
		}
		w = b.WalkFrom(next)
	}
}

// nextKnown is the first record start the bag knows of (a chunk from its
// index or its scan, the index section, the end of a range the scan
// skipped) after the damaged record at off and at or after from, or -1.
func (s *Store) nextKnown(off, from int64) int64 {
	b := s.Bag
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
	return next
}

// BlockRecords lists the connection and message data records inside the
// chunk at file offset block, with offsets into its uncompressed data,
// and returns that data. A damaged inner record ends the list, with the
// error.
func (s *Store) BlockRecords(block int64) ([]*bag.Record, []byte, error) {
	ch, err := s.Bag.ChunkAt(block)
	if err != nil {
		return nil, nil, err
	}
	data, err := s.Bag.ReadChunkData(ch, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("reading chunk at %d: %w", block, err)
	}
	var recs []*bag.Record
	w := NewChunkWalker(data, block)
	for w.Next() {
		rec := *w.Record()
		rec.Header = append(Header(nil), rec.Header...) // the walker reuses its slice
		recs = append(recs, s.listedData(&rec, w.Data()))
	}
	return recs, data, w.Err()
}

// listed is a top-level record as bag lists it, its data read from the
// file where it is listed as fields.
func (s *Store) listed(rec *Record) *bag.Record {
	var data []byte
	switch rec.Op {
	case OpConnection, OpIndexData, OpChunkInfo:
		n := min(int64(rec.DataLen), maxListedData)
		if d, err := s.ReadRange(rec.DataOffset, int(n)); err == nil {
			data = d
		}
	}
	return s.listedData(rec, data)
}

// listedData is rec as bag lists it; data is the record's data, or its
// first bytes, where it is listed as fields (nil: one data field).
func (s *Store) listedData(rec *Record, data []byte) *bag.Record {
	r := &bag.Record{Offset: rec.Offset, Len: rec.Size(), Op: uint8(rec.Op), Kind: rec.Op.String(), Summary: s.summary(rec)}
	at := func(abs int64) int64 { return abs - rec.Offset }
	r.Fields = append(r.Fields, bag.RecordField{Name: "header_len", Value: fmt.Sprint(rec.HeaderLen), Type: "uint32", Start: 0, End: 4})
	r.Fields = append(r.Fields, headerFields(rec.Header, at(rec.HeaderOffset), "")...)
	hend := at(rec.HeaderOffset + int64(rec.HeaderLen))
	r.Fields = append(r.Fields, bag.RecordField{Name: "data_len", Value: fmt.Sprint(rec.DataLen), Type: "uint32", Start: hend, End: hend + 4})
	r.Fields = append(r.Fields, dataFields(rec, data, at(rec.DataOffset))...)
	return r
}

// dataFields lists a record's data, starting at start (relative to the
// record): a connection's header field by field, index data and chunk
// info entry by entry (at most maxListedEntries), else as one field.
func dataFields(rec *Record, data []byte, start int64) []bag.RecordField {
	whole := bag.RecordField{Name: "data", Value: fmt.Sprintf("%d bytes", rec.DataLen), Start: start, End: start + int64(rec.DataLen)}
	if data == nil {
		if rec.Op == OpBagHeader {
			whole.Name, whole.Value = "padding", fmt.Sprintf("%d bytes", rec.DataLen)
		}
		return []bag.RecordField{whole}
	}
	var out []bag.RecordField
	switch rec.Op {
	case OpConnection:
		if int64(len(data)) < int64(rec.DataLen) {
			return []bag.RecordField{whole}
		}
		h, err := parseHeader(data, 0, nil)
		if err != nil {
			return []bag.RecordField{whole}
		}
		return headerFields(h, start, "connection ")
	case OpIndexData, OpChunkInfo:
		size, name := int64(12), "entry"
		if rec.Op == OpChunkInfo {
			size, name = 8, "conn"
		}
		n := int64(len(data)) / size
		for i := range n {
			e := data[i*size : (i+1)*size]
			var v string
			if rec.Op == OpIndexData {
				v = fmt.Sprintf("time %s, offset %d", parseTime(e[:8]), le32(e[8:]))
			} else {
				v = fmt.Sprintf("conn %d: %d messages", le32(e), le32(e[4:]))
			}
			s := start + i*size
			out = append(out, bag.RecordField{Name: fmt.Sprintf("%s %d", name, i), Value: v, Start: s, End: s + size})
		}
		if rest := start + n*size; rest < whole.End {
			out = append(out, bag.RecordField{Name: "more", Value: fmt.Sprintf("%d bytes", whole.End-rest), Start: rest, End: whole.End})
		}
		return out
	}
	return []bag.RecordField{whole}
}

// headerFields lists a header's fields, each from its 4-byte length
// prefix to the end of its value, the header starting at start (relative
// to the record); prefix goes before each name.
func headerFields(h Header, start int64, prefix string) []bag.RecordField {
	out := make([]bag.RecordField, 0, len(h))
	for _, f := range h {
		s := start + int64(f.Offset)
		out = append(out, bag.RecordField{Name: prefix + f.Name, Value: f.Text(), Type: f.Kind().String(),
			Start: s, End: s + 4 + int64(len(f.Name)+1+len(f.Value)), Prefix: 4})
	}
	return out
}

// IndexRecords returns the file offset of the chunk info record of the
// chunk at file offset block: none when a scan of the file rebuilt it.
func (s *Store) IndexRecords(block int64) ([]int64, bool) {
	ci := s.chunkInfo(block)
	if ci == nil || ci.Offset < 0 {
		return nil, true
	}
	return []int64{ci.Offset}, true
}

// summary is a short line about rec's key fields, as `records` shows it.
func (s *Store) summary(rec *Record) string {
	h := rec.Header
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
	switch rec.Op {
	case OpBagHeader:
		return "index_pos " + val("index_pos") + "  ·  conns " + val("conn_count") + "  ·  chunks " + val("chunk_count")
	case OpConnection:
		return val("topic") + "  ·  conn " + val("conn")
	case OpMessageData:
		line := "conn " + val("conn")
		if v, ok := h.Get("conn"); ok && len(v) == 4 {
			if c := s.Connection(le32(v)); c != nil {
				line += " " + c.Topic
			}
		}
		return line + "  ·  time " + val("time")
	case OpChunk:
		line := val("compression") + ", " + val("size") + " bytes"
		if v, ok := h.Get("size"); ok && len(v) == 4 && le32(v) > 0 && rec.DataLen > 0 {
			line += fmt.Sprintf(" (ratio %.2f)", float64(le32(v))/float64(rec.DataLen))
		}
		return line
	case OpChunkInfo:
		return "ver " + val("ver") + "  ·  chunk_pos " + val("chunk_pos") + "  ·  " + val("start_time") + " .. " + val("end_time") + "  ·  conns " + val("count")
	case OpIndexData:
		return "conn " + val("conn") + "  ·  count " + val("count")
	}
	var parts []string
	for _, f := range h {
		if f.Name != "op" {
			parts = append(parts, f.Name)
		}
	}
	return strings.Join(parts, "  ·  ")
}

// Text is the field's decoded value as text.
func (f Field) Text() string {
	switch v := f.Decoded().(type) {
	case Op:
		return fmt.Sprintf("0x%02x (%s)", uint8(v), v)
	case Time:
		return fmt.Sprintf("%s (%s)", v, v.Std().Format("2006-01-02 15:04:05.000 MST"))
	case string:
		return fmt.Sprintf("%q", v)
	case []byte:
		return fmt.Sprintf("% x", v)
	default:
		return fmt.Sprint(v)
	}
}
