package bag

import (
	"context"
)

// MessageVisitor is a Storage that can hand every message a filter selects
// to a function on the goroutines that read them, in no particular order:
// for work that needs every message but not their order (a check decoding
// every payload), done where the chunk was just decompressed, on every core.
type MessageVisitor interface {
	// VisitMessages calls fn for every message f selects, from several
	// goroutines at once; m and its Data are valid during the call only.
	// It returns the first I/O error, or ctx's error when cancelled;
	// damaged chunks are skipped, as the iterator skips them.
	VisitMessages(ctx context.Context, f MessageFilter, fn func(m *Message)) error
}

// VisitMessages calls fn for every message of s that f selects: in
// parallel and in no particular order when s reads in parallel
// (MessageVisitor, through the seam's own wrappers), else in time order
// from this goroutine. fn must be safe for concurrent calls; m and its Data
// are valid during the call only.
func VisitMessages(ctx context.Context, s Storage, f MessageFilter, fn func(m *Message)) error {
	switch v := s.(type) {
	case MessageVisitor:
		return v.VisitMessages(ctx, f, fn)
	case *fileStorage:
		return VisitMessages(ctx, v.Storage, f, fn)
	case singlePart:
		return VisitMessages(ctx, v.parts[0], f, fn)
	case *messageZstd:
		return VisitMessages(ctx, v.Storage, f, DecompressingVisitor(fn))
	}
	it := s.Messages(f)
	defer it.Close()
	for n := 0; it.Next(); n++ {
		if n&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		fn(it.Message())
	}
	return it.Err()
}

// ParallelVisit reports whether VisitMessages calls its function on the
// goroutines that read s, in parallel (a MessageVisitor, through the
// seam's own wrappers and those that delegate to what they wrap), rather
// than in time order from the caller's goroutine (a plain iterator). A
// caller that reads faster in order on workers (PreparedMessages) asks
// this before choosing the visit.
func ParallelVisit(s Storage) bool {
	switch v := s.(type) {
	case *fileStorage:
		return ParallelVisit(v.Storage)
	case singlePart:
		return ParallelVisit(v.parts[0])
	case *messageZstd:
		return ParallelVisit(v.Storage)
	}
	if _, ok := s.(MessageVisitor); !ok {
		return false
	}
	if u, ok := s.(interface{ Unwrap() Storage }); ok && u.Unwrap() != nil {
		return ParallelVisit(u.Unwrap()) // a visitor that hands its visit on (a rosbag2 folder)
	}
	return true
}

// SkipVisitor is a MessageVisitor that also says which byte ranges (damaged
// chunks) its visit could not read, as a message iterator's Skipped does.
type SkipVisitor interface {
	VisitMessagesSkipped(ctx context.Context, f MessageFilter, fn func(m *Message)) ([]ByteRange, error)
}

// VisitMessagesSkipped is VisitMessages that also returns the byte ranges
// the visit skipped (damaged chunks, in no particular order), so that a
// command reading in parallel reports its loss as one reading in order
// does. A parallel reader that cannot say returns none.
func VisitMessagesSkipped(ctx context.Context, s Storage, f MessageFilter, fn func(m *Message)) ([]ByteRange, error) {
	switch v := s.(type) {
	case SkipVisitor:
		return v.VisitMessagesSkipped(ctx, f, fn)
	case MessageVisitor:
		return nil, v.VisitMessages(ctx, f, fn)
	case *fileStorage:
		return VisitMessagesSkipped(ctx, v.Storage, f, fn)
	case singlePart:
		return VisitMessagesSkipped(ctx, v.parts[0], f, fn)
	case *messageZstd:
		return VisitMessagesSkipped(ctx, v.Storage, f, func(m *Message) {
			if !compressedMessage(m) {
				fn(m)
				return
			}
			c := *m
			if _, err := inflate(&c, nil); err == nil {
				fn(&c)
			}
		})
	}
	it := s.Messages(f)
	defer it.Close()
	for n := 0; it.Next(); n++ {
		if n&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		fn(it.Message())
	}
	var skipped []ByteRange
	if sk, ok := it.(interface{ Skipped() []ByteRange }); ok {
		skipped = sk.Skipped()
	}
	return skipped, it.Err()
}
