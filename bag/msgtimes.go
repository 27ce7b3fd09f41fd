package bag

import "context"

// MessageTimer is a Storage that lists its messages' connections,
// receive times and locations without their data, in the order its
// file holds them (not in time order): what an index of every message
// needs (model.BuildMessageIndex) of a storage without blocks (a .db3),
// for a single read of the file's rows in file order rather than the
// message iteration's (which, for a .db3, reads the timestamp index and
// each row by id: two streams of pages, and the data).
//
// Each message listed is one Messages(MessageFilter{}) gives, with the
// same Conn.ID, Time and Loc; damage is met as that iteration meets it.
// fn returning false stops the listing (MessageTimes then returns nil).
// A read that fails ends the listing with its error, after the messages
// listed before it.
type MessageTimer interface {
	MessageTimes(ctx context.Context, fn func(conn uint32, t Time, loc Loc) bool) error
}

// MessageTimerOf returns the MessageTimer behind s (its format's own
// Storage, through the wrappers, or the MultiStorage of a recording of
// several files), or nil.
func MessageTimerOf(s Storage) MessageTimer {
	for s != nil {
		if t, ok := s.(MessageTimer); ok {
			return t
		}
		u, ok := s.(interface{ Unwrap() Storage })
		if !ok {
			return nil
		}
		s = u.Unwrap()
	}
	return nil
}

// messageTimesOf lists s's messages from its iteration, for a storage
// that is no MessageTimer.
func messageTimesOf(ctx context.Context, s Storage, fn func(conn uint32, t Time, loc Loc) bool) error {
	it := s.Messages(MessageFilter{})
	defer it.Close()
	for k := 0; it.Next(); k++ {
		if k&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		m := it.Message()
		if !fn(m.Conn.ID, m.Time, m.Loc) {
			return nil
		}
	}
	return it.Err()
}
