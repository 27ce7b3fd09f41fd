package db3

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"

	"github.com/bagscope/bagscope/bag"
)

// The fast read path: Messages walks the timestamp_idx index b-tree in
// order and fetches each row from the messages table b-tree by row id,
// reading pages through the io.ReaderAt with no SQLite in between (its
// mutexes and database/sql's row locking cost more than the reading).
// It is taken only for a file read in place with nothing to merge (no WAL
// or journal), whose messages table and index are rosbag2's; anything
// unexpected on the way (a page that is not the b-tree page it should
// be, a record that does not parse, an index entry whose row is missing
// or disagrees) hands the rest of the iteration to SQL, from the last
// message given, so correctness never depends on it.

// fastPlan is what the fast path needs to know of a file.
type fastPlan struct {
	p            *pager
	table, index uint32 // root pages
	ok           bool
	reason       string // why not, when !ok
}

// fastFallbacks counts iterations that left the fast path for SQL (for
// tests).
var fastFallbacks atomic.Int64

// fast returns the fast path's plan, working it out once.
func (s *Store) fast() *fastPlan {
	s.fastOnce.Do(func() { s.fplan = s.makeFastPlan() })
	return s.fplan
}

func (s *Store) makeFastPlan() *fastPlan {
	no := func(why string) *fastPlan { return &fastPlan{reason: why} }
	if s.sq == nil || s.sq.sidePath != "" {
		return no("rescued, or a WAL or journal merged")
	}
	if s.hdr == nil || s.hdr.pageSize == 0 || !s.hdr.magicOK {
		return no("header")
	}
	rows, err := s.sq.db.Query("SELECT type, name, tbl_name, rootpage, sql FROM sqlite_master WHERE tbl_name = 'messages'")
	if err != nil {
		return no(err.Error())
	}
	var table, index uint32
	for rows.Next() {
		var typ, name, tbl string
		var root int64
		var sqlText *string
		if err := rows.Scan(&typ, &name, &tbl, &root, &sqlText); err != nil {
			rows.Close()
			return no(err.Error())
		}
		if sqlText == nil || root <= 0 || root > 1<<32-1 {
			continue
		}
		norm := strings.ToLower(strings.Join(strings.Fields(*sqlText), ""))
		switch {
		case typ == "table" && name == "messages":
			if norm != "createtablemessages(idintegerprimarykey,topic_idintegernotnull,timestampintegernotnull,datablobnotnull)" {
				return no("messages table is not rosbag2's: " + *sqlText)
			}
			table = uint32(root)
		case typ == "index" && index == 0:
			if norm == "createindextimestamp_idxonmessages(timestampasc)" || strings.HasSuffix(norm, "onmessages(timestamp)") || strings.HasSuffix(norm, "onmessages(timestampasc)") {
				index = uint32(root)
			}
		}
	}
	rows.Close()
	if rows.Err() != nil || table == 0 || index == 0 {
		return no("no messages table or timestamp index")
	}
	return &fastPlan{p: newPager(s.r, s.size, s.hdr.pageSize, s.hdr.reserved), table: table, index: index, ok: true}
}

// errPageDamage marks a page that fails its checks (pageProblem) met by
// a read: the store's pages are then surveyed (see survey.go).
var errPageDamage = errors.New("a page read fails its checks")

func pageDamage(why string) error { return fmt.Errorf("%w: %s", errPageDamage, why) }

// errUnexpected marks what makes the fast path hand over to SQL.
var errUnexpected = errors.New("unexpected")

func unexpected(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{errUnexpected}, args...)...)
}

// frame is one page on the index walk's stack.
type frame struct {
	pg   []byte
	h    btreeHeader
	hoff int
	// k is the position: on a leaf, the next cell; on an interior page,
	// 2j to descend into child j (j == cells: the right child), 2j+1 to
	// give cell j's own key.
	k int
}

