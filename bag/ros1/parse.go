package ros1

// Parsing of typed records from a Record and its data bytes.

import "slices"

// field returns a required header field of exactly size bytes (size<0: any).
func (r *Record) field(name string, size int) ([]byte, error) {
	v, ok := r.Header.Get(name)
	if !ok {
		return nil, errAt(r.HeaderOffset, r.Op, ErrMalformed, "missing header field %q", name)
	}
	if size >= 0 && len(v) != size {
		return nil, errAt(r.HeaderOffset, r.Op, ErrMalformed, "header field %q has %d bytes, want %d", name, len(v), size)
	}
	return v, nil
}

func (r *Record) u32(name string) (uint32, error) {
	v, err := r.field(name, 4)
	if err != nil {
		return 0, err
	}
	return le32(v), nil
}

func (r *Record) u64(name string) (uint64, error) {
	v, err := r.field(name, 8)
	if err != nil {
		return 0, err
	}
	return le64(v), nil
}

func (r *Record) time(name string) (Time, error) {
	v, err := r.field(name, 8)
	if err != nil {
		return Time{}, err
	}
	return parseTime(v), nil
}

// opOf reads the op field of a header.
func opOf(h Header, headerOff int64) (Op, error) {
	v, ok := h.Get("op")
	if !ok {
		return 0, errAt(headerOff, 0, ErrMalformed, "record header has no op field")
	}
	if len(v) != 1 {
		return 0, errAt(headerOff, 0, ErrMalformed, "op field has %d bytes, want 1", len(v))
	}
	return Op(v[0]), nil
}

// ParseBagHeader interprets r as a bag header record.
func ParseBagHeader(r Record) (*BagHeader, error) {
	h := &BagHeader{Record: r}
	ip, err := h.u64("index_pos")
	if err != nil {
		return nil, err
	}
	if ip > 1<<62 {
		return nil, errAt(r.HeaderOffset, r.Op, ErrMalformed, "index_pos %d is not a plausible offset", ip)
	}
	h.IndexPos = int64(ip)
	if h.ConnCount, err = h.u32("conn_count"); err != nil {
		return nil, err
	}
	if h.ChunkCount, err = h.u32("chunk_count"); err != nil {
		return nil, err
	}
	return h, nil
}

// ParseConnection interprets r and its data as a connection record.
func ParseConnection(r Record, data []byte) (*Connection, error) {
	c := &Connection{Record: r}
	var err error
	if c.ID, err = c.u32("conn"); err != nil {
		return nil, err
	}
	t, err := c.field("topic", -1)
	if err != nil {
		return nil, err
	}
	c.Topic = string(t)
	// The connection header is owned by the Connection: copy the data.
	own := append([]byte(nil), data...)
	if c.Fields, err = parseHeader(own, r.DataOffset, nil); err != nil {
		fe := err.(*FormatError)
		fe.Op = OpConnection
		fe.Msg = "connection header: " + fe.Msg
		return nil, fe
	}
	c.Type = c.Fields.String("type")
	c.MD5Sum = c.Fields.String("md5sum")
	c.MessageDefinition = c.Fields.String("message_definition")
	c.CallerID = c.Fields.String("callerid")
	c.Latching = c.Fields.String("latching") == "1"
	if c.Type == "" {
		return nil, errAt(r.DataOffset, OpConnection, ErrMalformed, "connection %d (%s) has no type in its connection header", c.ID, c.Topic)
	}
	return c, nil
}

// ParseMessageData interprets r as a message data record.
func ParseMessageData(r Record) (*MessageData, error) {
	m, err := parseMessageData(r)
	if err != nil {
		return nil, err
	}
	return &m, nil
}

// parseMessageData is ParseMessageData without the allocation, for loops
// over every message.
func parseMessageData(r Record) (MessageData, error) {
	m := MessageData{Record: r}
	var err error
	if m.Conn, err = m.u32("conn"); err != nil {
		return m, err
	}
	m.Time, err = m.time("time")
	return m, err
}

