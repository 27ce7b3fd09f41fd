package mcap

import (
	"context"
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/bagscope/bagscope/bag"
)

// fieldsLimit is the most of a record's content read to list its fields;
// a longer record's last field (its data) is shown by length only.
const fieldsLimit = 1 << 16

// topRec is one top-level record met by walkTop: a record, the magic, or a
// damaged byte range.
type topRec struct {
	Offset int64
	Op     Op
	N      uint64 // content length
	Magic  bool
	// Damaged marks bytes [Offset, End) that are not a record.
	Damaged bool
	End     int64
	Err     error
}

// walkTop walks the top-level records from offset from, in byte order,
// resyncing after damage. fn gets each record and the window it can read
// content through.
func (x *Reader) walkTop(ctx context.Context, from int64, fn func(t *topRec, w *window) bool) error {
	return x.walkTopSpan(ctx, from, 0, false, fn)
}

// walkTopSpan is walkTop reading the file span bytes at a time (0: the
// window's default; of a remote file, remoteSpan: a walk that stops after
// a record or two, as the Chunk tab's of the first chunk, then fetches
// what it reads, not 4 MiB ahead). reuse says that fn keeps none of the
// bytes it gets (see window.reuse).
func (x *Reader) walkTopSpan(ctx context.Context, from, span int64, reuse bool, fn func(t *topRec, w *window) bool) error {
	if span == 0 && bag.IsRemote(x.r) {
		span = remoteSpan
	}
	w := &window{r: x.r, size: x.size, off: -1, span: span, reuse: reuse}
	s := &scanner{x: x, end: x.size, full: true, cut: x.foot == nil}
	if from <= 0 {
		if !fn(&topRec{Offset: 0, Magic: true, End: magicLen}, w) {
			return nil
		}
		from = magicLen
	}
	pos := from
	for n := 0; pos < x.size; n++ {
		if n%1024 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		rem := x.size - pos
		if rem == magicLen {
			if b, err := w.get(pos, magicLen); err == nil && string(b) == Magic {
				fn(&topRec{Offset: pos, Magic: true, End: x.size}, w)
				return nil
			}
		}
		if rem < recHeaderLen {
			fn(&topRec{Offset: pos, Damaged: true, End: x.size, Err: errAt(pos, 0, ErrTruncated, "%d bytes too few for a record header", rem)}, w)
			return nil
		}
		h, err := w.get(pos, recHeaderLen)
		if err != nil {
			return err
		}
		op := Op(h[0])
		l := binary.LittleEndian.Uint64(h[1:])
		if op == 0 || l > uint64(rem-recHeaderLen) {
			next := s.resync(pos + 1)
			var e error
			if op == 0 {
				e = errAt(pos, 0, ErrMalformed, "op 0x00 is not a record")
			} else if next >= x.size {
				e = errAt(pos, op, ErrTruncated, "%s record of %d bytes is cut by the end of the file", op, l)
			} else {
				e = errAt(pos, op, ErrMalformed, "%s record length %d runs past the end of the file", op, l)
			}
			if !fn(&topRec{Offset: pos, Op: op, N: l, Damaged: true, End: next, Err: e}, w) {
				return nil
			}
			pos = next
			continue
		}
		end := pos + recHeaderLen + int64(l)
		if !fn(&topRec{Offset: pos, Op: op, N: l, End: end}, w) {
			return nil
		}
		pos = end
	}
	return nil
}

// Records calls fn for each top-level record from offset from on, in byte
// order, with its fields decoded; the magic at both ends comes as a record
// of Kind "magic", damaged bytes as a Record with Damaged set.
func (x *Reader) Records(ctx context.Context, from int64, fn func(*bag.Record) bool) error {
	return x.walkTop(ctx, from, func(t *topRec, w *window) bool {
		switch {
		case t.Magic:
			return fn(&bag.Record{Offset: t.Offset, Len: magicLen, Kind: "magic", Summary: "MCAP magic",
				Fields: []bag.RecordField{{Name: "magic", Value: strconv.Quote(Magic), Start: 0, End: magicLen}}})
		case t.Damaged:
			return fn(&bag.Record{Offset: t.Offset, Len: t.End - t.Offset, Op: uint8(t.Op), Kind: "damaged", Damaged: true, Err: t.Err,
				Summary: fmt.Sprintf("%d unreadable bytes", t.End-t.Offset)})
		}
		content, err := w.get(t.Offset+recHeaderLen, int64(min(t.N, fieldsLimit)))
		if err != nil {
			return fn(&bag.Record{Offset: t.Offset, Len: t.End - t.Offset, Op: uint8(t.Op), Kind: t.Op.String(), Damaged: true, Err: err})
		}
		return fn(describe(t.Offset, t.Op, t.N, content, nil))
	})
}