// fastIter walks the index and reads each row.
type fastIter struct {
	s      *Store
	fp     *fastPlan
	p      *pager // fp's, reading ahead for this iteration
	ids    map[uint32]bool
	all    bool
	f      bag.MessageFilter
	start  int64
	end    int64
	hasEnd bool

	stack []*frame
	spare [][]byte // page buffers to reuse
	// interior caches the table's interior pages read, by page number.
	interior map[uint32][]byte
	leafNo   uint32
	leaf     []byte
	leafIdx  int // the cell of leaf found last (-1: none)
	scratch  []byte
	leafH    btreeHeader
	pay      []byte // a payload assembled from overflow pages
	// check is set while the file's pages have not been surveyed: each
	// index and table page read is checked (pageProblem), and one that
	// fails ends the iteration with errPageDamage.
	check bool
	// checkedPages has a bit per page checked already.
	checkedPages []uint64
	// passed is the store's set of pages that passed their checks, by
	// this read or another, or by the survey (see pageBits).
	passed pageBits
	// awaitSurvey is set when the survey runs beside this read (see
	// healIter): before handing over to SQL, which reads through damage,
	// the read waits for its verdict and, when it found damage, ends with
	// the error, for healIter to hand over to the rescue.
	awaitSurvey bool

	// bound is set for a remote read of a window whose read-ahead is yet
	// to be bounded (see boundRemote).
	bound bool
	// release lets go of the pages fetched ahead for the window.
	release func()

	last    [2]int64 // (timestamp, row id) of the last message given
	given   bool
	started bool

	sql  bag.MessageIter // the SQL iteration handed over to, if any
	msg  bag.Message
	buf  []byte
	err  error
	done bool
}

func (s *Store) fastMessages(ids map[uint32]bool, all bool, f bag.MessageFilter, fp *fastPlan) bag.MessageIter {
	p := *fp.p
	p.ra = &readAhead{r: s.r, size: s.size}
	it := &fastIter{s: s, fp: fp, p: &p, ids: ids, all: all, f: f, interior: map[uint32][]byte{}, check: s.surveyPending()}
	if it.check {
		it.passed = s.passedPages()
	}
	if !f.Start.IsZero() {
		it.start = f.Start.Nanos()
	} else {
		it.start = -1 << 63
	}
	if !f.End.IsZero() {
		it.end, it.hasEnd = f.End.Nanos(), true
		it.bound = bag.IsRemote(s.r)
	}
	return it
}

func (it *fastIter) getBuf() []byte {
	if n := len(it.spare); n > 0 {
		b := it.spare[n-1]
		it.spare = it.spare[:n-1]
		return b
	}
	return nil
}

// push reads index page n onto the stack, positioned at the first entry
// that may be >= start.
func (it *fastIter) push(n uint32) error {
	if len(it.stack) > 40 {
		return unexpected("index deeper than 40 pages")
	}
	pg, err := it.p.page(n, it.getBuf())
	if err != nil {
		return unexpected("index page %d: %v", n, err)
	}
	hoff := headerOffset(n)
	h, ok := parseBtreeHeader(pg, hoff, it.p.usable)
	if !ok || (h.typ != pageIndexLeaf && h.typ != pageIndexInterior) {
		return unexpected("index page %d is not an index b-tree page", n)
	}
	if hoff+h.size+2*h.cells > len(pg) {
		return unexpected("index page %d cut", n)
	}
	if it.mustCheck(n) {
		if why := it.p.pageProblem(pg, n, hoff, h, keyRange{}); why != "" {
			return pageDamage(why)
		}
		it.passed.add(n)
	}
	fr := &frame{pg: pg, h: h, hoff: hoff}
	if !it.started {
		// Seek: the first cell whose key is >= start.
		j := 0
		for ; j < h.cells; j++ {
			ts, _, err := it.indexKey(fr, j)
			if err != nil {
				return err
			}
			if ts >= it.start {
				break
			}
		}
		if h.typ == pageIndexLeaf {
			fr.k = j
		} else {
			fr.k = 2 * j
		}
	}
	it.stack = append(it.stack, fr)
	return nil
}

// indexKey reads cell j of an index page: (timestamp, row id).
func (it *fastIter) indexKey(fr *frame, j int) (int64, int64, error) {
	p := it.p
	base := fr.hoff + fr.h.size + 2*j
	cp := int(binary.BigEndian.Uint16(fr.pg[base:]))
	c, err := p.parseCell(fr.pg, fr.h.typ, cp)
	if err != nil {
		return 0, 0, unexpected("index cell: %v", err)
	}
	pay := fr.pg[c.PayloadOff : c.PayloadOff+c.Local]
	if uint64(c.Local) < c.PayloadSize {
		if it.pay, err = p.payload(fr.pg, c, it.pay, nil); err != nil {
			return 0, 0, unexpected("index cell: %v", err)
		}
		pay = it.pay
	}
	var cols [2]Column
	if n, err := recordColumns(pay, cols[:]); err != nil || n != 2 {
		return 0, 0, unexpected("index record is not (timestamp, rowid)")
	}
	ts, ok1 := intValue(pay, cols[0])
	id, ok2 := intValue(pay, cols[1])
	if !ok1 || !ok2 {
		return 0, 0, unexpected("index record is not two integers")
	}
	return ts, id, nil
}

