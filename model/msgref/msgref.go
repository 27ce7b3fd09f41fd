// Package msgref says where a message of a recording is, in the form the
// message index, the series, the log and the views share.
package msgref

// Ref is one message as the index data lists it: its receive time and
// where it lives. The message index (model.MessageIndex) keeps refs
// compactly and hands them out; a series keeps the Loc of each point.
type Ref struct {
	T int64 // receive time, nanoseconds since the epoch
	Loc
}

// Loc says where a message is: its connection, its chunk record's
// file offset and its message data record's offset in the chunk's
// uncompressed data (as bag.Loc has them).
type Loc struct {
	ChunkPos int64
	Offset   uint32
	Conn     uint32
}
