package model

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/msgref"
)

// Message is one message read by its location: its connection and time,
// its bytes, and the bytes around it that the hex view shows.
type Message struct {
	Ref  msgref.Ref
	Conn *bag.Connection
	Time bag.Time
	// Data is the serialized message: Context[DataOffset:RecordEnd].
	Data []byte
	// Context is what the hex view shows around the message: the whole
	// uncompressed chunk for a message in a ROS 1 chunk, else the message
	// data alone. It is never reused, so it stays valid while held.
	Context []byte
	// RecordStart and RecordEnd bound the message's record in Context;
	// DataOffset is where Data starts.
	RecordStart, RecordEnd, DataOffset int64
	// Header are the spans of the record's own fields before the data
	// (lengths and header fields), ending with the data span, in Context
	// offsets.
	Header []Span
	// Compression is the chunk's compression ("" outside a chunk).
	Compression string
	// Suspect, when not "", says why the message is not to be trusted:
	// it was read from a damaged unit (bag.Message.Suspect).
	Suspect string
	// Damaged, when not "" (and Suspect is ""), says which damage the
	// chunk the message was read from shows (bag.DamagedUnits): the
	// message's record is whole, but it comes from a damaged unit.
	Damaged string
}

// MessageReader reads single messages by location. It keeps the last two
// decompressed chunks of a ROS 1 bag, so stepping through neighbouring
// messages reads and decompresses nothing. It is safe for concurrent use.
type MessageReader struct {
	s     bag.Storage
	b     *ros1.Bag // the ROS 1 bag behind s, or nil
	Cache *rosmsg.Cache

	// Distrust marks a message from a damaged unit (Damaged); set it to
	// the document's (Document.Distrust) before the first Read so that
	// what any read learns marks it. nil: one of the reader's own.
	Distrust  *bag.Distrust
	unitsOnce sync.Once

	mu     sync.Mutex
	chunks [2]cachedChunk // most recently used first
	listed [2]listedBlock // the same, for formats that list their records
	enums  map[*rosmsg.Plan]Enums
}

type cachedChunk struct {
	pos         int64
	data        []byte
	compression string
	// suspect is the mark of the chunk's messages (ros1.Bag.ChunkSuspect).
	suspect string
}

// NewMessageReader returns a reader of s's messages. cache may be nil.
func NewMessageReader(s bag.Storage, cache *rosmsg.Cache) *MessageReader {
	if cache == nil {
		cache = &rosmsg.Cache{}
	}
	r := &MessageReader{s: s, Cache: cache}
	if rs, ok := bag.Underlying(s).(*ros1.Store); ok {
		r.b = rs.Bag
	}
	return r
}

// chunk returns the uncompressed data of the chunk record at pos.
func (r *MessageReader) chunk(pos int64) (cachedChunk, error) {
	r.mu.Lock()
	for i, c := range r.chunks {
		if c.data != nil && c.pos == pos {
			r.chunks[0], r.chunks[i] = c, r.chunks[0]
			r.mu.Unlock()
			return c, nil
		}
	}
	r.mu.Unlock()
	ch, err := r.b.ChunkAt(pos)
	if err != nil {
		return cachedChunk{}, err
	}
	data, err := r.b.ReadChunkData(ch, nil) // a fresh buffer: Messages alias it
	if err != nil {
		return cachedChunk{}, fmt.Errorf("reading chunk at %d: %w", pos, err)
	}
	// The mark an iteration gives the chunk's messages: its records are
	// walked, not read again.
	suspect, err := r.b.ChunkSuspect(pos, data)
	if err != nil {
		return cachedChunk{}, fmt.Errorf("reading chunk at %d: %w", pos, err)
	}
	c := cachedChunk{pos: pos, data: data, compression: ch.Compression, suspect: suspect}
	r.mu.Lock()
	r.chunks[1], r.chunks[0] = r.chunks[0], c
	r.mu.Unlock()
	return c, nil
}