// child returns the child page of cell j of an interior index page (j ==
// cells: the right child).
func child(fr *frame, j int) uint32 {
	if j == fr.h.cells {
		return fr.h.rightChild
	}
	cp := int(binary.BigEndian.Uint16(fr.pg[fr.hoff+fr.h.size+2*j:]))
	if cp+4 > len(fr.pg) {
		return 0
	}
	return binary.BigEndian.Uint32(fr.pg[cp:])
}

// nextEntry returns the next index entry in order; ok false at the end.
func (it *fastIter) nextEntry() (ts, id int64, ok bool, err error) {
	if !it.started && len(it.stack) == 0 {
		if err := it.push(it.fp.index); err != nil {
			return 0, 0, false, err
		}
	}
	for len(it.stack) > 0 {
		fr := it.stack[len(it.stack)-1]
		if fr.h.typ == pageIndexLeaf {
			if fr.k < fr.h.cells {
				j := fr.k
				fr.k++
				it.started = true
				ts, id, err := it.indexKey(fr, j)
				return ts, id, err == nil, err
			}
		} else if fr.k <= 2*fr.h.cells {
			k := fr.k
			fr.k++
			if k%2 == 1 {
				it.started = true
				ts, id, err := it.indexKey(fr, k/2)
				return ts, id, err == nil, err
			}
			c := child(fr, k/2)
			if c == 0 {
				return 0, 0, false, unexpected("interior index cell without a child")
			}
			if err := it.push(c); err != nil {
				return 0, 0, false, err
			}
			continue
		}
		it.spare = append(it.spare, fr.pg)
		it.stack = it.stack[:len(it.stack)-1]
		it.started = true
	}
	return 0, 0, false, nil
}

// row finds the table leaf cell of row id; it returns the leaf page and
// the cell.
func (it *fastIter) row(id int64) ([]byte, cell, error) {
	p := it.p
	if it.leaf != nil {
		if pg, c, found, err := it.inLeaf(id); err != nil || found {
			return pg, c, err
		}
	}
	n := it.fp.table
	var keys keyRange // the row ids page n may hold, as its parents say
	for depth := 0; depth < 40; depth++ {
		pg := it.interior[n]
		if pg == nil {
			var err error
			it.scratch, err = p.page(n, it.scratch)
			if err != nil {
				return nil, cell{}, unexpected("table page %d: %v", n, err)
			}
			pg = it.scratch
			hoff := headerOffset(n)
			h, ok := parseBtreeHeader(pg, hoff, p.usable)
			if !ok || (h.typ != pageTableLeaf && h.typ != pageTableInterior) {
				return nil, cell{}, unexpected("table page %d is not a table b-tree page", n)
			}
			if it.mustCheck(n) {
				if why := p.pageProblem(pg, n, hoff, h, keys); why != "" {
					return nil, cell{}, pageDamage(why)
				}
				it.passed.add(n)
			}
			if h.typ == pageTableLeaf {
				it.scratch, it.leaf = it.leaf, pg
				it.leafNo, it.leafH, it.leafIdx = n, h, -1
				_, c, found, err := it.inLeaf(id)
				if err != nil {
					return nil, cell{}, err
				}
				if !found {
					return nil, cell{}, unexpected("row %d of the index is not in the table", id)
				}
				return pg, c, nil
			}
			if len(it.interior) > 4096 {
				clear(it.interior)
			}
			pg = append([]byte(nil), pg...)
			it.interior[n] = pg
		}
		next, k, err := p.tableChild(pg, n, id, keys)
		if err != nil {
			return nil, cell{}, err
		}
		n, keys = next, k
	}
	return nil, cell{}, unexpected("table deeper than 40 pages")
}

// mustCheck reports whether page n is to be checked: the iteration checks
// pages and has not checked n yet (a leaf is read again and again when
// the rows' order in time is not their order in the table).
func (it *fastIter) mustCheck(n uint32) bool {
	if !it.check {
		return false
	}
	if it.s.surveyDone.Load() && it.s.swap.Load() == nil {
		// The survey (run by a read of every message before its first
		// step, or by another read meanwhile) checked every page and
		// found nothing: checking them again costs a third of the read.
		it.check = false
		return false
	}
	if it.checkedPages == nil {
		it.checkedPages = make([]uint64, it.p.pages/64+1)
	}
	if n > it.p.pages || it.checkedPages[n/64]&(1<<(n%64)) != 0 || it.passed.has(n) {
		return false
	}
	it.checkedPages[n/64] |= 1 << (n % 64)
	return true
}

