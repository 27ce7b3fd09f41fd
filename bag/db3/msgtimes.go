package db3

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/bagscope/bagscope/bag"
)

// MessageTimes (bag.MessageTimer) lists every message's topic, timestamp
// and row id for the message index without reading the data: the
// messages table's b-tree is walked in row id order, its leaf pages in
// turn (in file order for a file rosbag2 wrote), and of each row only the
// record header, topic_id and timestamp are read from the leaf; an
// overflow chain is never followed. Compared with the message iteration
// (the timestamp index walked and each row fetched by id, two interleaved
// streams of pages, and every blob copied), it reads each leaf page once,
// going forward.
//
// The rules are the fast read's (fastread.go): it is taken for a file
// read in place with nothing to merge; anything unexpected (a page that
// is not the table page it should be, a record that is not rosbag2's, row
// ids out of order) hands the rest over to SQL (SELECT id, topic_id,
// timestamp FROM messages in row id order) from the last row listed. A
// file whose pages have not been surveyed has each page checked as it is
// read (pageProblem), and a read that fails or meets a page that fails
// its checks has the store rescued (rescuedStore) and goes on with the
// rescued rows after the last row listed, as a message iteration does. A
// local file is surveyed first, as a read of every message surveys it; a
// remote one is not (the survey reads the whole file, overflow pages and
// all): its pages are checked as they are read, as a read of part of the
// file checks them.
func (s *Store) MessageTimes(ctx context.Context, fn func(conn uint32, t bag.Time, loc bag.Loc) bool) error {
	if r := s.swap.Load(); r != nil {
		return r.MessageTimes(ctx, fn)
	}
	if s.rescue != nil {
		return s.rescueTimes(ctx, fn, 0, false)
	}
	if s.surveyPending() && !bag.IsRemote(s.r) {
		if r := s.surveyed(); r != nil {
			return r.MessageTimes(ctx, fn)
		}
	}
	var last int64 // the row id of the last row listed
	var given, stopped bool
	emit := func(topic, ts, id int64) bool {
		last, given = id, true
		c := s.conn(topic)
		if c == nil {
			return true // as the iteration skips it (Summary reports it)
		}
		if !fn(c.ID, bag.TimeFromNanos(ts), LocOf(id)) {
			stopped = true
			return false
		}
		return true
	}
	var err error
	if fp := s.fast(); fp.ok && !noFast.Load() {
		if bag.IsRemote(s.r) {
			err = s.remoteTimes(ctx, fp, emit)
		} else {
			err = s.fastTimes(ctx, fp, emit)
		}
		if errors.Is(err, errUnexpected) && !stopped {
			fastFallbacks.Add(1)
			err = s.sqlTimes(ctx, last, given, emit)
		}
	} else {
		err = s.sqlTimes(ctx, 0, false, emit)
	}
	if cerr := ctx.Err(); cerr != nil {
		return cerr
	}
	if err == nil || stopped {
		return nil
	}
	r := s.rescuedStore()
	if r == nil {
		return err
	}
	return r.rescueTimes(ctx, fn, last, given)
}

// rescueTimes lists the rescued rows (after row id last when given).
func (s *Store) rescueTimes(ctx context.Context, fn func(uint32, bag.Time, bag.Loc) bool, last int64, given bool) error {
	for k, m := range s.rescue.msgs {
		if k&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if given && m.rowid <= last {
			continue
		}
		c := s.conn(m.topic)
		if c == nil {
			continue
		}
		if !fn(c.ID, bag.TimeFromNanos(m.ts), LocOf(m.rowid)) {
			return nil
		}
	}
	return nil
}

