package model

import (
	"fmt"
	"sort"

	"github.com/bagscope/bagscope/bag/ros1"
)

// StageRecords is the progress stage of BuildFileRecords.
const StageRecords = "indexing records"

// SpanKind says what part of a record a span covers.
type SpanKind int

// Span kinds.
const (
	SpanLength      SpanKind = iota // the header_len or data_len field
	SpanFieldLength                 // a header field's 4-byte length prefix
	SpanField                       // a header field's name=value bytes
	SpanData                        // the record's data
)

// Span is a named range of a record's bytes, [Start, End).
type Span struct {
	Name       string
	Kind       SpanKind
	Start, End int64
	// Field is the header field's index for SpanFieldLength and SpanField.
	Field int
}

// String names the span and its bytes (inclusive), for a status line.
func (s Span) String() string {
	if s.End <= s.Start {
		return fmt.Sprintf("%s (empty, at byte %d)", s.Name, s.Start)
	}
	return fmt.Sprintf("%s (bytes %d..%d)", s.Name, s.Start, s.End-1)
}

// RecordSpans splits rec's bytes into spans in byte order: the header_len
// field, each header field's length prefix and name=value bytes, the
// data_len field and the data. Offsets are those of rec.
func RecordSpans(rec *ros1.Record) []Span {
	spans := make([]Span, 0, 3+2*len(rec.Header))
	spans = append(spans, Span{Name: "header_len", Kind: SpanLength, Start: rec.Offset, End: rec.HeaderOffset})
	for i, f := range rec.Header {
		at := rec.HeaderOffset + int64(f.Offset)
		n := int64(len(f.Name) + 1 + len(f.Value))
		spans = append(spans,
			Span{Name: "header field " + f.Name + " length", Kind: SpanFieldLength, Start: at, End: at + 4, Field: i},
			Span{Name: "header field " + f.Name, Kind: SpanField, Start: at + 4, End: at + 4 + n, Field: i})
	}
	hend := rec.HeaderOffset + int64(rec.HeaderLen)
	spans = append(spans,
		Span{Name: "data_len", Kind: SpanLength, Start: hend, End: hend + 4},
		Span{Name: "data", Kind: SpanData, Start: rec.DataOffset, End: rec.End()})
	return spans
}

// SpanAt returns the index of the span holding byte off, or -1. spans must
// be sorted and not overlap, as RecordSpans returns them.
func SpanAt(spans []Span, off int64) int {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].End > off })
	if i < len(spans) && spans[i].Start <= off {
		return i
	}
	return -1
}
