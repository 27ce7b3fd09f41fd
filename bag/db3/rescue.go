package db3

import (
	"errors"
	"fmt"
	"sort"

	"github.com/bagscope/bagscope/bag"
)

// rescued holds what was read from the pages of a file SQLite refuses.
type rescued struct {
	pm *pageMap
	// msgs are the complete messages rows, by timestamp then row id.
	msgs  []rrow
	byRow map[int64]int
	// lostTopics holds the topic ids whose topics rows are lost: their
	// messages are read under a made-up name and no type, so suspect.
	lostTopics map[int64]bool
}

// rrow is a messages row found on a page.
type rrow struct {
	rowid, ts, topic int64
	page             uint32
	off              uint32 // the cell's offset in the page
	// suspect is set for a row read from a page that shows damage (see
	// suspectWhy).
	suspect bool
}

// Rows are recognised by their shape when no tree reaches their page.
const (
	shapeNone = iota
	shapeMessage
	shapeTopic
	shapeDefinition
)

// rowShape guesses which rosbag2 table a record comes from.
func rowShape(local []byte, cols []Column) int {
	kind := func(i int) string { return cols[i].Kind() }
	text := func(i int) string {
		if cols[i].End > len(local) {
			return ""
		}
		return textValue(local, cols[i])
	}
	switch {
	case len(cols) == 4 && (kind(0) == "null" || kind(0) == "int") && kind(1) == "int" && kind(2) == "int" && (kind(3) == "blob" || kind(3) == "text" || kind(3) == "null"):
		return shapeMessage
	case len(cols) >= 4 && len(cols) <= 6 && kind(0) == "null" && kind(1) == "text" && kind(2) == "text" && kind(3) == "text":
		for i := 4; i < len(cols); i++ {
			if kind(i) != "text" && kind(i) != "null" {
				return shapeNone
			}
		}
		if e := text(2); len(cols) == 5 && (e == "ros2msg" || e == "ros2idl" || e == "unknown" || e == "") {
			return shapeDefinition
		}
		return shapeTopic
	}
	return shapeNone
}