// ParseIndexData interprets r and its data as an index data record.
func ParseIndexData(r Record, data []byte) (*IndexData, error) {
	x := &IndexData{Record: r}
	var err error
	if x.Ver, err = x.u32("ver"); err != nil {
		return nil, err
	}
	if x.Ver != 1 {
		return nil, errAt(r.HeaderOffset, r.Op, ErrMalformed, "index data version %d, want 1", x.Ver)
	}
	if x.Conn, err = x.u32("conn"); err != nil {
		return nil, err
	}
	if x.Count, err = x.u32("count"); err != nil {
		return nil, err
	}
	if uint64(x.Count)*12 != uint64(len(data)) {
		return nil, errAt(r.DataOffset, r.Op, ErrMalformed, "index data count %d needs %d bytes, record has %d", x.Count, uint64(x.Count)*12, len(data))
	}
	x.Entries = make([]IndexEntry, x.Count)
	parseIndexEntries(x.Entries, data)
	return x, nil
}

// parseIndexDataInto is ParseIndexData with the entries appended to buf
// (x.Entries is the appended part), for a caller that keeps them no longer
// than buf: the scan, which keeps only their sums.
func parseIndexDataInto(r Record, data []byte, buf []IndexEntry) (*IndexData, []IndexEntry, error) {
	x := &IndexData{Record: r}
	var err error
	if x.Ver, err = x.u32("ver"); err != nil {
		return nil, buf, err
	}
	if x.Ver != 1 {
		return nil, buf, errAt(r.HeaderOffset, r.Op, ErrMalformed, "index data version %d, want 1", x.Ver)
	}
	if x.Conn, err = x.u32("conn"); err != nil {
		return nil, buf, err
	}
	if x.Count, err = x.u32("count"); err != nil {
		return nil, buf, err
	}
	if uint64(x.Count)*12 != uint64(len(data)) {
		return nil, buf, errAt(r.DataOffset, r.Op, ErrMalformed, "index data count %d needs %d bytes, record has %d", x.Count, uint64(x.Count)*12, len(data))
	}
	start := len(buf)
	buf = slices.Grow(buf, int(x.Count))[:start+int(x.Count)]
	x.Entries = buf[start:len(buf):len(buf)]
	parseIndexEntries(x.Entries, data)
	return x, buf, nil
}

// parseIndexEntries fills entries from an index data record's data.
func parseIndexEntries(entries []IndexEntry, data []byte) {
	for i := range entries {
		b := data[i*12:]
		entries[i] = IndexEntry{Time: parseTime(b), Offset: le32(b[8:])}
	}
}

// ParseChunk interprets r as a chunk record header.
func ParseChunk(r Record) (*Chunk, error) {
	c := &Chunk{Record: r}
	comp, err := c.field("compression", -1)
	if err != nil {
		return nil, err
	}
	c.Compression = string(comp)
	if c.Size, err = c.u32("size"); err != nil {
		return nil, err
	}
	return c, nil
}

// ParseChunkInfo interprets r and its data as a chunk info record.
func ParseChunkInfo(r Record, data []byte) (*ChunkInfo, error) {
	c := &ChunkInfo{Record: r}
	var err error
	if c.Ver, err = c.u32("ver"); err != nil {
		return nil, err
	}
	if c.Ver != 1 {
		return nil, errAt(r.HeaderOffset, r.Op, ErrMalformed, "chunk info version %d, want 1", c.Ver)
	}
	cp, err := c.u64("chunk_pos")
	if err != nil {
		return nil, err
	}
	if cp > 1<<62 {
		return nil, errAt(r.HeaderOffset, r.Op, ErrMalformed, "chunk_pos %d is not a plausible offset", cp)
	}
	c.ChunkPos = int64(cp)
	if c.Start, err = c.time("start_time"); err != nil {
		return nil, err
	}
	if c.End, err = c.time("end_time"); err != nil {
		return nil, err
	}
	if c.Count, err = c.u32("count"); err != nil {
		return nil, err
	}
	if uint64(c.Count)*8 != uint64(len(data)) {
		return nil, errAt(r.DataOffset, r.Op, ErrMalformed, "chunk info count %d needs %d bytes, record has %d", c.Count, uint64(c.Count)*8, len(data))
	}
	c.Conns = make([]ChunkConnCount, c.Count)
	for i := range c.Conns {
		b := data[i*8:]
		c.Conns[i] = ChunkConnCount{Conn: le32(b), Count: le32(b[4:])}
	}
	return c, nil
}
