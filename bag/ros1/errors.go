package ros1

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error returned by this package that concerns the
// file's content is a *FormatError that unwraps to one of these.
var (
	// ErrNotBag means the file does not start with "#ROSBAG V".
	ErrNotBag = errors.New("not a ROS bag")
	// ErrUnsupportedVersion means the version line names a version other than 2.0.
	ErrUnsupportedVersion = errors.New("unsupported bag version")
	// ErrUnindexed means the bag header has index_pos 0: the recording was
	// not closed cleanly and the index section was never written.
	ErrUnindexed = errors.New("bag is unindexed")
	// ErrTruncated means a record runs past the end of the file.
	ErrTruncated = errors.New("truncated")
	// ErrUnsupportedCompression means a chunk uses a compression other than
	// none, bz2 and lz4.
	ErrUnsupportedCompression = errors.New("unsupported compression")
	// ErrTooLarge means a length in the file exceeds what this reader is
	// willing to allocate.
	ErrTooLarge = errors.New("too large")
	// ErrMalformed means a record or field does not follow the format.
	ErrMalformed = errors.New("malformed")
	// ErrRecordChanged means a message data record disagrees with its
	// index entry and the record, not the index, is out of line with its
	// chunk info: the record was changed, so its message is suspect.
	ErrRecordChanged = errors.New("record changed")
)

// FormatError reports a problem with the bag's bytes: where it is (byte
// offset in the file, or in a chunk's uncompressed data when InChunk is set),
// which record op was being read, and what is wrong.
type FormatError struct {
	Offset int64 // byte offset of the problem
	// Chunk is the file offset of the chunk record when Offset is relative
	// to that chunk's uncompressed data; -1 otherwise.
	Chunk int64
	Op    Op     // op of the record being read; 0 when unknown
	Msg   string // what is wrong, in plain words
	Err   error  // a sentinel error (ErrTruncated, ...) or a cause
}

func (e *FormatError) Error() string {
	where := fmt.Sprintf("offset %d", e.Offset)
	if e.Chunk >= 0 {
		where = fmt.Sprintf("offset %d in chunk at %d", e.Offset, e.Chunk)
	}
	if e.Op != 0 {
		where += " (" + e.Op.String() + " record)"
	}
	return where + ": " + e.Msg
}

// Unwrap returns the sentinel or cause.
func (e *FormatError) Unwrap() error { return e.Err }

// errAt builds a FormatError at a file offset.
func errAt(off int64, op Op, sentinel error, format string, args ...any) *FormatError {
	return &FormatError{Offset: off, Chunk: -1, Op: op, Msg: fmt.Sprintf(format, args...), Err: sentinel}
}

// inChunk rewrites a FormatError produced while parsing a chunk's
// uncompressed data so that it names the chunk.
func inChunk(err error, chunkPos int64) error {
	var fe *FormatError
	if errors.As(err, &fe) && fe.Chunk < 0 {
		c := *fe
		c.Chunk = chunkPos
		return &c
	}
	return err
}