// loadRescue reads the topics and messages rows from the file's pages.
func (s *Store) loadRescue(reason error) error {
	if s.size < HeaderSize {
		return fmt.Errorf("%w: %w", ErrNotSQLite, reason)
	}
	rs := &rescued{byRow: map[int64]int{}}
	var topics []topicRow
	topicSeen := map[int64]bool{}
	defs := map[string][2]string{}
	var lostRows, rowLost []damage
	badPages := map[uint32]bool{}
	var roots struct{ messages, topics, defs, schema, metadata uint32 }
	var pbuf []byte
	var pm *pageMap
	first := true
	leaf := func(tree uint32, pg []byte, n uint32, c cell, cerr error) {
		if first {
			first = false
			roots.messages, roots.topics = pm.root("messages"), pm.root("topics")
			roots.defs, roots.schema, roots.metadata = pm.root("message_definitions"), pm.root("schema"), pm.root("metadata")
		}
		if tree != 0 && tree != roots.messages && tree != roots.topics && tree != roots.defs && tree != roots.schema && tree != roots.metadata {
			return
		}
		local := pg[c.PayloadOff : c.PayloadOff+c.Local]
		cols, err := parseRecordPrefix(local, c.PayloadSize)
		if err != nil {
			if tree != 0 && tree == roots.messages {
				badPages[n] = true
			} else if tree != 0 {
				lostRows = append(lostRows, damage{page: n, off: pm.p.offset(n) + int64(c.Off), end: pm.p.offset(n) + int64(c.Off+c.Len), why: fmt.Sprintf("row %d of %s on page %d: %v", c.RowID, pm.roots[tree], n, err)})
			}
			return
		}
		shape := rowShape(local, cols)
		switch {
		case tree == 0:
		case tree == roots.messages:
			if shape != shapeMessage {
				shape = shapeNone
			}
		case tree == roots.topics:
			if shape != shapeTopic && shape != shapeDefinition {
				shape = shapeNone
			} else {
				shape = shapeTopic
			}
		case tree == roots.defs:
			if shape != shapeTopic && shape != shapeDefinition {
				shape = shapeNone
			} else {
				shape = shapeDefinition
			}
		case tree == roots.schema, tree == roots.metadata:
			if cerr != nil {
				return
			}
			payload, err := pm.p.payload(pg, c, pbuf, nil)
			pbuf = payload
			if err != nil {
				return
			}
			if tree == roots.schema && len(cols) == 2 {
				if v, ok := intValue(payload, cols[0]); ok {
					s.schemaVersion = int(v)
				} else if cols[0].Kind() == "null" {
					s.schemaVersion = int(c.RowID)
				}
				s.rosDistro = textValue(payload, cols[1])
			}
			if tree == roots.metadata && len(cols) == 3 {
				s.metadata = textValue(payload, cols[2])
			}
			return
		}
		if shape == shapeNone {
			if tree != 0 && tree == roots.messages {
				badPages[n] = true
			} else if tree != 0 {
				lostRows = append(lostRows, damage{page: n, off: pm.p.offset(n) + int64(c.Off), end: pm.p.offset(n) + int64(c.Off+c.Len), why: fmt.Sprintf("row %d on page %d does not have the columns of table %s", c.RowID, n, pm.roots[tree])})
			}
			return
		}
		if cerr != nil {
			if tree != 0 || shape != shapeMessage {
				return // the walk reported it
			}
			rowLost = append(rowLost, damage{page: n, off: pm.p.offset(n) + int64(c.Off), end: pm.p.offset(n) + int64(c.Off+c.Len), why: fmt.Sprintf("row %d on page %d: %v", c.RowID, n, cerr)})
			return
		}
		switch shape {
		case shapeMessage:
			if _, dup := rs.byRow[c.RowID]; dup {
				return
			}
			topic, _ := intValue(local, cols[1])
			ts, _ := intValue(local, cols[2])
			rs.byRow[c.RowID] = len(rs.msgs)
			rs.msgs = append(rs.msgs, rrow{rowid: c.RowID, ts: ts, topic: topic, page: n, off: uint32(c.Off)})
		case shapeTopic, shapeDefinition:
			payload, err := pm.p.payload(pg, c, pbuf, nil)
			pbuf = payload
			if err != nil {
				return
			}
			str := func(i int) string {
				if i < len(cols) {
					return textValue(payload, cols[i])
				}
				return ""
			}
			if shape == shapeDefinition {
				defs[str(1)] = [2]string{str(2), str(3)}
				return
			}
			if topicSeen[c.RowID] {
				return
			}
			topicSeen[c.RowID] = true
			t := topicRow{id: c.RowID, name: str(1), typ: str(2), format: str(3), offset: pm.p.offset(n) + int64(c.Off)}
			if len(cols) >= 5 {
				t.qos, t.hasQoS = str(4), true
			}
			if len(cols) >= 6 {
				t.hash, t.hasHash = str(5), true
			}
			topics = append(topics, t)
		}
	}
	pm = newPageMap(s.r, s.size, s.hdr)
	pm.build(leaf)
	rs.pm = pm
	s.mapOnce.Do(func() { s.pmap = pm })
	return s.finishRescue(rs, reason, topics, defs, lostRows, &lossEvidence{pm: pm, badPages: badPages, rows: rowLost})
}

