package model

import (
	"errors"
	"fmt"
	"sync"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// Message is one message read by its location: its connection and time,
// its bytes, and where the bytes live in the chunk's uncompressed data.
type Message struct {
	Ref  MsgRef
	Conn *ros1.Connection
	Time ros1.Time
	// Record is the message data record; its offsets are into the
	// chunk's uncompressed data (ChunkData).
	Record ros1.Record
	// Data is the serialized message: ChunkData[Record.DataOffset:Record.End()].
	Data []byte
	// ChunkData is the whole uncompressed chunk the message is in. It is
	// never reused, so it stays valid as long as it is held.
	ChunkData []byte
	// Compression is the chunk's compression.
	Compression string
}

// MessageReader reads single messages by location. It keeps the last two
// decompressed chunks, so stepping through neighbouring messages reads and
// decompresses nothing. It is safe for concurrent use.
type MessageReader struct {
	b     *ros1.Bag
	Cache *rosmsg.Cache

	mu     sync.Mutex
	chunks [2]cachedChunk // most recently used first
}

type cachedChunk struct {
	pos         int64
	data        []byte
	compression string
}

// NewMessageReader returns a reader of b's messages. cache may be nil.
func NewMessageReader(b *ros1.Bag, cache *rosmsg.Cache) *MessageReader {
	if cache == nil {
		cache = &rosmsg.Cache{}
	}
	return &MessageReader{b: b, Cache: cache}
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
	c := cachedChunk{pos: pos, data: data, compression: ch.Compression}
	r.mu.Lock()
	r.chunks[1], r.chunks[0] = r.chunks[0], c
	r.mu.Unlock()
	return c, nil
}

// Read reads the message at ref: the message data record at ref.Offset in
// the chunk at ref.ChunkPos.
func (r *MessageReader) Read(ref MsgRef) (*Message, error) {
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
	conn := r.b.Connection(md.Conn)
	if conn == nil {
		return nil, fmt.Errorf("message at %d of chunk %d: connection %d is not defined", ref.Offset, ref.ChunkPos, md.Conn)
	}
	return &Message{
		Ref:         ref,
		Conn:        conn,
		Time:        md.Time,
		Record:      rec,
		Data:        c.data[rec.DataOffset:rec.End():rec.End()],
		ChunkData:   c.data,
		Compression: c.compression,
	}, nil
}

// Decode decodes m with its connection's definition. Trailing bytes after
// the message are accepted (the tree is returned with the error's text in
// warn); any other error returns no tree.
func (r *MessageReader) Decode(m *Message) (root *rosmsg.Node, warn string, err error) {
	plan, err := r.Cache.Get(m.Conn.Type, m.Conn.MD5Sum, m.Conn.MessageDefinition)
	if err != nil {
		return nil, "", fmt.Errorf("definition of %s: %w", m.Conn.Type, err)
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
