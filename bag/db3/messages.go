package db3

import (
	"database/sql"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/bagscope/bagscope/bag"
)

// selected returns the topic ids a filter selects, and whether it selects
// every topic.
func (s *Store) selected(f bag.MessageFilter) (map[uint32]bool, bool) {
	if len(f.Topics) == 0 && len(f.Conns) == 0 {
		return nil, true
	}
	ids := map[uint32]bool{}
	for _, id := range f.Conns {
		if s.byID[id] != nil {
			ids[id] = true
		}
	}
	for _, t := range f.Topics {
		for _, c := range s.conns {
			if c.Topic == t {
				ids[c.ID] = true
			}
		}
	}
	return ids, false
}

// Messages iterates over messages in timestamp order; ties go by row id.
// Messages whose topic_id names no topic are skipped (Summary reports
// them).
func (s *Store) Messages(f bag.MessageFilter) bag.MessageIter {
	if r := s.swap.Load(); r != nil {
		return r.Messages(f)
	}
	if s.deferred || s.surveyPending() {
		// A read of part of the file checks the pages it reads (the fast
		// read); without the fast read, any read surveys the file first.
		whole := f.Whole() || !s.fast().ok || noFast.Load()
		return &healIter{s: s, f: f, inner: s.messages(f), whole: whole && s.surveyPending()}
	}
	return s.messages(f)
}

// surveyPending reports whether the store is read through SQLite and its
// pages have not been surveyed yet (see surveyed).
func (s *Store) surveyPending() bool {
	return s.sq != nil && s.sq.sidePath == "" && !s.surveyDone.Load()
}

func (s *Store) messages(f bag.MessageFilter) bag.MessageIter {
	ids, all := s.selected(f)
	if s.rescue != nil {
		return s.rescueMessages(ids, all, f)
	}
	if !all && len(ids) == 0 {
		return &sqlIter{}
	}
	if fp := s.fast(); fp.ok && !noFast.Load() {
		return s.fastMessages(ids, all, f, fp)
	}
	return s.sqlMessages(ids, all, f, nil)
}

// noFast turns the fast read path off (for tests and comparisons).
var noFast atomic.Bool

// sqlMessages reads messages through SQLite; after, when not nil, starts
// after that (timestamp, row id).
func (s *Store) sqlMessages(ids map[uint32]bool, all bool, f bag.MessageFilter, after *[2]int64) bag.MessageIter {
	var where []string
	var args []any
	if !all {
		if len(ids) == 0 {
			return &sqlIter{}
		}
		keys := make([]int, 0, len(ids))
		for id := range ids {
			keys = append(keys, int(id))
		}
		sort.Ints(keys)
		ph := make([]string, len(keys))
		for i, k := range keys {
			ph[i] = "?"
			args = append(args, k)
		}
		where = append(where, "topic_id IN ("+strings.Join(ph, ",")+")")
	}
	if !f.Start.IsZero() {
		where = append(where, "timestamp >= ?")
		args = append(args, f.Start.Nanos())
	}
	if !f.End.IsZero() {
		where = append(where, "timestamp <= ?")
		args = append(args, f.End.Nanos())
	}
	if after != nil {
		where = append(where, "(timestamp > ? OR (timestamp = ? AND id > ?))")
		args = append(args, after[0], after[0], after[1])
	}
	q := "SELECT id, topic_id, timestamp, data FROM messages"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY timestamp, id"
	// No cancellable context: with one, the driver watches it on every
	// step. Close ends the query.
	rows, err := s.sq.db.Query(q, args...)
	if err != nil {
		return &sqlIter{err: fmt.Errorf("reading messages: %w", err)}
	}
	return &sqlIter{s: s, rows: rows}
}

// sqlIter iterates over the rows of a messages query.
type sqlIter struct {
	s    *Store
	rows *sql.Rows
	msg  bag.Message
	buf  []byte
	err  error
}

func (i *sqlIter) Next() bool {
	if i.rows == nil || i.err != nil {
		return false
	}
	for i.rows.Next() {
		var id, topic, ts int64
		var data sql.RawBytes
		if err := i.rows.Scan(&id, &topic, &ts, &data); err != nil {
			i.err = fmt.Errorf("reading messages: %w", err)
			i.Close()
			return false
		}
		c := i.s.conn(topic)
		if c == nil {
			continue
		}
		var err error
		i.buf, err = i.s.messageData(i.buf, data)
		if err != nil {
			i.err = fmt.Errorf("message %d: %w", id, err)
			i.Close()
			return false
		}
		t := bag.TimeFromNanos(ts)
		i.msg = bag.Message{Conn: c, Time: t, PublishTime: t, Data: i.buf, Loc: LocOf(id)}
		return true
	}
	if err := i.rows.Err(); err != nil {
		i.err = fmt.Errorf("reading messages: %w", err)
	}
	i.Close()
	return false
}

func (i *sqlIter) Message() *bag.Message { return &i.msg }
func (i *sqlIter) Err() error            { return i.err }

func (i *sqlIter) Close() {
	if i.rows != nil {
		i.rows.Close()
		i.rows = nil
	}
}

// conn returns the connection of a topic_id, or nil.
func (s *Store) conn(topic int64) *bag.Connection {
	if topic < 0 || topic > 1<<32-1 {
		return nil
	}
	return s.byID[uint32(topic)]
}

// messageData copies a blob into buf, decompressing it when it is a zstd
// frame.
func (s *Store) messageData(buf, data []byte) ([]byte, error) {
	if isCompressed(data) {
		return s.decompress(buf, data)
	}
	return append(buf[:0], data...), nil
}

// ReadMessage reads the message with the row id loc gives (see LocOf).
func (s *Store) ReadMessage(conn uint32, loc bag.Loc) (*bag.Message, error) {
	id := RowID(loc)
	if r := s.swap.Load(); r != nil {
		return r.ReadMessage(conn, loc)
	}
	if s.rescue != nil {
		return s.rescueRead(id)
	}
	if s.surveyPending() {
		// One row's read checks the pages on its way; one that fails
		// has the file surveyed.
		if fp := s.fast(); fp.ok && fp.rowPathProblem(id) != "" {
			if r := s.rescuedStore(); r != nil {
				return r.ReadMessage(conn, loc)
			}
		}
	}
	var topic, ts int64
	var data []byte
	err := s.sq.db.QueryRow("SELECT topic_id, timestamp, data FROM messages WHERE id = ?", id).Scan(&topic, &ts, &data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("no message with row id %d", id)
	}
	if err != nil {
		if r := s.rescuedStore(); r != nil {
			return r.ReadMessage(conn, loc)
		}
		return nil, fmt.Errorf("message %d: %w", id, err)
	}
	c := s.conn(topic)
	if c == nil {
		return nil, fmt.Errorf("message %d: topic_id %d names no topic", id, topic)
	}
	if isCompressed(data) {
		if data, err = s.decompress(nil, data); err != nil {
			return nil, fmt.Errorf("message %d: %w", id, err)
		}
	}
	t := bag.TimeFromNanos(ts)
	return &bag.Message{Conn: c, Time: t, PublishTime: t, Data: data, Loc: loc}, nil
}