// tableChild returns the child of interior table page n (its bytes pg,
// holding the row ids keys) that leads to row id, and the row ids the
// child holds.
func (p *pager) tableChild(pg []byte, n uint32, id int64, keys keyRange) (uint32, keyRange, error) {
	hoff := headerOffset(n)
	h, _ := parseBtreeHeader(pg, hoff, p.usable)
	key := func(m int) (cell, error) {
		c, err := p.parseCell(pg, pageTableInterior, int(binary.BigEndian.Uint16(pg[hoff+h.size+2*m:])))
		if err != nil {
			return c, unexpected("table interior cell: %v", err)
		}
		return c, nil
	}
	// The first cell whose key is >= id leads to the row.
	lo, hi := 0, h.cells
	for lo < hi {
		m := (lo + hi) / 2
		c, err := key(m)
		if err != nil {
			return 0, keys, err
		}
		if c.RowID >= id {
			hi = m
		} else {
			lo = m + 1
		}
	}
	var prev int64
	if lo > 0 {
		c, err := key(lo - 1)
		if err != nil {
			return 0, keys, err
		}
		prev = c.RowID
	}
	next := h.rightChild
	out := keyRange{lo: prev, hasLo: lo > 0, hi: keys.hi, hasHi: keys.hasHi}
	if lo == 0 {
		out.lo, out.hasLo = keys.lo, keys.hasLo
	}
	if lo < h.cells {
		c, err := key(lo)
		if err != nil {
			return 0, keys, err
		}
		next = c.Child
		out = keys.child(prev, lo > 0, c.RowID)
	}
	if next == 0 {
		return 0, keys, unexpected("table interior page %d without a child", n)
	}
	return next, out, nil
}

// rowPathProblem checks the pages on the way from the messages table's
// root to the leaf of row id (pageProblem), and returns what is wrong
// with the first that fails, or "" when none does or the way is not a
// table b-tree's (SQL then says what it finds).
func (fp *fastPlan) rowPathProblem(id int64) string {
	p := fp.p
	n := fp.table
	var keys keyRange
	var buf []byte
	for depth := 0; depth < 40; depth++ {
		pg, err := p.page(n, buf)
		if err != nil {
			return ""
		}
		buf = pg
		hoff := headerOffset(n)
		h, ok := parseBtreeHeader(pg, hoff, p.usable)
		if !ok || (h.typ != pageTableLeaf && h.typ != pageTableInterior) {
			return ""
		}
		if why := p.pageProblem(pg, n, hoff, h, keys); why != "" {
			return why
		}
		if h.typ == pageTableLeaf {
			return ""
		}
		next, k, err := p.tableChild(pg, n, id, keys)
		if err != nil {
			return ""
		}
		n, keys = next, k
	}
	return ""
}

