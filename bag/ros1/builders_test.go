package ros1

import (
	"bytes"
	"encoding/binary"
	"slices"
)

// Builders for hand-made bags. They write exactly what the format says, so
// tests can make well-formed and malformed records of every op.

type hfield struct {
	name  string
	value []byte
}

func u32b(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }
func u64b(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
func timeb(t Time) []byte  { return append(u32b(t.Sec), u32b(t.NSec)...) }
func opb(o Op) []byte      { return []byte{byte(o)} }

// header encodes fields as a record header.
func header(fields ...hfield) []byte {
	var b []byte
	for _, f := range fields {
		b = binary.LittleEndian.AppendUint32(b, uint32(len(f.name)+1+len(f.value)))
		b = append(b, f.name...)
		b = append(b, '=')
		b = append(b, f.value...)
	}
	return b
}

// record encodes a whole record.
func record(hdr, data []byte) []byte {
	var b []byte
	b = binary.LittleEndian.AppendUint32(b, uint32(len(hdr)))
	b = append(b, hdr...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(data)))
	return append(b, data...)
}

func bagHeaderRec(indexPos uint64, conns, chunks uint32) []byte {
	h := header(hfield{"op", opb(OpBagHeader)}, hfield{"index_pos", u64b(indexPos)},
		hfield{"conn_count", u32b(conns)}, hfield{"chunk_count", u32b(chunks)})
	// Padded to 4096 bytes like the reference writer.
	pad := 4096 - len(h) - 8
	return record(h, bytes.Repeat([]byte{' '}, pad))
}

func connRec(id uint32, topic, typ, md5, def string) []byte {
	h := header(hfield{"op", opb(OpConnection)}, hfield{"conn", u32b(id)}, hfield{"topic", []byte(topic)})
	data := header(hfield{"topic", []byte(topic)}, hfield{"type", []byte(typ)},
		hfield{"md5sum", []byte(md5)}, hfield{"message_definition", []byte(def)})
	return record(h, data)
}

func msgRec(conn uint32, t Time, payload []byte) []byte {
	h := header(hfield{"op", opb(OpMessageData)}, hfield{"conn", u32b(conn)}, hfield{"time", timeb(t)})
	return record(h, payload)
}

func chunkRec(compression string, size uint32, data []byte) []byte {
	h := header(hfield{"op", opb(OpChunk)}, hfield{"compression", []byte(compression)}, hfield{"size", u32b(size)})
	return record(h, data)
}

func indexRec(conn uint32, entries []IndexEntry) []byte {
	h := header(hfield{"op", opb(OpIndexData)}, hfield{"ver", u32b(1)}, hfield{"conn", u32b(conn)}, hfield{"count", u32b(uint32(len(entries)))})
	var d []byte
	for _, e := range entries {
		d = append(d, timeb(e.Time)...)
		d = append(d, u32b(e.Offset)...)
	}
	return record(h, d)
}

func chunkInfoRec(pos uint64, start, end Time, counts []ChunkConnCount) []byte {
	h := header(hfield{"op", opb(OpChunkInfo)}, hfield{"ver", u32b(1)}, hfield{"chunk_pos", u64b(pos)},
		hfield{"start_time", timeb(start)}, hfield{"end_time", timeb(end)}, hfield{"count", u32b(uint32(len(counts)))})
	var d []byte
	for _, c := range counts {
		d = append(d, u32b(c.Conn)...)
		d = append(d, u32b(c.Count)...)
	}
	return record(h, d)
}

// testMsg is a message for buildBag.
type testMsg struct {
	conn    uint32
	t       Time
	payload string
}

// buildBag writes an uncompressed indexed bag with one chunk per group of
// messages, and one connection per topic name in topics (IDs by position).
func buildBag(topics []string, chunks [][]testMsg) []byte {
	return buildBagWith(topics, chunks, bagFaults{})
}

// bagFaults are index records buildBagWith leaves out, by connection.
type bagFaults struct {
	noIndexData map[uint32]bool // index data records after each chunk
	notListed   map[uint32]bool // counts in each chunk info record
	// reversed writes each index data record's entries last to first
	// (well-formed, but not in offset order).
	reversed bool
}

// buildBagWith is buildBag writing the faults f.
func buildBagWith(topics []string, chunks [][]testMsg, f bagFaults) []byte {
	var b bytes.Buffer
	b.WriteString("#ROSBAG V2.0\n")
	b.Write(bagHeaderRec(0, 0, 0)) // patched below
	var infos [][]byte
	for _, msgs := range chunks {
		var inner bytes.Buffer
		seen := map[uint32]bool{}
		idx := map[uint32][]IndexEntry{}
		counts := map[uint32]uint32{}
		var order []uint32
		start, end := msgs[0].t, msgs[0].t
		for _, m := range msgs {
			if !seen[m.conn] {
				seen[m.conn] = true
				order = append(order, m.conn)
				inner.Write(connRec(m.conn, topics[m.conn], "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n"))
			}
			idx[m.conn] = append(idx[m.conn], IndexEntry{m.t, uint32(inner.Len())})
			counts[m.conn]++
			inner.Write(msgRec(m.conn, m.t, []byte(m.payload)))
			if m.t.Before(start) {
				start = m.t
			}
			if end.Before(m.t) {
				end = m.t
			}
		}
		pos := uint64(b.Len())
		b.Write(chunkRec("none", uint32(inner.Len()), inner.Bytes()))
		var cc []ChunkConnCount
		for _, c := range order {
			if !f.noIndexData[c] {
				entries := idx[c]
				if f.reversed {
					entries = slices.Clone(entries)
					slices.Reverse(entries)
				}
				b.Write(indexRec(c, entries))
			}
			if !f.notListed[c] {
				cc = append(cc, ChunkConnCount{c, counts[c]})
			}
		}
		infos = append(infos, chunkInfoRec(pos, start, end, cc))
	}
	indexPos := b.Len()
	for i, tp := range topics {
		b.Write(connRec(uint32(i), tp, "std_msgs/String", "992ce8a1687cec8c8bd883ec73ca41d1", "string data\n"))
	}
	for _, ci := range infos {
		b.Write(ci)
	}
	out := b.Bytes()
	copy(out[13:], bagHeaderRec(uint64(indexPos), uint32(len(topics)), uint32(len(chunks))))
	return out
}
