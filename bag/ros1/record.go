package ros1

// Pos says where a record lives. Offsets are file offsets for top-level
// records and offsets into the uncompressed chunk data for records inside a
// chunk.
type Pos struct {
	Offset       int64  // start of the record (its header_len field)
	HeaderOffset int64  // start of the header bytes (Offset+4)
	HeaderLen    uint32 // length of the header bytes
	DataOffset   int64  // start of the data bytes (after data_len)
	DataLen      uint32 // length of the data bytes
}

// End returns the offset just past the record.
func (p Pos) End() int64 { return p.DataOffset + int64(p.DataLen) }

// Size returns the whole record's length in bytes.
func (p Pos) Size() int64 { return p.End() - p.Offset }

// Record is a record as found in the file: where it is, its op and its
// header fields. The data is not held; read it with Bag.ReadData (top level)
// or slice it from the chunk's uncompressed bytes.
type Record struct {
	Pos
	Op     Op
	Header Header
}

// BagHeader is the op 0x03 record.
type BagHeader struct {
	Record
	IndexPos   int64
	ConnCount  uint32
	ChunkCount uint32
}

// Connection is the op 0x07 record: a topic with its type, as published by
// one node.
type Connection struct {
	Record
	ID    uint32
	Topic string // from the record header (what rosbag shows)
	// Fields is the connection header stored in the record's data.
	Fields            Header
	Type              string
	MD5Sum            string
	MessageDefinition string
	CallerID          string
	Latching          bool
}

// MessageData is the op 0x02 record.
type MessageData struct {
	Record
	Conn uint32
	Time Time
}

// IndexEntry is one entry of an index data record: a message's time and the
// offset of its record in the uncompressed chunk data.
type IndexEntry struct {
	Time   Time
	Offset uint32
}

// IndexData is the op 0x04 record: the messages of one connection in the
// preceding chunk.
type IndexData struct {
	Record
	Ver     uint32
	Conn    uint32
	Count   uint32
	Entries []IndexEntry
}

// Chunk is the op 0x05 record's header: the compression and the
// uncompressed size. Its data (the compressed records) is Pos.DataOffset
// .. Pos.End().
type Chunk struct {
	Record
	Compression string
	Size        uint32 // uncompressed size
	// Open is set for a chunk that was never closed, salvaged by Scan:
	// Size is then the length of its complete records, and for compressed
	// chunks DataLen runs to the end of the file.
	Open bool
	// LenRecovered is set when the chunk's data length field could not be
	// right (it ran past the end of the file) and the real length was
	// found from what follows the data (see recoverChunkLen).
	LenRecovered bool
}

// ChunkConnCount is one entry of a chunk info record.
type ChunkConnCount struct {
	Conn  uint32
	Count uint32
}

// ChunkInfo is the op 0x06 record: where a chunk is, its time span and how
// many messages of each connection it holds.
type ChunkInfo struct {
	Record
	Ver      uint32
	ChunkPos int64
	Start    Time
	End      Time
	Count    uint32 // number of connections listed
	Conns    []ChunkConnCount
}

// Messages returns the number of messages in the chunk.
func (c *ChunkInfo) Messages() uint64 {
	var n uint64
	for _, cc := range c.Conns {
		n += uint64(cc.Count)
	}
	return n
}

// Has reports whether the chunk holds messages of connection id.
func (c *ChunkInfo) Has(id uint32) bool {
	for _, cc := range c.Conns {
		if cc.Conn == id && cc.Count > 0 {
			return true
		}
	}
	return false
}