// inLeaf looks for row id in the cached table leaf.
func (it *fastIter) inLeaf(id int64) ([]byte, cell, bool, error) {
	p := it.p
	pg, h := it.leaf, it.leafH
	hoff := headerOffset(it.leafNo)
	at := func(m int) (cell, error) {
		c, err := p.parseCell(pg, pageTableLeaf, int(binary.BigEndian.Uint16(pg[hoff+h.size+2*m:])))
		if err != nil {
			return c, unexpected("table leaf cell: %v", err)
		}
		return c, nil
	}
	if h.cells == 0 {
		return nil, cell{}, false, nil
	}
	// Rows come mostly in row id order: try the cell after the last one
	// found before searching.
	if k := it.leafIdx + 1; k > 0 && k < h.cells {
		c, err := at(k)
		if err != nil {
			return nil, cell{}, false, err
		}
		if c.RowID == id {
			it.leafIdx = k
			return pg, c, true, nil
		}
	}
	lo, hi := 0, h.cells
	for lo < hi {
		m := (lo + hi) / 2
		c, err := at(m)
		if err != nil {
			return nil, cell{}, false, err
		}
		if c.RowID == id {
			it.leafIdx = m
			return pg, c, true, nil
		}
		if c.RowID < id {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return nil, cell{}, false, nil
}

// recordColumns splits a record into at most len(cols) columns; the
// columns must add up to exactly the payload. It returns the count.
func recordColumns(p []byte, cols []Column) (int, error) {
	hsize, n := varint(p)
	if n == 0 || hsize < uint64(n) || hsize > uint64(len(p)) {
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
		if !ok || sz > uint64(len(p))-body {
			return 0, errors.New("record body")
		}
		cols[k] = Column{Serial: t, Start: int(body), End: int(body + sz)}
		body += sz
		k++
	}
	if body != uint64(len(p)) {
		return 0, errors.New("record size")
	}
	return k, nil
}

func (it *fastIter) Next() bool {
	if it.sql != nil {
		return it.sqlNext()
	}
	if it.done || it.err != nil {
		return false
	}
	ok, err := it.step()
	if err == nil {
		if !ok {
			it.Close()
		}
		return ok
	}
	if !errors.Is(err, errUnexpected) {
		it.err = err
		it.Close()
		return false
	}
	if it.awaitSurvey && it.s.surveyed() != nil {
		it.err = err
		it.Close()
		return false
	}
	// Hand over to SQL from the last message given.
	fastFallbacks.Add(1)
	var after *[2]int64
	if it.given {
		after = &it.last
	}
	it.releasePages()
	it.sql = it.s.sqlMessages(it.ids, it.all, it.f, after)
	return it.sqlNext()
}

func (it *fastIter) sqlNext() bool {
	if it.sql.Next() {
		return true
	}
	it.err = it.sql.Err()
	return false
}

// step gives the next message: ok false at the end.
func (it *fastIter) step() (bool, error) {
	if it.bound {
		it.bound = false
		if err := it.boundRemote(); err != nil {
			return false, err
		}
	}
	p := it.p
	for {
		ts, id, ok, err := it.nextEntry()
		if err != nil || !ok {
			return false, err
		}
		if ts < it.start {
			continue
		}
		if it.hasEnd && ts > it.end {
			return false, nil
		}
		if it.given && (ts < it.last[0] || ts == it.last[0] && id <= it.last[1]) {
			return false, unexpected("index out of order at row %d", id)
		}
		pg, c, err := it.row(id)
		if err != nil {
			return false, err
		}
		pay := pg[c.PayloadOff : c.PayloadOff+c.Local]
		if uint64(c.Local) < c.PayloadSize && !it.all {
			// A row of another topic: its overflow pages are not read.
			if topic, rts, ok := localKey(pay); ok && rts == ts {
				if conn := it.s.conn(topic); conn == nil || !it.ids[conn.ID] {
					it.last, it.given = [2]int64{ts, id}, true
					continue
				}
			}
		}
		if uint64(c.Local) < c.PayloadSize {
			if it.pay, err = p.payload(pg, c, it.pay, nil); err != nil {
				return false, unexpected("row %d: %v", id, err)
			}
			pay = it.pay
		}
		var cols [4]Column
		if n, err := recordColumns(pay, cols[:]); err != nil || n != 4 {
			return false, unexpected("row %d: record does not parse", id)
		}
		topic, ok1 := intValue(pay, cols[1])
		rts, ok2 := intValue(pay, cols[2])
		d := cols[3]
		if cols[0].Serial != 0 || !ok1 || !ok2 || rts != ts || d.Serial < 12 || d.Serial%2 != 0 {
			return false, unexpected("row %d is not as its index entry says", id)
		}
		it.last, it.given = [2]int64{ts, id}, true
		conn := it.s.conn(topic)
		if conn == nil || (!it.all && !it.ids[conn.ID]) {
			continue
		}
		it.buf, err = it.s.messageData(it.buf, pay[d.Start:d.End])
		if err != nil {
			return false, fmt.Errorf("message %d: %w", id, err)
		}
		t := bag.TimeFromNanos(ts)
		it.msg = bag.Message{Conn: conn, Time: t, PublishTime: t, Data: it.buf, Loc: LocOf(id)}
		return true, nil
	}
}

func (it *fastIter) releasePages() {
	it.stack, it.spare, it.interior, it.leaf = nil, nil, nil, nil
	if it.release != nil {
		it.release()
		it.release = nil
	}
}

func (it *fastIter) Message() *bag.Message {
	if it.sql != nil {
		return it.sql.Message()
	}
	return &it.msg
}

func (it *fastIter) Err() error { return it.err }

func (it *fastIter) Close() {
	it.done = true
	it.releasePages()
	if it.sql != nil {
		it.sql.Close()
	}
}
