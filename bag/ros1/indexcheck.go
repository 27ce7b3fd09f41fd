package ros1

import "fmt"

// CheckChunkIndex checks the index data records that follow a chunk (from
// ChunkIndex) against the chunk's uncompressed data, as the message
// iterator hands it to OnChunk, so the check costs no second read or
// decompression. Every entry must point at a message data record with the
// entry's connection and time, and each record must list as many entries as
// the chunk info counts for its connection. want selects the connections to
// check (nil: all). It returns one *FormatError per problem, located in the
// chunk's data (Chunk set), or at the index data record when the problem is
// the record itself.
func CheckChunkIndex(lc *LoadedChunk, idx []*IndexData, want func(conn uint32) bool) []error {
	var errs []error
	data := lc.Data
	for _, x := range idx {
		if want != nil && !want(x.Conn) {
			continue
		}
		if n := chunkInfoCount(lc.Info, x.Conn); n != uint64(len(x.Entries)) {
			errs = append(errs, errAt(x.Offset, OpIndexData, ErrMalformed, "index data for connection %d after the chunk at %d has %d entries, the chunk info counts %d messages", x.Conn, lc.Info.ChunkPos, len(x.Entries), n))
		}
		for i, e := range x.Entries {
			if what, changed := checkEntry(data, e, x.Conn, lc.Info); what != "" {
				kind := ErrMalformed
				if changed {
					kind = ErrRecordChanged
					what += ", outside the chunk's times: the record was changed, its message is suspect"
				}
				errs = append(errs, &FormatError{Offset: int64(e.Offset), Chunk: lc.Info.ChunkPos, Op: OpIndexData, Err: kind,
					Msg: fmt.Sprintf("index entry %d of connection %d (index data record at %d, time %v) %s", i, x.Conn, x.Offset, e.Time, what)})
			}
		}
	}
	return errs
}

// checkEntry says what is wrong with index entry e of connection conn in
// chunk data, or returns "". changed says the record is the one at fault:
// its time lies outside the chunk info's span where the entry's lies inside.
func checkEntry(data []byte, e IndexEntry, conn uint32, ci *ChunkInfo) (what string, changed bool) {
	off := int64(e.Offset)
	if off+8 > int64(len(data)) {
		return fmt.Sprintf("points past the end of the chunk's %d bytes", len(data)), false
	}
	hlen := int64(le32(data[off:]))
	if hlen+8 > int64(len(data))-off {
		return fmt.Sprintf("points at a record whose header length %d runs past the chunk's end", hlen), false
	}
	op, c, t, hasConn, hasTime, ok, _ := scanHeaderPlain(data[off+4 : off+4+hlen])
	switch {
	case !ok:
		return "points at a record with a malformed header", false
	case op != OpMessageData:
		return fmt.Sprintf("points at a %s record, not a message data record", op), false
	case !hasConn || !hasTime:
		return "points at a message data record without conn or time", false
	case c != conn:
		return fmt.Sprintf("points at a message of connection %d", c), false
	case t != e.Time:
		inside := func(x Time) bool { return ci != nil && !x.Before(ci.Start) && !ci.End.Before(x) }
		return fmt.Sprintf("points at a message with time %v", t), inside(e.Time) && !inside(t)
	}
	return "", false
}

// chunkInfoCount returns the number of messages of conn the chunk info lists.
func chunkInfoCount(ci *ChunkInfo, conn uint32) uint64 {
	var n uint64
	for _, cc := range ci.Conns {
		if cc.Conn == conn {
			n += uint64(cc.Count)
		}
	}
	return n
}
