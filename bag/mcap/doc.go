// Package mcap reads and writes MCAP files (format version 0) behind the
// bag.Storage seam; importing it registers the format with bag.
//
// A Reader is opened from an io.ReaderAt and a size. Opening reads the
// footer and the summary section only (schemas, channels, chunk, attachment
// and metadata indexes, statistics), a few preads whatever the file's size.
// When the summary is missing (summary_start 0), the footer is missing (a
// cut file) or the summary is damaged, the file is scanned record by record
// instead: every chunk is decompressed, what cannot be read is skipped and
// listed in bag.FileInfo.Scanned, and the scan goes on at the next record.
//
// Messages are read in log-time order: chunks that may hold selected
// messages are decompressed in parallel ahead of the caller and merged. A
// damaged chunk does not end the read; MessageIter.Skipped lists it.
//
// Every error about the file's content is a *FormatError carrying the byte
// offset and the record op, and unwraps to one of the sentinel errors
// (ErrNotMCAP, ErrTruncated, ErrMalformed, ErrTooLarge,
// ErrUnsupportedCompression, ErrCRC). Lengths read from the file are
// checked against the bytes that remain before anything is allocated, and
// chunks are capped at MaxChunkSize uncompressed.
package mcap
