package bag

import (
	"context"
	"fmt"
)

// wholeFileIndex lists the messages of part p, a file without blocks (a
// .db3) that the recording shows as one block, with the recording's
// connection IDs and locations: from its rows' times when it is a
// MessageTimer (no data read, in file order), else from its messages.
func (m *MultiStorage) wholeFileIndex(p int, part Storage) ([]IndexEntry, error) {
	var out []IndexEntry
	add := func(conn uint32, t Time, loc Loc) bool {
		out = append(out, IndexEntry{Time: t, Conn: m.fromPart[p][conn], Loc: Loc{Block: JoinPart(p, loc.Block), Offset: loc.Offset}})
		return true
	}
	var err error
	if mt := MessageTimerOf(part); mt != nil {
		err = mt.MessageTimes(context.Background(), add)
	} else {
		err = messageTimesOf(context.Background(), part, add)
	}
	if err != nil {
		return out, fmt.Errorf("%s: %w", m.base(p), err)
	}
	return out, nil
}