// finishRescue turns the rows found into the store's connections, counts
// and scan report.
func (s *Store) finishRescue(rs *rescued, reason error, topics []topicRow, defs map[string][2]string, lostRows []damage, ev *lossEvidence) error {
	pm := rs.pm
	if len(topics) == 0 && len(rs.msgs) == 0 && pm.root("messages") == 0 && pm.root("topics") == 0 {
		return &FormatError{Msg: fmt.Sprintf("no rosbag2 table or row found in the file's pages (%v)", reason), Err: ErrNotRosbag2}
	}
	s.rescue = rs
	sort.Slice(topics, func(i, j int) bool { return topics[i].id < topics[j].id })
	cols := 0
	for _, t := range topics {
		s.addTopic(t, defs)
		n := 4
		if t.hasQoS {
			n++
		}
		if t.hasHash {
			n++
		}
		cols = max(cols, n)
	}
	if s.schemaVersion == 0 {
		s.schemaVersion = map[int]int{0: 1, 4: 1, 5: 2, 6: 4}[cols]
	}
	// Messages of topics whose rows are lost still get a connection.
	lostTopics := map[int64]bool{}
	for _, m := range rs.msgs {
		if s.conn(m.topic) == nil && m.topic >= 0 && m.topic <= 1<<32-1 && !lostTopics[m.topic] {
			lostTopics[m.topic] = true
		}
	}
	if len(lostTopics) > 0 {
		ids := make([]int64, 0, len(lostTopics))
		for id := range lostTopics {
			ids = append(ids, id)
		}
		sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
		for _, id := range ids {
			s.addTopic(topicRow{id: id, name: fmt.Sprintf("/lost_topic_%d", id), format: "cdr"}, nil)
		}
		s.warnings = append(s.warnings, fmt.Errorf("the topics rows of topic ids %v are lost: their messages are listed under /lost_topic_<id> with no type, marked suspect", ids))
	}
	rs.lostTopics = lostTopics
	sort.Slice(rs.msgs, func(i, j int) bool {
		a, b := rs.msgs[i], rs.msgs[j]
		if a.ts != b.ts {
			return a.ts < b.ts
		}
		return a.rowid < b.rowid
	})
	s.counts = map[uint32]uint64{}
	for i, m := range rs.msgs {
		rs.byRow[m.rowid] = i
		s.addCount(m.topic, 1, m.ts, m.ts)
	}

	si := &bag.ScanInfo{Reason: reason, ParsedTo: s.size}
	si.Suspect = rs.markSuspects(ev)
	// Pages of the messages table whose loss the key ranges count are in
	// rescueLoss's ranges; other damage loses no message (a damaged index
	// or topics page: the rows are read all the same), except a page of
	// the messages table damaged where no key range says what it held (a
	// page cut short): its rows are not known, nor are those of the pages
	// it may point to.
	counted := map[uint32]bool{}
	msgRoot := pm.root("messages")
	for _, k := range pm.lostKeys[msgRoot] {
		counted[k.page] = true
	}
	for n := range ev.badPages {
		counted[n] = true
	}
	var dmg, msgDmg []damage
	for _, d := range pm.damaged {
		ofMessages := msgRoot != 0 && pm.info(d.page) != nil && pm.info(d.page).tree == msgRoot
		rowOfMessages := d.end-d.off < int64(pm.p.pageSize) && ofMessages
		switch {
		case counted[d.page] || rowOfMessages:
		case ofMessages:
			msgDmg = append(msgDmg, d)
			ev.msgTreeBroken = true
		default:
			dmg = append(dmg, d)
		}
	}
	lost := s.rescueLoss(rs, ev)
	for _, d := range msgDmg {
		lost = append(lost, bag.ByteRange{Start: d.off, End: d.end, Unit: bag.UnitPage, Messages: bag.AtLeast(0), Why: d.why + ": the rows of table messages on it are not known"})
	}
	dmg = append(dmg, lostRows...)
	if !pm.hdr.magicOK || pm.guessed {
		dmg = append(dmg, damage{page: 1, off: 0, end: HeaderSize, why: "the database header is damaged (SQLite: file is not a database)"})
	}
	// Pages nothing explains: garbage, or overflow pages of lost rows.
	for i := 0; i < len(pm.pages); {
		if pm.pages[i].kind != kindUnknown {
			i++
			continue
		}
		j := i
		for j < len(pm.pages) && pm.pages[j].kind == kindUnknown {
			j++
		}
		off, end := pm.p.offset(uint32(i+1)), min(pm.p.offset(uint32(j+1)), s.size)
		why := fmt.Sprintf("page %d is neither a b-tree page nor reached from one", i+1)
		if j > i+1 {
			why = fmt.Sprintf("pages %d..%d are neither b-tree pages nor reached from one", i+1, j)
		}
		dmg = append(dmg, damage{page: uint32(i + 1), off: off, end: end, why: why})
		i = j
	}
	for _, d := range dmg {
		lost = append(lost, bag.ByteRange{Start: d.off, End: d.end, Unit: bag.UnitPage, Messages: bag.Exactly(0), Why: d.why})
	}
	sort.SliceStable(lost, func(i, j int) bool { return lost[i].Start < lost[j].Start })
	si.Skipped = lost
	total := bag.Exactly(0)
	for _, r := range lost {
		total = total.Plus(r.Messages)
	}
	si.LostMessages = total.Min
	si.Notes = append(si.Notes, fmt.Sprintf("%d messages rows and %d topics rows read from %d pages of %d bytes", len(rs.msgs), len(topics), pm.p.pages, pm.p.pageSize))
	if pm.guessed {
		si.Notes = append(si.Notes, fmt.Sprintf("the page size %d was found by looking at the pages: the database header is unreadable", pm.p.pageSize))
	}
	if pm.schemaErr != nil || msgRoot == 0 {
		si.Notes = append(si.Notes, "the schema (sqlite_master) is damaged: rows were recognised by their columns")
	}
	if si.Suspect > 0 {
		si.Notes = append(si.Notes, fmt.Sprintf("%d messages were read from pages that show damage: they are marked suspect", si.Suspect))
	}
	s.scanned = si
	s.claim = fileClaim(s.metadata, s.path)
	return nil
}

