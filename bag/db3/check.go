package db3

import (
	"context"
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// QuickCheckSize is the file size from which Check runs SQLite's
// quick_check instead of the slower integrity_check.
const QuickCheckSize = 512 << 20

// CheckReader runs the doctor on the .db3 file held in r. When r is an
// *os.File (or anything with a Name), the WAL or journal beside it is
// looked for too.
func CheckReader(ctx context.Context, r io.ReaderAt, size int64, progress func(done, total int64)) (*bag.CheckReport, error) {
	path := ""
	if n, ok := r.(interface{ Name() string }); ok {
		path = n.Name()
	}
	s, err := Open(r, size, path)
	if err != nil {
		rep := &bag.CheckReport{Bytes: map[uint32]uint64{}}
		rep.Findings = append(rep.Findings, bag.Finding{Severity: bag.Error, Record: "database header", Message: fmt.Sprintf("the file cannot be read as a rosbag2 database: %v", err)})
		return rep, nil
	}
	defer s.Close()
	return s.Check(ctx, progress)
}

var pageRE = regexp.MustCompile(`(?i)\bpage (\d+)`)

// Check is the doctor: SQLite's integrity check (quick_check on files of
// QuickCheckSize and more), the metadata table against the rows, a hot
// WAL or journal beside the file, timestamp order, topics without
// messages and messages of unknown topics and, for a rescued file, every
// page that could not be read. Each finding names its page and offset.
func (s *Store) Check(ctx context.Context, progress func(done, total int64)) (*bag.CheckReport, error) {
	if r := s.rescuedStore(); r != nil {
		return r.Check(ctx, progress)
	}
	rep := &bag.CheckReport{Indexed: s.rescue == nil, Bytes: map[uint32]uint64{}}
	add := func(sev bag.Severity, off int64, rec, format string, args ...any) {
		rep.Findings = append(rep.Findings, bag.Finding{Severity: sev, Offset: off, Record: rec, Op: 0, Message: fmt.Sprintf(format, args...)})
	}
	const steps = 4
	step := func(i int64) {
		if progress != nil {
			progress(i, steps)
		}
	}
	step(0)
	ps := int64(s.hdr.pageSize)
	if s.sq != nil && s.sq.sidePath != "" {
		add(bag.Warning, 0, "database header", "a hot %s (%s) lies beside the file: the recording was not closed cleanly; its rows were read from a private copy, the file alone lacks them", s.sq.sideKind, s.sq.sidePath)
	}
	if s.hdr.walMode() && (s.sq == nil || s.sq.sidePath == "") {
		add(bag.Info, 18, "database header", "the file is in WAL mode (write/read versions %d/%d)", s.hdr.writeVer, s.hdr.readVer)
	}
	// Integrity.
	if s.sq != nil {
		pragma := "integrity_check"
		if s.size >= QuickCheckSize {
			pragma = "quick_check"
		}
		rows, err := s.sq.db.QueryContext(ctx, "PRAGMA "+pragma)
		if err != nil {
			add(bag.Error, 0, "database", "%s failed: %v", pragma, err)
		} else {
			for rows.Next() {
				var line string
				if rows.Scan(&line) != nil || line == "ok" {
					continue
				}
				off := int64(0)
				if m := pageRE.FindStringSubmatch(line); m != nil {
					if n, err := strconv.ParseInt(m[1], 10, 64); err == nil && n > 0 {
						off = (n - 1) * ps
						line = fmt.Sprintf("%s (page %d at offset %d)", line, n, off)
					}
				}
				add(bag.Error, off, "page", "%s: %s", pragma, line)
			}
			if err := rows.Err(); err != nil {
				add(bag.Error, 0, "database", "%s failed: %v", pragma, err)
			}
			rows.Close()
		}
	} else if sc := s.scanned; sc != nil {
		add(bag.Error, 0, "database", "%v: the rows were read from the pages directly", sc.Reason)
		for _, r := range sc.Skipped {
			add(bag.Error, r.Start, "page", "%s (bytes %d..%d)", r.Why, r.Start, r.End)
		}
		if sc.LostMessages > 0 {
			add(bag.Error, 0, "table messages", "at least %d messages are lost (see the lost pages)", sc.LostMessages)
		}
	}
	if ctx.Err() != nil {
		return rep, ctx.Err()
	}
	step(1)
	// Counts, bytes and timestamp order.
	if err := s.counted(); err != nil {
		add(bag.Error, 0, "table messages", "counting the messages failed: %v", err)
	}
	s.verifyPreset(add)
	var outOfOrder, firstOOO int64
	if s.sq != nil {
		rows, err := s.sq.db.QueryContext(ctx, "SELECT topic_id, count(*), sum(length(data)) FROM messages GROUP BY topic_id")
		if err == nil {
			for rows.Next() {
				var id, n, b int64
				if rows.Scan(&id, &n, &b) == nil && s.conn(id) != nil {
					rep.Messages += uint64(n)
					rep.Bytes[uint32(id)] += uint64(b)
				}
			}
			rows.Close()
		}
		step(2)
		rows, err = s.sq.db.QueryContext(ctx, "SELECT id, timestamp FROM messages ORDER BY id")
		if err == nil {
			var prev int64
			first := true
			for rows.Next() {
				var id, ts int64
				if rows.Scan(&id, &ts) != nil {
					continue
				}
				if !first && ts < prev {
					if outOfOrder == 0 {
						firstOOO = id
					}
					outOfOrder++
				}
				prev, first = ts, false
			}
			rows.Close()
		}
	} else {
		rs := s.rescue
		for _, m := range rs.msgs {
			if c := s.conn(m.topic); c != nil {
				rep.Messages++
				if cl, err := s.cellPayloadSize(m); err == nil {
					rep.Bytes[c.ID] += cl
				}
			}
		}
		step(2)
		byRow := make([]rrow, len(rs.msgs))
		copy(byRow, rs.msgs)
		sort.Slice(byRow, func(i, j int) bool { return byRow[i].rowid < byRow[j].rowid })
		for i := 1; i < len(byRow); i++ {
			if byRow[i].ts < byRow[i-1].ts {
				if outOfOrder == 0 {
					firstOOO = byRow[i].rowid
				}
				outOfOrder++
			}
		}
	}
	if outOfOrder > 0 {
		add(bag.Info, 0, "table messages", "%d messages were written out of timestamp order (the first is row id %d); they are read in timestamp order", outOfOrder, firstOOO)
	}
	step(3)
	// Topics and metadata.
	for _, c := range s.conns {
		if s.counts[c.ID] == 0 {
			add(bag.Info, c.Offset, "topic", "topic %s (id %d, %s) has no messages", c.Topic, c.ID, c.Type)
		}
		if c.Encoding != "cdr" && c.Encoding != "" {
			add(bag.Warning, c.Offset, "topic", "topic %s has serialization format %q: rosbag2 writes cdr", c.Topic, c.Encoding)
		}
	}
	ids := make([]int64, 0, len(s.unknown))
	for id := range s.unknown {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return ids[i] < ids[j] })
	for _, id := range ids {
		add(bag.Error, 0, "table messages", "%d messages have topic_id %d, which the topics table does not list", s.unknown[id], id)
	}
	if s.metadata != "" {
		s.checkMetadata(add)
	}
	step(steps)
	sort.SliceStable(rep.Findings, func(i, j int) bool { return rep.Findings[i].Offset < rep.Findings[j].Offset })
	return rep, nil
}