// describe decodes a record's fields. content may be the first part of the
// record's n bytes of content only.
func describe(off int64, op Op, n uint64, content []byte, conns map[uint16]string) *bag.Record {
	r := &bag.Record{Offset: off, Len: recHeaderLen + int64(n), Op: uint8(op), Kind: op.String()}
	r.Fields = append(r.Fields, bag.RecordField{Name: "op", Value: fmt.Sprintf("0x%02x (%s)", uint8(op), op), Type: "opcode", Start: 0, End: 1},
		bag.RecordField{Name: "length", Value: strconv.FormatUint(n, 10), Type: "uint64", Start: 1, End: recHeaderLen})
	d := newDec(content)
	d.fields = &r.Fields
	partial := uint64(len(content)) < n
	switch op {
	case OpHeader:
		h := parseHeader(d)
		r.Summary = fmt.Sprintf("profile %q, library %q", h.Profile, h.Library)
	case OpFooter:
		f := parseFooter(d)
		r.Summary = fmt.Sprintf("summary at %d, summary offsets at %d, CRC %08x", f.SummaryStart, f.SummaryOffsetStart, f.SummaryCRC)
	case OpSchema:
		s := parseSchema(d)
		r.Summary = fmt.Sprintf("schema %d %s (%s, %d bytes)", s.ID, s.Name, s.Encoding, len(s.Data))
	case OpChannel:
		c := parseChannel(d)
		r.Summary = fmt.Sprintf("channel %d %s (schema %d, %s)", c.ID, c.Topic, c.SchemaID, c.Encoding)
	case OpMessage:
		var m message
		if partial {
			m = message{Channel: d.u16("channel_id"), Sequence: d.u32("sequence"), LogTime: d.time("log_time"), PubTime: d.time("publish_time")}
			r.Fields = append(r.Fields, bag.RecordField{Name: "data", Value: fmt.Sprintf("%d bytes", n-messageHeaderLen), Start: recHeaderLen + messageHeaderLen, End: recHeaderLen + int64(n)})
		} else {
			m = parseMessage(d)
		}
		topic := conns[m.Channel]
		if topic == "" {
			topic = "channel " + strconv.Itoa(int(m.Channel))
		}
		r.Summary = fmt.Sprintf("%s %d B at %s", topic, n-min(n, messageHeaderLen), bag.TimeFromUnixNanos(m.LogTime))
	case OpChunk:
		h := parseChunkHeader(d)
		if d.err == nil {
			last := &r.Fields[len(r.Fields)-1]
			last.End = min(recHeaderLen+int64(h.RecordsAt)+int64(h.RecordsLen), recHeaderLen+int64(n))
			r.Summary = fmt.Sprintf("%s chunk, %d B -> %d B, %s..%s", compressionName(h.Compression), h.RecordsLen, h.USize,
				bag.TimeFromUnixNanos(h.Start), bag.TimeFromUnixNanos(h.End))
		}
	case OpMessageIndex:
		ch := d.u16("channel_id")
		start := d.p
		arr, _ := d.prefixed("records")
		if d.err == nil {
			r.Fields = append(r.Fields, bag.RecordField{Name: "records", Value: fmt.Sprintf("%d entries", len(arr)/16), Start: int64(start + recHeaderLen), End: int64(d.p + recHeaderLen)})
			r.Summary = fmt.Sprintf("channel %d, %d entries", ch, len(arr)/16)
		}
	case OpChunkIndex:
		c := parseChunkIndex(d)
		r.Summary = fmt.Sprintf("chunk at %d (%d B), %s..%s", c.Offset, c.Length, bag.TimeFromUnixNanos(c.Start), bag.TimeFromUnixNanos(c.End))
	case OpAttachment:
		if partial {
			a := attachment{LogTime: d.time("log_time"), CreateTime: d.time("create_time"), Name: d.str("name"), MediaType: d.str("media_type")}
			size := d.u64("data length")
			r.Summary = fmt.Sprintf("attachment %q (%s, %d B)", a.Name, a.MediaType, size)
		} else {
			a := parseAttachment(d)
			r.Summary = fmt.Sprintf("attachment %q (%s, %d B)", a.Name, a.MediaType, len(a.Data))
		}
	case OpAttachmentIndex:
		a := parseAttachmentIndex(d)
		r.Summary = fmt.Sprintf("attachment %q at %d", a.Name, a.Offset)
	case OpStatistics:
		s := parseStatistics(d)
		r.Summary = fmt.Sprintf("%d messages, %d channels, %d chunks", s.MessageCount, s.ChannelCount, s.ChunkCount)
	case OpMetadata:
		m := parseMetadata(d)
		r.Summary = fmt.Sprintf("metadata %q (%d keys)", m.Name, len(m.Metadata))
	case OpMetadataIndex:
		m := parseMetadataIndex(d)
		r.Summary = fmt.Sprintf("metadata %q at %d", m.Name, m.Offset)
	case OpSummaryOffset:
		s := parseSummaryOffset(d)
		r.Summary = fmt.Sprintf("%s group at %d (%d B)", s.Op, s.Start, s.Length)
	case OpDataEnd:
		c := d.u32("data_section_crc")
		r.Summary = fmt.Sprintf("data section CRC %08x", c)
	default:
		r.Summary = fmt.Sprintf("%d bytes", n)
		r.Fields = append(r.Fields, bag.RecordField{Name: "content", Value: showBytes(content), Start: recHeaderLen, End: recHeaderLen + int64(n)})
	}
	if d.err != nil && !partial {
		r.Err = errAt(off, op, ErrMalformed, "%v", d.err)
		r.Damaged = true
	}
	return r
}