// Read reads the message at ref, with its mark when it is suspect or
// comes from a damaged unit (Suspect, Damaged).
func (r *MessageReader) Read(ref msgref.Ref) (*Message, error) {
	m, err := r.read(ref)
	if err == nil && m.Suspect == "" {
		r.unitsOnce.Do(func() {
			if r.Distrust == nil {
				r.Distrust = bag.NewDistrust(r.s)
			}
		})
		m.Damaged = r.Distrust.Unit(bag.Loc{Block: ref.ChunkPos, Offset: ref.Offset})
	}
	return m, err
}

func (r *MessageReader) read(ref msgref.Ref) (*Message, error) {
	if r.b != nil {
		return r.readROS1(ref)
	}
	m, err := r.s.ReadMessage(ref.Conn, bag.Loc{Block: ref.ChunkPos, Offset: ref.Offset})
	if err != nil {
		return nil, err
	}
	if rl, ok := bag.Underlying(r.s).(bag.RecordLister); ok {
		if msg := r.inRecord(rl, ref, m); msg != nil {
			msg.Suspect = m.Suspect
			return msg, nil
		}
	}
	data := append([]byte(nil), m.Data...)
	n := int64(len(data))
	comp := ""
	for _, blk := range r.s.Blocks() {
		if blk.Offset == ref.ChunkPos {
			comp = blk.Compression
			break
		}
	}
	return &Message{
		Ref: ref, Conn: m.Conn, Time: m.Time, Data: data, Context: data,
		RecordEnd: n, Header: []Span{{Name: "data", Kind: SpanData, Start: 0, End: n}},
		Compression: comp, Suspect: m.Suspect,
	}, nil
}

// inRecord places a message read through the seam in its record, as the
// format lists it (bag.RecordLister): the chunk's uncompressed data (or the
// record's own bytes outside a chunk) as the context, the record's fields
// as header spans. nil when the record is not found or its data field is
// not the message's bytes (a message stored compressed).
func (r *MessageReader) inRecord(rl bag.RecordLister, ref msgref.Ref, m *bag.Message) *Message {
	var (
		rec    *bag.Record
		around []byte
		comp   string
	)
	for _, blk := range r.s.Blocks() {
		if blk.Offset != ref.ChunkPos {
			continue
		}
		comp = blk.Compression
		c, err := r.block(rl, blk.Offset)
		if err != nil {
			return nil
		}
		for _, x := range c.records {
			if x.Offset == int64(ref.Offset) {
				rec = x
				break
			}
		}
		around = c.data
		break
	}
	if around == nil { // a record outside any chunk
		_ = rl.Records(context.Background(), ref.ChunkPos, func(x *bag.Record) bool {
			rec = x
			return false
		})
		if rec == nil || rec.Offset != ref.ChunkPos || rec.Len > 64<<20 {
			return nil
		}
		b, err := rl.ReadRange(rec.Offset, int(rec.Len))
		if err != nil {
			return nil
		}
		x := *rec
		x.Offset = 0
		rec, around = &x, b
	}
	if rec == nil {
		return nil
	}
	var spans []Span
	var data *bag.RecordField
	for i := range rec.Fields {
		f := &rec.Fields[i]
		if f.Name == "data" {
			data = f
			continue
		}
		spans = append(spans, Span{Name: f.Name, Kind: SpanField, Start: rec.Offset + f.Start, End: rec.Offset + f.End, Field: i})
	}
	if data == nil {
		return nil
	}
	start, end := rec.Offset+data.Start, rec.Offset+data.End
	if start < 0 || end > int64(len(around)) || start > end || !bytes.Equal(around[start:end], m.Data) {
		return nil
	}
	spans = append(spans, Span{Name: "data", Kind: SpanData, Start: start, End: end})
	return &Message{
		Ref: ref, Conn: m.Conn, Time: m.Time,
		Data: around[start:end:end], Context: around,
		RecordStart: rec.Offset, RecordEnd: rec.Offset + rec.Len, DataOffset: start,
		Header: spans, Compression: comp,
	}
}

// listedBlock is a chunk's records and uncompressed data, as a
// RecordLister lists them.
type listedBlock struct {
	pos     int64
	records []*bag.Record
	data    []byte
	// err is why the chunk could not be listed: kept too, so stepping
	// through a damaged chunk's messages does not list it again each time.
	err  error
	have bool
}

