package model

import (
	"fmt"
	"sort"
	"time"

	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model/human"
)

// ChunkDetail is what the chunk view shows about one chunk: its chunk info
// record, its chunk record's header and its messages per connection.
type ChunkDetail struct {
	// Index is the chunk's place among the bag's chunk infos; N is their
	// number.
	Index, N int
	Info     *ros1.ChunkInfo
	// Header is the chunk record's header, nil when it could not be read
	// (HeaderErr says why).
	Header    *ros1.Chunk
	HeaderErr error
	// Conns are the chunk info's per-connection counts, with topic and
	// type, in connection order.
	Conns []ChunkConn
	// Damaged says why the chunk is damaged, or "".
	Damaged string
}

// ChunkConn is one connection's message count in a chunk.
type ChunkConn struct {
	Conn        uint32
	Topic, Type string
	Count       uint32
}

// ChunkDetailAt describes the chunk whose record is at pos, or returns nil
// when no chunk info points there.
func ChunkDetailAt(d *Document, pos int64) *ChunkDetail {
	for i, ci := range d.Bag.ChunkInfos {
		if ci.ChunkPos == pos {
			return chunkDetail(d, i)
		}
	}
	return nil
}

// ChunkDetailOf describes the i'th chunk of the bag's chunk infos.
func ChunkDetailOf(d *Document, i int) *ChunkDetail {
	if i < 0 || i >= len(d.Bag.ChunkInfos) {
		return nil
	}
	return chunkDetail(d, i)
}

func chunkDetail(d *Document, i int) *ChunkDetail {
	b := d.Bag
	ci := b.ChunkInfos[i]
	c := &ChunkDetail{Index: i, N: len(b.ChunkInfos), Info: ci}
	c.Header, c.HeaderErr = b.ChunkHeader(ci)
	switch {
	case c.HeaderErr != nil:
		c.Damaged = c.HeaderErr.Error()
	case c.Header.Open:
		c.Damaged = openChunkDamage
	}
	if r := d.Scan; r != nil && c.Damaged == "" {
		end := ci.ChunkPos + 1
		if c.Header != nil {
			end = c.Header.End()
		}
		for _, sk := range r.Skipped {
			if sk.Start < end && sk.End > ci.ChunkPos {
				c.Damaged = sk.Why
				break
			}
		}
	}
	for _, cc := range ci.Conns {
		cn := ChunkConn{Conn: cc.Conn, Count: cc.Count, Topic: "?"}
		if conn := b.Connection(cc.Conn); conn != nil {
			cn.Topic, cn.Type = conn.Topic, conn.Type
		}
		c.Conns = append(c.Conns, cn)
	}
	sort.Slice(c.Conns, func(a, b int) bool { return c.Conns[a].Conn < c.Conns[b].Conn })
	return c
}

// Ratio is the compressed size over the uncompressed size (1 for an
// uncompressed chunk), or 0 when unknown.
func (c *ChunkDetail) Ratio() float64 {
	if c.Header == nil || c.Header.Size == 0 {
		return 0
	}
	return float64(c.Header.DataLen) / float64(c.Header.Size)
}

// Field is one labelled value of the chunk view.
type Field struct{ Name, Value string }

// InfoFields are the chunk info record's fields, times both relative to
// start (the bag's start, nanoseconds) and as UTC time of day.
func (c *ChunkDetail) InfoFields(start int64) []Field {
	ci := c.Info
	rel := func(t ros1.Time) string {
		return fmt.Sprintf("%s (%s UTC)", human.RelTime(t.Nanos()-start), time.Unix(0, t.Nanos()).UTC().Format("15:04:05.000"))
	}
	return []Field{
		{"Chunk", fmt.Sprintf("%d of %d", c.Index+1, c.N)},
		{"Record at", fmt.Sprintf("byte %d", ci.ChunkPos)},
		{"Start", rel(ci.Start)},
		{"End", rel(ci.End)},
		{"Duration", human.Seconds(ci.End.Nanos()-ci.Start.Nanos(), 3) + " s"},
		{"Messages", fmt.Sprintf("%s on %d connection%s", human.Count(ci.Messages()), len(ci.Conns), map[bool]string{true: "s"}[len(ci.Conns) != 1])},
		{"Chunk info at", infoAt(ci)},
	}
}

// infoAt says where a chunk info record is; a scan makes up the chunk
// infos it did not find.
func infoAt(ci *ros1.ChunkInfo) string {
	if ci.Offset < 0 {
		return "none in the file (rebuilt by the scan)"
	}
	return fmt.Sprintf("byte %d (version %d)", ci.Offset, ci.Ver)
}

// HeaderFields are the chunk record's header fields and where its bytes
// are.
func (c *ChunkDetail) HeaderFields() []Field {
	h := c.Header
	if h == nil {
		return []Field{{"Chunk record", "unreadable: " + c.HeaderErr.Error()}}
	}
	comp := h.Compression
	if comp == "" {
		comp = ros1.CompressionNone
	}
	ratio := "—"
	if r := c.Ratio(); r > 0 {
		ratio = fmt.Sprintf("%.1f%% (%.2f×)", r*100, 1/r)
	}
	out := []Field{
		{"Compression", comp},
		{"Compressed size", fmt.Sprintf("%s (%s bytes)", human.Size(int64(h.DataLen)), human.Count(uint64(h.DataLen)))},
		{"Uncompressed size", fmt.Sprintf("%s (%s bytes)", human.Size(int64(h.Size)), human.Count(uint64(h.Size)))},
		{"Ratio", ratio},
		{"Header", fmt.Sprintf("bytes %d..%d", h.HeaderOffset, h.HeaderOffset+int64(h.HeaderLen)-1)},
		{"Data", fmt.Sprintf("bytes %d..%d", h.DataOffset, h.End()-1)},
	}
	if h.Open {
		out = append(out, Field{"State", "never closed (salvaged by the scan)"})
	}
	return out
}