// BlockRecords lists the records inside the chunk at file offset block,
// with offsets into its uncompressed records, and returns those records.
// For a damaged chunk it lists what could be decompressed, with the error.
func (x *Reader) BlockRecords(block int64) ([]*bag.Record, []byte, error) {
	c := x.chunkAt(block)
	if c == nil {
		h, err := x.readAt(block, recHeaderLen)
		if err != nil {
			return nil, nil, err
		}
		n := binary.LittleEndian.Uint64(h[1:])
		if Op(h[0]) != OpChunk {
			return nil, nil, errAt(block, Op(h[0]), ErrMalformed, "no chunk record at offset %d", block)
		}
		c = &chunk{Offset: block, Length: recHeaderLen + int64(min(n, uint64(x.size-block-recHeaderLen))), DeclaredLen: n}
	}
	l, err := x.load(c)
	if err != nil {
		return nil, nil, err
	}
	conns := map[uint16]string{}
	for _, bc := range x.conns {
		conns[uint16(bc.ID)] = bc.Topic
	}
	var recs []*bag.Record
	_, werr := walkRecords(l.data, func(op Op, off int, content []byte) bool {
		recs = append(recs, describe(int64(off), op, uint64(len(content)), content, conns))
		return true
	})
	if werr != nil {
		werr = inChunk(werr, block)
		p := int64(0)
		if len(recs) > 0 {
			p = recs[len(recs)-1].Offset + recs[len(recs)-1].Len
		}
		recs = append(recs, &bag.Record{Offset: p, Len: int64(len(l.data)) - p, Kind: "damaged", Damaged: true, Err: werr, Summary: fmt.Sprintf("%d unreadable bytes", int64(len(l.data))-p)})
	}
	if l.err != nil {
		return recs, l.data, l.err
	}
	return recs, l.data, werr
}

// ReadRange reads file bytes [off, off+n), clipped to the file.
func (x *Reader) ReadRange(off int64, n int) ([]byte, error) {
	if off < 0 || off > x.size {
		return nil, errAt(off, 0, ErrTruncated, "offset %d is outside the file (%d bytes)", off, x.size)
	}
	return x.readAt(off, min(int64(n), x.size-off))
}
