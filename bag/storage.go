package bag

import (
	"context"
	"fmt"
	"io"
)

// Storage is one opened recording, read through its format's reader. It is
// safe for concurrent use. Every method that reads the file reports damage
// as an error carrying the byte offset (see FormatError in each format).
type Storage interface {
	// FileInfo says what the file is: its format, version, size and how it
	// was read.
	FileInfo() *FileInfo
	// Connections lists the recording's connections (ROS 1 connections,
	// MCAP channels with their schemas), by ID.
	Connections() []*Connection
	// Connection returns the connection with an ID, or nil.
	Connection(id uint32) *Connection
	// Summary describes the recording as `rosbag info` and `ros2 bag info`
	// do: times, counts, topics and types. It reads only indexes and
	// summaries, never message data; an error comes with a summary that
	// is complete but for what the error names.
	Summary() (*Summary, error)
	// Blocks lists the recording's chunks in file order, from its index
	// (empty for a format or file without chunks).
	Blocks() []*Block
	// BlockIndex lists a block's messages (time, connection, offset) from
	// the index records beside it, without decompressing the block where
	// the format allows.
	BlockIndex(b *Block) ([]IndexEntry, error)
	// Messages iterates over messages in receive (log) time order; ties
	// go in file order.
	Messages(f MessageFilter) MessageIter
	// ReadMessage reads the message of connection conn at loc (as
	// IndexEntry and Message give it).
	ReadMessage(conn uint32, loc Loc) (*Message, error)
	// Check is the doctor: it cross-checks every part of the file and
	// reports each problem with its offset. progress may be nil.
	Check(ctx context.Context, progress func(done, total int64)) (*CheckReport, error)
	// Close releases the file.
	Close() error
}

// FileInfo describes an opened file.
type FileInfo struct {
	// Format names the format ("ROS 1 bag", "MCAP").
	Format string
	// Version is the format's version ("2.0", "0").
	Version string
	// Profile is what the file says its messages are ("ros1", "ros2"),
	// or "" when it does not say.
	Profile string
	Path    string
	Size    int64
	// Indexed is false when the file was read by scanning it record by
	// record (no index or summary, or a damaged one); Scanned then says
	// why and what the scan found.
	Indexed bool
	Scanned *ScanInfo
	// Warnings are problems met while opening that did not stop it.
	Warnings []error
	// Claim is what the file says it holds (its statistics, its
	// metadata), when that may differ from what was found; nil otherwise.
	Claim *Claim
	// Files describes each file of a recording of several files (a
	// rosbag2 folder, a split ROS 1 recording; see Multi), in file order,
	// Path being the file as the user knows it. Empty for one file.
	Files []*FileInfo
}

// ScanInfo says what reading a file without its index found.
type ScanInfo struct {
	// Reason is why the file was scanned.
	Reason error
	// ParsedTo is the offset up to which records were understood, in
	// a recording of one file (see Files for one of several).
	ParsedTo int64
	// Files says, for a recording of several files, how far the scan of
	// each scanned file got, in that file's own offsets and size; nil
	// for a recording of one file.
	Files []ScannedFile
	// Skipped lists the byte ranges that could not be read.
	Skipped []ByteRange
	// LostMessages counts messages known to exist that cannot be read
	// (at least; the ranges may count them more closely).
	LostMessages uint64
	// Suspect counts the messages found in units that show damage:
	// reads give them with a reason (Message.Suspect).
	Suspect uint64
	// Notes are what the scan noticed that is not damage.
	Notes []string
}

// ScannedFile is how far the scan of one file of a recording of several
// got: File is its name, ParsedTo an offset in it and Size its size.
type ScannedFile struct {
	File           string
	ParsedTo, Size int64
}

// Extents says how far the scan got in each file scanned: the files of a
// recording of several (Files), or its one file of the given size (File
// then "").
func (s *ScanInfo) Extents(size int64) []ScannedFile {
	if s == nil {
		return nil
	}
	if len(s.Files) > 0 {
		return s.Files
	}
	return []ScannedFile{{ParsedTo: s.ParsedTo, Size: size}}
}

// Connection is a stream of messages of one type on one topic: a ROS 1
// connection record, or an MCAP channel with its schema.
type Connection struct {
	ID    uint32
	Topic string
	// Type is the message type as the file names it ("sensor_msgs/Imu",
	// "sensor_msgs/msg/Imu").
	Type string
	// Encoding is the messages' encoding: "ros1", "cdr", "json",
	// "protobuf", ...
	Encoding string
	// SchemaEncoding is the definition's language: "ros1msg", "ros2msg",
	// "ros2idl", ... ; "" when there is no definition.
	SchemaEncoding string
	// Definition is the message definition text, dependencies included.
	Definition string
	// DefinitionSource says where Definition came from when the recording
	// does not carry it (a folder of .msg files, an installed ROS 2,
	// bagscope's standard definitions); "" when it is the recording's.
	DefinitionSource string
	// MD5Sum is the ROS 1 md5sum of the type ("" for ROS 2).
	MD5Sum   string
	CallerID string
	Latching bool
	// Metadata holds the rest of what the file says about the connection:
	// the ROS 1 connection header's other fields, the MCAP channel's
	// metadata (offered_qos_profiles, topic_type_hash).
	Metadata map[string]string
	// Offset is the file offset of the record that defines the connection.
	Offset int64
}

