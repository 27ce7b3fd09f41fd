package bag

import "context"

// Severity ranks a finding.
type Severity int

// Severities, least severe first.
const (
	Info Severity = iota
	Warning
	Error
)

// String returns "info", "warning" or "error".
func (s Severity) String() string {
	if s < Info || s > Error {
		return "unknown"
	}
	return [...]string{"info", "warning", "error"}[s]
}

// Finding is one problem or observation, located in the file.
type Finding struct {
	Severity Severity
	// Offset is the file offset of the record (or byte range) concerned.
	Offset int64
	// Record names that record's kind in the format's words ("chunk",
	// "message data", "channel"); "" for a byte range.
	Record string
	// Op is the record's op code in its format; 0 for a byte range.
	Op      uint8
	Message string
}

// CheckReport is the doctor's result.
type CheckReport struct {
	Findings []Finding // in file order
	// Indexed reports whether the index could be used.
	Indexed bool
	// Messages counts the messages found.
	Messages uint64
	// Bytes adds up the payload bytes of those messages per connection ID.
	Bytes map[uint32]uint64
}

// Errors counts the findings of severity Error.
func (r *CheckReport) Errors() int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == Error {
			n++
		}
	}
	return n
}

// quickKey marks a context for a quick check.
type quickKey struct{}

// WithQuickCheck returns a context that asks a doctor (Storage.Check,
// CheckReader) for a quick check: the file's structure only, without
// decoding every message against its definition.
func WithQuickCheck(ctx context.Context) context.Context {
	return context.WithValue(ctx, quickKey{}, true)
}

// QuickCheck reports whether ctx asks for a quick check.
func QuickCheck(ctx context.Context) bool {
	q, _ := ctx.Value(quickKey{}).(bool)
	return q
}
