package mcap

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error this package returns about a file's content
// is a *FormatError that unwraps to one of these.
var (
	// ErrNotMCAP means the file does not start with the MCAP magic.
	ErrNotMCAP = errors.New("not an MCAP file")
	// ErrTruncated means a record runs past the end of the file (or of
	// its chunk).
	ErrTruncated = errors.New("truncated")
	// ErrMalformed means a record or field does not follow the format.
	ErrMalformed = errors.New("malformed")
	// ErrTooLarge means a length in the file exceeds what this reader is
	// willing to allocate.
	ErrTooLarge = errors.New("too large")
	// ErrUnsupportedCompression means a chunk uses a compression other
	// than none, lz4 and zstd.
	ErrUnsupportedCompression = errors.New("unsupported compression")
	// ErrCRC means a checksum does not match the bytes it covers.
	ErrCRC = errors.New("CRC mismatch")
)

// FormatError reports a problem with an MCAP file's bytes: where it is (a
// file offset, or an offset in a chunk's uncompressed records when Chunk is
// not -1), the op of the record being read, and what is wrong.
type FormatError struct {
	Offset int64
	// Chunk is the file offset of the chunk record when Offset is relative
	// to that chunk's uncompressed records; -1 otherwise.
	Chunk int64
	Op    Op
	Msg   string
	// Err is a sentinel (ErrTruncated, ...) or a cause.
	Err error
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

// errInChunk builds a FormatError at an offset in a chunk's records.
func errInChunk(chunk, off int64, op Op, sentinel error, format string, args ...any) *FormatError {
	return &FormatError{Offset: off, Chunk: chunk, Op: op, Msg: fmt.Sprintf(format, args...), Err: sentinel}
}