// cellPayloadSize returns the size of a rescued row's data column.
func (s *Store) cellPayloadSize(m rrow) (uint64, error) {
	p := s.rescue.pm.p
	pg, err := p.page(m.page, nil)
	if err != nil {
		return 0, err
	}
	c, err := p.parseCell(pg, pageTableLeaf, int(m.off))
	if err != nil {
		return 0, err
	}
	cols, err := parseRecordPrefix(pg[c.PayloadOff:c.PayloadOff+c.Local], c.PayloadSize)
	if err != nil || len(cols) != 4 {
		return 0, fmt.Errorf("record unreadable")
	}
	return uint64(cols[3].End - cols[3].Start), nil
}

// checkMetadata compares the metadata table's message counts with the
// rows.
func (s *Store) checkMetadata(add func(bag.Severity, int64, string, string, ...any)) {
	total, perTopic := metadataCounts(s.metadata)
	if total == 0 && s.total > 0 {
		add(bag.Warning, 0, "table metadata", "the metadata table counts 0 messages, the messages table holds %d: the metadata was written when the file was opened and not updated when it was closed", s.total)
		return
	}
	if total >= 0 && uint64(total) != s.total {
		add(bag.Warning, 0, "table metadata", "the metadata table counts %d messages, the messages table holds %d", total, s.total)
	}
	byTopic := map[string]uint64{}
	for _, c := range s.conns {
		byTopic[c.Topic] += s.counts[c.ID]
	}
	names := make([]string, 0, len(perTopic))
	for t := range perTopic {
		names = append(names, t)
	}
	sort.Strings(names)
	for _, t := range names {
		n := perTopic[t]
		got, ok := byTopic[t]
		if !ok {
			add(bag.Warning, 0, "table metadata", "the metadata table lists topic %s (%d messages), the topics table does not", t, n)
			continue
		}
		if got != n {
			add(bag.Warning, 0, "table metadata", "the metadata table counts %d messages on %s, the messages table holds %d", n, t, got)
		}
	}
}

// metadataCounts reads the total message_count and each topic's count
// from rosbag2 metadata YAML; total is -1 when absent.
func metadataCounts(text string) (int64, map[string]uint64) {
	total := int64(-1)
	per := map[string]uint64{}
	topic := ""
	topicIndent := -1
	inFiles := false
	for _, line := range strings.Split(text, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		indent := len(line) - len(trimmed)
		trimmed = strings.TrimPrefix(trimmed, "- ")
		key, val, ok := strings.Cut(trimmed, ":")
		if !ok {
			continue
		}
		val = strings.Trim(strings.TrimSpace(val), `"'`)
		switch key {
		case "files":
			inFiles = true
		case "topics_with_message_count":
			inFiles = false
		case "name":
			if !inFiles {
				topic, topicIndent = val, indent
			}
		case "message_count":
			n, err := strconv.ParseUint(val, 10, 64)
			if err != nil {
				continue
			}
			switch {
			case topic != "" && indent < topicIndent && !inFiles:
				per[topic] = n
				topic = ""
			case topic == "" && total < 0 && !inFiles:
				total = int64(n)
			}
		}
	}
	return total, per
}