// rescueMessages iterates over the rescued messages.
func (s *Store) rescueMessages(ids map[uint32]bool, all bool, f bag.MessageFilter) bag.MessageIter {
	rs := s.rescue
	lo := 0
	if !f.Start.IsZero() {
		start := f.Start.Nanos()
		lo = sort.Search(len(rs.msgs), func(i int) bool { return rs.msgs[i].ts >= start })
	}
	return &rescueIter{s: s, ids: ids, all: all, pos: lo, end: f.End}
}

// rescueIter iterates over rescued rows.
type rescueIter struct {
	s    *Store
	ids  map[uint32]bool
	all  bool
	pos  int
	end  bag.Time
	msg  bag.Message
	buf  []byte
	pg   []byte
	pgN  uint32
	err  error
	done bool
}

func (i *rescueIter) Next() bool {
	rs := i.s.rescue
	for !i.done && i.pos < len(rs.msgs) {
		m := rs.msgs[i.pos]
		i.pos++
		if !i.end.IsZero() && m.ts > i.end.Nanos() {
			break
		}
		c := i.s.conn(m.topic)
		if c == nil || (!i.all && !i.ids[c.ID]) {
			continue
		}
		data, err := i.s.rowData(m, &i.pg, &i.pgN, i.buf)
		if err != nil {
			i.err = err
			i.done = true
			return false
		}
		i.buf = data
		t := bag.TimeFromNanos(m.ts)
		i.msg = bag.Message{Conn: c, Time: t, PublishTime: t, Data: data, Loc: LocOf(m.rowid), DataOffset: 0, Suspect: i.s.suspectWhy(m)}
		return true
	}
	i.done = true
	return false
}

func (i *rescueIter) Message() *bag.Message { return &i.msg }
func (i *rescueIter) Err() error            { return i.err }
func (i *rescueIter) Close()                { i.done = true }

// rowData reads a rescued row's data column again from its page, with its
// overflow chain, decompressing it when it is a zstd frame. pg and pgN
// cache the last page read.
func (s *Store) rowData(m rrow, pg *[]byte, pgN *uint32, buf []byte) ([]byte, error) {
	p := s.rescue.pm.p
	if *pgN != m.page {
		b, err := p.page(m.page, *pg)
		if err != nil {
			return nil, fmt.Errorf("message %d: %w", m.rowid, err)
		}
		*pg, *pgN = b, m.page
	}
	page := *pg
	c, err := p.parseCell(page, pageTableLeaf, int(m.off))
	if err != nil {
		return nil, &FormatError{Offset: p.offset(m.page) + int64(m.off), Page: m.page, Msg: fmt.Sprintf("message %d: %v", m.rowid, err), Err: ErrMalformed}
	}
	payload, err := p.payload(page, c, nil, nil)
	if err != nil {
		return nil, &FormatError{Offset: p.offset(m.page) + int64(m.off), Page: m.page, Msg: fmt.Sprintf("message %d: %v", m.rowid, err), Err: ErrMalformed}
	}
	cols, _, err := parseRecord(payload)
	if err != nil || len(cols) != 4 {
		return nil, &FormatError{Offset: p.offset(m.page) + int64(m.off), Page: m.page, Msg: fmt.Sprintf("message %d: record unreadable", m.rowid), Err: ErrMalformed}
	}
	data := payload[cols[3].Start:cols[3].End]
	if isCompressed(data) {
		return s.decompress(buf, data)
	}
	return data, nil
}

// rescueRead reads one rescued message by row id.
func (s *Store) rescueRead(id int64) (*bag.Message, error) {
	i, ok := s.rescue.byRow[id]
	if !ok {
		return nil, fmt.Errorf("no message with row id %d was rescued", id)
	}
	m := s.rescue.msgs[i]
	c := s.conn(m.topic)
	if c == nil {
		return nil, errors.New("message of an unknown topic")
	}
	var pg []byte
	var n uint32
	data, err := s.rowData(m, &pg, &n, nil)
	if err != nil {
		return nil, err
	}
	t := bag.TimeFromNanos(m.ts)
	return &bag.Message{Conn: c, Time: t, PublishTime: t, Data: data, Loc: LocOf(m.rowid), Suspect: s.suspectWhy(m)}, nil
}
