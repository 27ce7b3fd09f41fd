package ros1

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// RepairReport says what Repair kept and what it could not.
type RepairReport = bag.RepairReport

// Repair writes every message of b that can be read into a new indexed bag
// on out, in receive-time order, with all of b's connections. Chunks that
// cannot be read, in whole or part, are reported, with what a scan of b
// found (skipped ranges, the lost tail of an open chunk).
// An empty compression keeps the input's (most common) compression.
func Repair(b *Bag, out io.WriteSeeker, compression string, chunkThreshold int) (*RepairReport, error) {
	if compression == "" {
		compression = dominantCompression(b)
	}
	rep := &RepairReport{Kept: map[string]uint64{}, Compression: compression}
	if s := b.Scan; s != nil {
		for _, r := range s.Skipped {
			if !strings.HasPrefix(r.Why, "padding") {
				rep.Lost = append(rep.Lost, r)
			}
		}
		rep.LostMessages = s.LostMessages
	}
	w, err := NewWriter(out, WriterOptions{Compression: compression, ChunkThreshold: chunkThreshold})
	if err != nil {
		return rep, err
	}
	for _, c := range b.Connections {
		if err := w.AddConnection(c); err != nil {
			return rep, err
		}
	}
	// The same iteration as every reader's (cat's), so the copy holds
	// exactly the messages they read; what it skips is reported.
	it := b.Messages(MessageFilter{})
	defer it.Close()
	for it.Next() {
		m := it.Message()
		if m.Suspect != "" {
			rep.Suspect++
			continue
		}
		if err := w.WriteMessage(m.Conn.ID, m.Time, m.Data); err != nil {
			return rep, err
		}
		rep.Kept[m.Conn.Topic]++
		rep.Messages++
	}
	if err := it.Err(); err != nil {
		return rep, err
	}
	rep.Lost = append(rep.Lost, it.Skipped()...)
	rep.LostMessages += it.LostMessages()
	sort.SliceStable(rep.Lost, func(i, j int) bool { return rep.Lost[i].Start < rep.Lost[j].Start })
	return rep, w.Close()
}

// DropUnreadableChunks removes from b's in-memory index the chunks whose
// messages cannot be read (damaged data, a wrong checksum, a connection
// that is never defined), so that reading messages goes on past them. It
// returns their byte ranges and how many messages their chunk infos held.
// The file is not touched.
func (b *Bag) DropUnreadableChunks() ([]ByteRange, uint64) {
	var lost []ByteRange
	var n uint64
	good := b.ChunkInfos[:0:0]
	for _, ci := range b.ChunkInfos {
		err := readableChunk(b, ci)
		if err == nil {
			good = append(good, ci)
			continue
		}
		end := ci.ChunkPos
		if ch, herr := b.ChunkHeader(ci); herr == nil {
			end = ch.End()
		}
		lost = append(lost, ByteRange{Start: ci.ChunkPos, End: end, Why: fmt.Sprintf("chunk with %d messages cannot be read: %v", ci.Messages(), err)})
		n += ci.Messages()
	}
	b.ChunkInfos = good
	return lost, n
}

// readableChunk reads every message of one chunk through the same path
// as Messages, so a chunk it accepts is one the copy can read.
func readableChunk(b *Bag, ci *ChunkInfo) error {
	all := b.ChunkInfos
	defer func() { b.ChunkInfos = all }()
	b.ChunkInfos = []*ChunkInfo{ci}
	it := b.Messages(MessageFilter{})
	for it.Next() {
	}
	return it.Err()
}

// dominantCompression returns the compression most chunks of b use.
func dominantCompression(b *Bag) string {
	n := map[string]int{}
	best, bestN := CompressionNone, 0
	for _, ci := range b.ChunkInfos {
		ch, err := b.ChunkHeader(ci)
		if err != nil {
			continue
		}
		n[ch.Compression]++
		if c := n[ch.Compression]; c > bestN || (c == bestN && ch.Compression < best) {
			best, bestN = ch.Compression, c
		}
	}
	return best
}