// Loc says where a message lives: Block is the file offset of the chunk
// that holds it and Offset the offset of its record in the chunk's
// uncompressed data; for a message outside any chunk, Block is the file
// offset of its own record and Offset is 0 (a format may say otherwise:
// a .db3 stores its row id). In a recording of several files (Multi),
// Block also carries the file's index above bit PartShift (48): the
// file's own value plus index<<48, so a file's own values stay within
// ±2^47; see JoinPart and SplitPart.
type Loc struct {
	Block  int64
	Offset uint32
}

// Message is one message. Iterators reuse a Message and its Data for the
// next one.
type Message struct {
	Conn *Connection
	// Time is the receive (log) time; PublishTime the publisher's, where
	// the format stores it (else equal to Time).
	Time, PublishTime Time
	// Data is the serialized message.
	Data []byte
	Loc  Loc
	// DataOffset is the offset of Data in the block's uncompressed data
	// (or in the file, for a message outside any chunk).
	DataOffset int64
	// Suspect, when not "", says why the message is not to be trusted:
	// it was read from a unit that shows damage (a CRC mismatch, a
	// resynced chunk, a page that fails its checks), with the offset.
	Suspect string
}

// MessageFilter selects messages. The zero value selects every message.
type MessageFilter struct {
	// Topics selects connections by topic; Conns by ID. A connection is
	// selected if either names it; when both are empty, all are.
	Topics []string
	Conns  []uint32
	// Start and End bound the receive time, inclusive. A zero End means no
	// upper bound.
	Start, End Time
}

// Whole reports whether the filter selects every message.
func (f MessageFilter) Whole() bool {
	return len(f.Topics) == 0 && len(f.Conns) == 0 && f.Start.IsZero() && f.End.IsZero()
}

// MessageIter iterates over messages: for it.Next() { it.Message() }, then
// it.Err(). Close releases it early.
type MessageIter interface {
	Next() bool
	Message() *Message
	Err() error
	Close()
}

// Block is a chunk: a run of records stored (and compressed) together.
type Block struct {
	// Offset is the file offset of the chunk record; Len its length in
	// the file.
	Offset, Len int64
	Start, End  Time
	// Compression is "" or "none" for none, else "lz4", "bz2", "zstd".
	Compression string
	// CompressedSize and UncompressedSize are the chunk's data sizes;
	// UncompressedSize is 0 when unknown.
	CompressedSize, UncompressedSize uint64
	// Counts is the number of messages per connection ID.
	Counts map[uint32]uint64
	// Damaged is set when the block is known to be unreadable, in part or
	// whole; Err then says why.
	Damaged bool
	Err     error
	// File is the index of the file that holds the block in a recording
	// of several files (Multi), whose Offset then carries it too (see
	// Loc); 0 for a recording of one file.
	File int
	// WholeFile marks a block that stands for a whole file without chunks
	// of its own (a .db3) in a recording of several files: Offset is the
	// file's start, Len its size.
	WholeFile bool
}

// Messages returns the number of messages in the block.
func (b *Block) Messages() uint64 {
	var n uint64
	for _, c := range b.Counts {
		n += c
	}
	return n
}

// IndexEntry is one message as an index lists it.
type IndexEntry struct {
	Time Time
	Conn uint32
	Loc  Loc
}

// ByteRange is a range of file offsets [Start, End) and why it matters.
// A range that was lost (ScanInfo.Skipped, an iterator's Skipped) also
// says what it was and what it held, where the format knows: see Damage.
// End may lie past the end of a cut file, for content the file's own
// structure says was there.
type ByteRange struct {
	Start, End int64
	Why        string
	// InFile names the file of a recording of several files that the
	// range lies in (its offsets are that file's own); "" in a
	// recording of one file.
	InFile string
	// Unit is what was lost ("" when the format does not say).
	Unit Unit
	// Messages counts the messages lost in the range (the zero Count
	// when nothing is known).
	Messages Count
	// Topics lists the topics of those messages, when known.
	Topics []string
	// Recovered counts the messages read from the unit the range is part
	// of (a chunk read up to its damage); Readable is how many of the
	// range's bytes they were read from, which are not lost.
	Recovered uint64
	Readable  int64
	// First and Last are the receive times the lost messages lie
	// between, when known.
	First, Last Time
}

// Repairer is a Storage that can write a repaired copy of itself in its own
// format: every message that can be read, with a fresh index.
type Repairer interface {
	// Repair writes the copy to out and reports what was kept and lost.
	// compression "" keeps the input's.
	Repair(out io.WriteSeeker, compression string) (*RepairReport, error)
}

// RepairReport says what a repair kept and what it could not.
type RepairReport struct {
	// Kept counts the messages written, per topic; Messages is the total.
	Kept     map[string]uint64
	Messages uint64
	// Lost lists the byte ranges of the input whose content is not in the
	// output, in file order.
	Lost []ByteRange
	// LostMessages counts messages known to be lost.
	LostMessages uint64
	// Suspect counts the messages read that were suspect (see
	// Message.Suspect) and left out: a repaired copy holds only messages
	// that can be trusted.
	Suspect uint64
	// Compression is the output's compression.
	Compression string
}

// Complete reports whether nothing was lost.
func (r *RepairReport) Complete() bool {
	return len(r.Lost) == 0 && r.LostMessages == 0 && r.Suspect == 0
}

// String describes the range.
func (r ByteRange) String() string {
	return fmt.Sprintf("bytes %d..%d (%d bytes): %s", r.Start, r.End, r.End-r.Start, r.Why)
}