// block returns the records of the chunk at pos, keeping the last two.
func (r *MessageReader) block(rl bag.RecordLister, pos int64) (listedBlock, error) {
	r.mu.Lock()
	for i, c := range r.listed {
		if c.have && c.pos == pos {
			r.listed[0], r.listed[i] = c, r.listed[0]
			r.mu.Unlock()
			return c, c.err
		}
	}
	r.mu.Unlock()
	recs, data, err := rl.BlockRecords(pos)
	c := listedBlock{pos: pos, records: recs, data: data, err: err, have: true}
	r.mu.Lock()
	r.listed[1], r.listed[0] = r.listed[0], c
	r.mu.Unlock()
	return c, err
}

// readROS1 reads the message data record at ref.Offset in the chunk at
// ref.ChunkPos, with the chunk around it.
func (r *MessageReader) readROS1(ref msgref.Ref) (*Message, error) {
	c, err := r.chunk(ref.ChunkPos)
	if err != nil {
		return nil, err
	}
	if int64(ref.Offset) >= int64(len(c.data)) {
		return nil, fmt.Errorf("message at %d of chunk %d: past the chunk's %d bytes", ref.Offset, ref.ChunkPos, len(c.data))
	}
	w := ros1.NewChunkWalker(c.data[ref.Offset:], ref.ChunkPos)
	if !w.Next() {
		err := w.Err()
		if err == nil {
			err = errors.New("no record")
		}
		return nil, fmt.Errorf("message at %d of chunk %d: %w", ref.Offset, ref.ChunkPos, err)
	}
	rec := *w.Record()
	rec.Header = append(ros1.Header(nil), rec.Header...) // the walker reuses its slice
	shift := int64(ref.Offset)
	rec.Offset += shift
	rec.HeaderOffset += shift
	rec.DataOffset += shift
	md, err := ros1.ParseMessageData(rec)
	if err != nil {
		return nil, fmt.Errorf("message at %d of chunk %d: %w", ref.Offset, ref.ChunkPos, err)
	}
	conn := r.s.Connection(md.Conn)
	if conn == nil {
		return nil, fmt.Errorf("message at %d of chunk %d: connection %d is not defined", ref.Offset, ref.ChunkPos, md.Conn)
	}
	return &Message{
		Ref:         ref,
		Conn:        conn,
		Time:        md.Time,
		Data:        c.data[rec.DataOffset:rec.End():rec.End()],
		Context:     c.data,
		RecordStart: rec.Offset, RecordEnd: rec.End(), DataOffset: rec.DataOffset,
		Header:      RecordSpans(&rec),
		Compression: c.compression,
		Suspect:     c.suspect,
	}, nil
}

// Decode decodes m with its connection's definition. Trailing bytes after
// the message are accepted (the tree is returned with the error's text in
// warn); any other error returns no tree.
func (r *MessageReader) Decode(m *Message) (root *rosmsg.Node, warn string, err error) {
	plan, err := planFor(r.Cache, m.Conn)
	if err != nil {
		return nil, "", fmt.Errorf("definition of %s: %w", m.Conn.Type, describePlanError(m.Conn, err))
	}
	if err := plan.CheckMD5(m.Conn.MD5Sum); err != nil {
		warn = err.Error()
	}
	root, err = plan.Decode(m.Data)
	if err != nil {
		if errors.Is(err, rosmsg.ErrTrailingBytes) && root != nil {
			if warn != "" {
				warn += "; "
			}
			return root, warn + err.Error(), nil
		}
		return nil, warn, err
	}
	return root, warn, nil
}

// describePlanError says what a plan error means for the user: a missing
// definition (and what to do), or an encoding bagscope does not decode.
func describePlanError(c *bag.Connection, err error) error {
	if !errors.Is(err, rosmsg.ErrUnsupportedEncoding) {
		return err
	}
	if c.Definition == "" && (c.Encoding == "cdr" || c.Encoding == "ros1") {
		return fmt.Errorf("%s", MissingDefinitionHint(c))
	}
	return fmt.Errorf("messages of encoding %q are not decoded (bagscope decodes ros1 and cdr): shown as bytes", c.Encoding)
}
