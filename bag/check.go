package bag

import (
	"context"
	"sync/atomic"
)

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
	// File names the file of a recording of several files that Offset is
	// in, and Part its index among them; "" for a recording of one file
	// or a finding about the whole recording.
	File string
	Part int
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
	// Counts, when not nil, counts those messages per connection ID (the
	// doctors that say: MCAP's).
	Counts map[uint32]uint64
	// Visited says every message the doctor could read was handed to the
	// context's message visitor (WithMessageVisitor).
	Visited bool
	// Ordered says the doctor found every connection's messages in the
	// order of their times in the file (the doctors that say: ROS 1's), so
	// a visitor that took each chunk's messages in file order met each
	// connection's as a read in time order meets them.
	Ordered bool
	// Undecoded counts the messages that do not decode against their
	// definitions: each is suspect, so a loss.
	Undecoded uint64
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

// visitKey marks a context that carries a message visitor for a doctor.
type visitKey struct{}

// WithMessageVisitor returns a context that asks a doctor (Storage.Check,
// CheckReader) to hand fn every message of the file as it reads them, from
// several goroutines at once and in no particular order, as VisitMessages
// does: a check that decodes every payload then reads and decompresses the
// file once. m and its Data are valid during the call only; m.Conn is the
// doctor's own connection of that ID. A doctor that did so for every
// message it could read sets CheckReport.Visited; one that did not leaves
// the visiting to the caller. A doctor honours it only for one file whose
// connection IDs are the file's own (not across the parts of a Multi).
func WithMessageVisitor(ctx context.Context, fn func(m *Message)) context.Context {
	return context.WithValue(ctx, visitKey{}, fn)
}

// visitConnsKey marks a context whose visitor wants some connections only.
type visitConnsKey struct{}

// WithVisitedConns returns a context saying that its message visitor
// (WithMessageVisitor) wants the messages of the connections conns only
// (by Connection.ID): a doctor may leave the others out (MCAP's does: a
// search of one topic then does not build a message for every other one).
// The visitor must still take any message it is handed; CheckReport.Visited
// then says every message of those connections was visited. No conns: all.
func WithVisitedConns(ctx context.Context, conns []uint32) context.Context {
	if len(conns) == 0 {
		return ctx
	}
	return context.WithValue(ctx, visitConnsKey{}, conns)
}

// VisitedConnsOf returns the connections the visitor of ctx wants
// (WithVisitedConns), or nil for all.
func VisitedConnsOf(ctx context.Context) []uint32 {
	c, _ := ctx.Value(visitConnsKey{}).([]uint32)
	return c
}

// VisitingDoctor is a Storage whose doctor honours WithMessageVisitor
// (MCAP's). A caller that reads the messages and runs the doctor may then
// do both in one pass; with another doctor it reads them itself.
type VisitingDoctor interface {
	DoctorVisits() bool
}

// DoctorVisits reports whether the doctor of s, under its wrappers,
// honours WithMessageVisitor.
func DoctorVisits(s Storage) bool {
	v, ok := Underlying(s).(VisitingDoctor)
	return ok && v.DoctorVisits()
}

// MessageVisitorOf returns the visitor ctx carries (WithMessageVisitor), or
// nil.
func MessageVisitorOf(ctx context.Context) func(m *Message) {
	fn, _ := ctx.Value(visitKey{}).(func(m *Message))
	return fn
}

// DecompressingVisitor returns fn called with every CDR message stored as a
// zstd frame (rosbag2's MESSAGE compression mode) decompressed first, as
// the storages NewStorage opens read them; a frame that does not
// decompress is not handed on, as the iterators skip it.
func DecompressingVisitor(fn func(m *Message)) func(m *Message) {
	return DecompressingVisitorCounting(fn, nil)
}

// DecompressingVisitorCounting is DecompressingVisitor that also counts in
// dropped, when not nil, the messages it did not hand on: each is one that
// a read of the recording skips and reports (see SurveyVisited).
func DecompressingVisitorCounting(fn func(m *Message), dropped *atomic.Uint64) func(m *Message) {
	return func(m *Message) {
		if !compressedMessage(m) {
			fn(m)
			return
		}
		c := *m
		if _, err := inflate(&c, nil); err == nil {
			fn(&c)
		} else if dropped != nil {
			dropped.Add(1)
		}
	}
}
