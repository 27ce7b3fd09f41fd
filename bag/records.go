package bag

import (
	"context"
	"strings"
)

// RecordLister is a Storage whose records can be listed as written, in byte
// order, with their fields decoded, for the Records and hex views.
type RecordLister interface {
	// Records calls fn for each top-level record from file offset from on,
	// in byte order, until fn returns false, the file ends or ctx is done.
	// Unreadable bytes are reported as a Record with Damaged set, and the
	// walk goes on at the next record it can find.
	Records(ctx context.Context, from int64, fn func(*Record) bool) error
	// BlockRecords lists the records inside the chunk at file offset
	// block, with offsets into its uncompressed data, and returns that
	// data. What could be decompressed before damage is listed, with the
	// error.
	BlockRecords(block int64) ([]*Record, []byte, error)
	// ReadRange reads file bytes [off, off+n).
	ReadRange(off int64, n int) ([]byte, error)
}

// RecordSpanner is a RecordLister whose top-level records lie where it
// can say without reading them (a remote .db3's pages): a list of them,
// as the window's Records tab shows, reads only the records it shows,
// rather than the whole file as Records does.
type RecordSpanner interface {
	// RecordSpans returns how many records there are and where record i
	// lies (in byte order); ok is false when the records are to be listed
	// by Records (a local file, where that is cheap and finds the damage).
	RecordSpans() (n int, span func(i int) (off, n int64), ok bool)
	// SpannedRecord reads record i alone, with what it says of itself (a
	// page's type, not the tree a full listing finds it in).
	SpannedRecord(i int) *Record
}

// Record is one record as written.
type Record struct {
	// Offset is the record's first byte: a file offset for a top-level
	// record, an offset into the block's uncompressed data for one inside
	// a block. Len is its length in bytes.
	Offset, Len int64
	// Op is the format's op code; Kind its name ("chunk", "message").
	Op   uint8
	Kind string
	// Summary is a one-line description ("/imu 12 B at 1700000000.1").
	Summary string
	// Fields are the record's fields in byte order.
	Fields []RecordField
	// Damaged marks bytes that do not parse as a record; Err says why.
	Damaged bool
	Err     error
}

// RecordField is one field of a record and where its bytes are.
type RecordField struct {
	Name  string
	Value string
	// Type is the field's type as the format writes it ("uint32",
	// "time", "string"), or "" when the format does not say.
	Type string
	// Start and End are byte offsets relative to the record's Offset.
	Start, End int64
	// Prefix is how many of the field's first bytes hold its length (a
	// ROS 1 header field's, a length-prefixed string's), or 0.
	Prefix int64
}

// BlockIndexLister is a RecordLister that knows which of its records
// index each block (a ROS 1 chunk info, an MCAP chunk index), so that the
// Chunk view can show them beside the block's own record.
type BlockIndexLister interface {
	RecordLister
	// IndexRecords returns the file offsets of the records that index the
	// block at file offset block, in file order: none when the file holds
	// none for it (a block that a scan of the file rebuilt). ok is false
	// when the format does not say (a part of a recording of several
	// files whose format does not).
	IndexRecords(block int64) (offsets []int64, ok bool)
}

// Line is the record's summary on one line, and its damage.
func (r *Record) Line() string {
	s := strings.ReplaceAll(r.Summary, "\n", " ")
	if r.Damaged && r.Err != nil {
		if s != "" {
			s += "  ·  "
		}
		s += "damaged: " + r.Err.Error()
	}
	return s
}