// sqlTimes lists the rows through SQLite in row id order (after row id
// last when given).
func (s *Store) sqlTimes(ctx context.Context, last int64, given bool, emit func(topic, ts, id int64) bool) error {
	q, args := "SELECT id, topic_id, timestamp FROM messages ORDER BY id", []any(nil)
	if given {
		q, args = "SELECT id, topic_id, timestamp FROM messages WHERE id > ? ORDER BY id", []any{last}
	}
	// No cancellable context: with one, the driver watches it on every
	// step. ctx is looked at between rows.
	rows, err := s.sq.db.Query(q, args...)
	if err != nil {
		return fmt.Errorf("reading messages: %w", err)
	}
	defer rows.Close()
	for k := 0; rows.Next(); k++ {
		if k&1023 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		var id, topic, ts int64
		if err := rows.Scan(&id, &topic, &ts); err != nil {
			return fmt.Errorf("reading messages: %w", err)
		}
		if !emit(topic, ts, id) {
			return nil
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("reading messages: %w", err)
	}
	return nil
}

// tframe is one page on the table walk's stack.
type tframe struct {
	pg   []byte
	h    btreeHeader
	hoff int
	keys keyRange // the row ids the page may hold, as its parents say
	// k is the next cell (an interior page: the next child; cells: the
	// right child); prev is the key of the cell before it.
	k       int
	prev    int64
	hasPrev bool
}

// fastTimes walks the messages table in row id order (see MessageTimes).
// An error wrapping errUnexpected asks for SQL from the last row listed.
func (s *Store) fastTimes(ctx context.Context, fp *fastPlan, emit func(topic, ts, id int64) bool) error {
	p := *fp.p
	p.ra = &readAhead{r: s.r, size: s.size}
	check := s.surveyPending()
	var stack []*tframe
	var spare [][]byte
	push := func(n uint32, keys keyRange) error {
		if len(stack) > 40 {
			return unexpected("table deeper than 40 pages")
		}
		var buf []byte
		if k := len(spare); k > 0 {
			buf, spare = spare[k-1], spare[:k-1]
		}
		pg, err := p.page(n, buf)
		if err != nil {
			return unexpected("table page %d: %v", n, err)
		}
		hoff := headerOffset(n)
		h, ok := parseBtreeHeader(pg, hoff, p.usable)
		if !ok || (h.typ != pageTableLeaf && h.typ != pageTableInterior) {
			return unexpected("table page %d is not a table b-tree page", n)
		}
		if hoff+h.size+2*h.cells > len(pg) {
			return unexpected("table page %d cut", n)
		}
		if check {
			if why := p.pageProblem(pg, n, hoff, h, keys); why != "" {
				return pageDamage(why)
			}
		}
		stack = append(stack, &tframe{pg: pg, h: h, hoff: hoff, keys: keys})
		return nil
	}
	if err := push(fp.table, keyRange{}); err != nil {
		return err
	}
	var ro rowOrder
	for len(stack) > 0 {
		fr := stack[len(stack)-1]
		if fr.h.typ == pageTableInterior {
			if fr.k > fr.h.cells {
				spare = append(spare, fr.pg)
				stack = stack[:len(stack)-1]
				continue
			}
			j := fr.k
			fr.k++
			var next uint32
			var keys keyRange
			if j == fr.h.cells {
				next = fr.h.rightChild
				keys = fr.keys
				if fr.hasPrev {
					keys = keyRange{lo: fr.prev, hasLo: true, hi: fr.keys.hi, hasHi: fr.keys.hasHi}
				}
			} else {
				c, err := p.parseCell(fr.pg, pageTableInterior, int(binary.BigEndian.Uint16(fr.pg[fr.hoff+fr.h.size+2*j:])))
				if err != nil {
					return unexpected("table interior cell: %v", err)
				}
				next, keys = c.Child, fr.keys.child(fr.prev, fr.hasPrev, c.RowID)
				fr.prev, fr.hasPrev = c.RowID, true
			}
			if next == 0 {
				return unexpected("table interior page without a child")
			}
			if err := push(next, keys); err != nil {
				return err
			}
			continue
		}
		// A leaf: every row in turn.
		if stop, err := ro.leaf(ctx, &p, fr.pg, fr.hoff, fr.h, emit); stop || err != nil {
			return err
		}
		spare = append(spare, fr.pg)
		stack = stack[:len(stack)-1]
	}
	return nil
}

// rowOrder follows the rows a walk lists: the last row id (rows must
// come in row id order) and how many, to look at ctx now and then.
type rowOrder struct {
	last  int64
	given bool
	rows  int
}

// leaf lists the rows of a messages table leaf page pg (its header h at
// hoff) in turn. stop is set when emit asked to stop or an error ends
// the walk; an error wrapping errUnexpected asks for SQL from the last
// row listed.
func (ro *rowOrder) leaf(ctx context.Context, p *pager, pg []byte, hoff int, h btreeHeader, emit func(topic, ts, id int64) bool) (stop bool, err error) {
	for j := 0; j < h.cells; j++ {
		c, err := p.parseCell(pg, pageTableLeaf, int(binary.BigEndian.Uint16(pg[hoff+h.size+2*j:])))
		if err != nil {
			return true, unexpected("table leaf cell: %v", err)
		}
		if ro.given && c.RowID <= ro.last {
			return true, unexpected("row ids out of order at row %d", c.RowID)
		}
		var cols [4]Column
		local := pg[c.PayloadOff : c.PayloadOff+c.Local]
		if n, err := recordPrefix(local, c.PayloadSize, cols[:]); err != nil || n != 4 {
			return true, unexpected("row %d: record does not parse", c.RowID)
		}
		topic, ok1 := intValue(local, cols[1])
		ts, ok2 := intValue(local, cols[2])
		d := cols[3]
		if cols[0].Serial != 0 || !ok1 || !ok2 || d.Serial < 12 || d.Serial%2 != 0 {
			return true, unexpected("row %d is not a rosbag2 message row", c.RowID)
		}
		ro.last, ro.given = c.RowID, true
		if ro.rows++; ro.rows&1023 == 0 && ctx.Err() != nil {
			return true, ctx.Err()
		}
		if !emit(topic, ts, c.RowID) {
			return true, nil
		}
	}
	return false, nil
}

// recordPrefix splits a record of total bytes, of which p is the start
// (a cell's part on its page), into at most len(cols) columns; the
// columns must add up to exactly total, and all but a last blob or text
// column must lie in p. It returns the count.
func recordPrefix(p []byte, total uint64, cols []Column) (int, error) {
	hsize, n := varint(p)
	if n == 0 || hsize < uint64(n) || hsize > uint64(len(p)) || hsize > total {
		return 0, errors.New("bad record header size")
	}
	pos, body, k := n, hsize, 0
	for uint64(pos) < hsize {
		t, m := varint(p[pos:hsize])
		if m == 0 || k == len(cols) {
			return 0, errors.New("record header")
		}
		pos += m
		sz, ok := serialSize(t)
		if !ok || sz > total-body {
			return 0, errors.New("record body")
		}
		cols[k] = Column{Serial: t, Start: int(body), End: int(body + sz)}
		body += sz
		k++
	}
	if body != total {
		return 0, errors.New("record size")
	}
	for i := 0; i < k-1; i++ {
		if cols[i].End > len(p) {
			return 0, errors.New("record columns past the page")
		}
	}
	return k, nil
}

var _ bag.MessageTimer = (*Store)(nil)
