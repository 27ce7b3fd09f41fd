package bag

import (
	"context"
	"fmt"
	"strings"
	"sync"
)

// Several recordings shown in one window (issue 27) are read as one
// recording of several files (Combine): each added recording's topics
// carry a prefix ("B:/imu") and its times an offset, so that every view
// reads them as it reads any recording. Shift is that one recording seen
// through its prefix and offset.

// ShiftTime returns t moved by off nanoseconds; a time that would fall
// before the epoch is the epoch (Time has no negative times).
func ShiftTime(t Time, off int64) Time {
	if off == 0 {
		return t
	}
	n := t.Nanos() + off
	if n < 0 {
		n = 0
	}
	return TimeFromNanos(n)
}

// Shifted is a recording seen with a prefix before its topics and an
// offset added to its times (receive and publish times, the summary's,
// the blocks', the index's, the damage's). Connection IDs and locations
// are the recording's own. It answers the optional questions of the
// seam (records, damage, message times, the block index prefetch) for
// its recording, translated; it does not unwrap, so that nothing reads
// the recording's own times through it by mistake.
type Shifted struct {
	inner  Storage
	prefix string
	off    int64

	conns []*Connection
	byID  map[uint32]*Connection

	blocksOnce sync.Once
	blocks     []*Block
	blockSrc   map[*Block]*Block
}

var _ Storage = (*Shifted)(nil)

// Shift returns s with prefix before each topic and off nanoseconds added
// to each time. Closing it closes s.
func Shift(s Storage, prefix string, off int64) *Shifted {
	sh := &Shifted{inner: s, prefix: prefix, off: off, byID: map[uint32]*Connection{}}
	for _, c := range s.Connections() {
		cp := *c
		cp.Topic = prefix + c.Topic
		sh.conns = append(sh.conns, &cp)
		sh.byID[cp.ID] = &cp
	}
	return sh
}

// Inner returns the recording as it is.
func (s *Shifted) Inner() Storage { return s.inner }

// Prefix returns the prefix of its topics; Offset the nanoseconds added to
// its times.
func (s *Shifted) Prefix() string { return s.prefix }

// Offset returns the nanoseconds added to the recording's times.
func (s *Shifted) Offset() int64 { return s.off }

func (s *Shifted) shift(t Time) Time {
	if t.IsZero() {
		return t
	}
	return ShiftTime(t, s.off)
}

// FileInfo is the recording's.
func (s *Shifted) FileInfo() *FileInfo { return s.inner.FileInfo() }

// Connections lists the connections with their topics prefixed.
func (s *Shifted) Connections() []*Connection { return s.conns }

// Connection returns the connection with an ID, its topic prefixed.
func (s *Shifted) Connection(id uint32) *Connection { return s.byID[id] }

// Summary is the recording's, its times shifted and its topics prefixed.
func (s *Shifted) Summary() (*Summary, error) {
	in, err := s.inner.Summary()
	if in == nil {
		return nil, err
	}
	out := *in
	if in.Messages > 0 || !in.Start.IsZero() || !in.End.IsZero() {
		out.Start, out.End = s.shift(in.Start), s.shift(in.End)
	}
	out.Files = nil
	for _, f := range in.Files {
		f.Start, f.End = s.shift(f.Start), s.shift(f.End)
		out.Files = append(out.Files, f)
	}
	out.Topics, out.Types = nil, nil
	counts := make(map[uint32]uint64, len(in.ConnMessages))
	for id, n := range in.ConnMessages {
		counts[id] = n
	}
	out.AddTopics(s.conns, counts)
	return &out, err
}

// Blocks lists the recording's blocks, their times shifted.
func (s *Shifted) Blocks() []*Block {
	s.blocksOnce.Do(func() {
		s.blockSrc = map[*Block]*Block{}
		for _, b := range s.inner.Blocks() {
			cp := *b
			cp.Start, cp.End = s.shift(b.Start), s.shift(b.End)
			s.blocks = append(s.blocks, &cp)
			s.blockSrc[&cp] = b
		}
	})
	return s.blocks
}

// src returns the recording's own block of b.
func (s *Shifted) src(b *Block) *Block {
	s.Blocks()
	if in := s.blockSrc[b]; in != nil {
		return in
	}
	for _, in := range s.inner.Blocks() {
		if in.Offset == b.Offset {
			return in
		}
	}
	return b
}

// BlockIndex lists a block's messages, their times shifted.
func (s *Shifted) BlockIndex(b *Block) ([]IndexEntry, error) {
	entries, err := s.inner.BlockIndex(s.src(b))
	for i := range entries {
		entries[i].Time = s.shift(entries[i].Time)
	}
	return entries, err
}

// ReadMessage reads a message, its times shifted and its topic prefixed.
func (s *Shifted) ReadMessage(conn uint32, loc Loc) (*Message, error) {
	m, err := s.inner.ReadMessage(conn, loc)
	if m == nil {
		return nil, err
	}
	out := *m
	s.relabel(&out)
	return &out, err
}

func (s *Shifted) relabel(m *Message) {
	if m.Conn != nil {
		if c := s.byID[m.Conn.ID]; c != nil {
			m.Conn = c
		}
	}
	m.Time, m.PublishTime = s.shift(m.Time), s.shift(m.PublishTime)
}

// Messages iterates over the recording's messages that f selects, f's
// topics and times being the shifted ones.
func (s *Shifted) Messages(f MessageFilter) MessageIter {
	in, ok := s.filter(f)
	if !ok {
		return &shiftIter{}
	}
	return &shiftIter{s: s, it: s.inner.Messages(in)}
}

// filter translates f to the recording's own topics and times; ok is
// false when f selects none of its messages.
func (s *Shifted) filter(f MessageFilter) (MessageFilter, bool) {
	out := MessageFilter{Conns: f.Conns}
	for _, t := range f.Topics {
		if own, ok := strings.CutPrefix(t, s.prefix); ok {
			out.Topics = append(out.Topics, own)
		}
	}
	if len(f.Topics) > 0 && len(out.Topics) == 0 && len(f.Conns) == 0 {
		return out, false
	}
	back := func(t Time) (Time, bool) {
		n := t.Nanos() - s.off
		if n < 0 {
			return Time{}, false
		}
		return TimeFromNanos(n), true
	}
	if !f.Start.IsZero() {
		out.Start, _ = back(f.Start)
	}
	if !f.End.IsZero() {
		e, ok := back(f.End)
		if !ok {
			return out, false // ends before the recording's epoch
		}
		if e.IsZero() {
			e = Time{NSec: 1} // zero means no bound: the epoch itself is the smallest end
		}
		out.End = e
	}
	return out, true
}

// shiftIter is a recording's iterator with its messages shifted; with no
// inner iterator it selects nothing.
type shiftIter struct {
	s   *Shifted
	it  MessageIter
	msg Message
}

func (it *shiftIter) Next() bool {
	if it.it == nil || !it.it.Next() {
		return false
	}
	it.msg = *it.it.Message()
	it.s.relabel(&it.msg)
	return true
}

func (it *shiftIter) Message() *Message { return &it.msg }

func (it *shiftIter) Err() error {
	if it.it == nil {
		return nil
	}
	return it.it.Err()
}

func (it *shiftIter) Close() {
	if it.it != nil {
		it.it.Close()
	}
}

// Unwrap returns the recording's own iterator, for the questions it
// answers (Skipped, Suspects, LostMessages).
func (it *shiftIter) Unwrap() MessageIter { return it.it }

// Skipped lists what the read could not use.
func (it *shiftIter) Skipped() []ByteRange {
	if sk, ok := it.it.(interface{ Skipped() []ByteRange }); ok {
		return it.s.shiftRanges(sk.Skipped())
	}
	return nil
}

// Suspects counts the suspect messages read so far.
func (it *shiftIter) Suspects() uint64 {
	if sk, ok := it.it.(interface{ Suspects() uint64 }); ok {
		return sk.Suspects()
	}
	return 0
}

// LostMessages counts the messages the read knows it lost.
func (it *shiftIter) LostMessages() uint64 {
	if sk, ok := it.it.(interface{ LostMessages() uint64 }); ok {
		return sk.LostMessages()
	}
	return 0
}

func (s *Shifted) shiftRanges(rs []ByteRange) []ByteRange {
	if len(rs) == 0 {
		return rs
	}
	out := make([]ByteRange, len(rs))
	for i, r := range rs {
		r.First, r.Last = s.shift(r.First), s.shift(r.Last)
		if len(r.Topics) > 0 {
			ts := make([]string, len(r.Topics))
			for j, t := range r.Topics {
				ts[j] = s.prefix + t
			}
			r.Topics = ts
		}
		out[i] = r
	}
	return out
}

// Check is the recording's doctor.
func (s *Shifted) Check(ctx context.Context, progress func(done, total int64)) (*CheckReport, error) {
	return s.inner.Check(ctx, progress)
}

// Close closes the recording.
func (s *Shifted) Close() error { return s.inner.Close() }

// Damage is the recording's, its times shifted and its topics prefixed.
func (s *Shifted) Damage() *Damage {
	d := DamageOf(s.inner)
	if d == nil {
		return nil
	}
	out := *d
	out.Ranges = nil
	for _, r := range d.Ranges {
		r.ByteRange = s.shiftRanges([]ByteRange{r.ByteRange})[0]
		out.Ranges = append(out.Ranges, r)
	}
	if c := d.Claim; c != nil && len(c.Topics) > 0 {
		cp := *c
		cp.Topics = map[string]uint64{}
		for t, n := range c.Topics {
			cp.Topics[s.prefix+t] = n
		}
		out.Claim = &cp
	}
	out.ByTopic = nil
	for _, tl := range d.ByTopic {
		tl.Topic = s.prefix + tl.Topic
		out.ByTopic = append(out.ByTopic, tl)
	}
	return &out
}

var _ DamageReporter = (*Shifted)(nil)

// Unverified lists the bytes no checksum covers.
func (s *Shifted) Unverified() []ByteRange { return unverifiedOf(s.inner) }

// TopicClaim is what the recording claims of each topic, prefixed.
func (s *Shifted) TopicClaim() *Claim {
	c := TopicClaimOf(s.inner)
	if c == nil {
		return nil
	}
	cp := *c
	cp.Topics = map[string]uint64{}
	for t, n := range c.Topics {
		cp.Topics[s.prefix+t] = n
	}
	return &cp
}

// Where says where the message at loc lives, in the recording.
func (s *Shifted) Where(loc Loc) string { return Where(s.inner, loc) }

// MessageTimes lists the messages' times, shifted, where the recording
// lists them without their data; else from its messages.
func (s *Shifted) MessageTimes(ctx context.Context, fn func(conn uint32, t Time, loc Loc) bool) error {
	shifted := func(conn uint32, t Time, loc Loc) bool { return fn(conn, s.shift(t), loc) }
	if mt := MessageTimerOf(s.inner); mt != nil {
		return mt.MessageTimes(ctx, shifted)
	}
	return messageTimesOf(ctx, s.inner, shifted)
}

// PrefetchBlockIndexes fetches ahead what BlockIndex reads of blocks.
func (s *Shifted) PrefetchBlockIndexes(blocks []*Block) (release func(), covered int) {
	pf := IndexPrefetcherOf(s.inner)
	if pf == nil {
		return func() {}, len(blocks)
	}
	own := make([]*Block, len(blocks))
	for i, b := range blocks {
		own[i] = s.src(b)
	}
	return pf.PrefetchBlockIndexes(own)
}

func (s *Shifted) lister() (RecordLister, error) {
	if rl, ok := Underlying(s.inner).(RecordLister); ok {
		return rl, nil
	}
	return nil, fmt.Errorf("the records of a %s cannot be listed", s.inner.FileInfo().Format)
}

// Records lists the file's records as written (their own topics and
// times: they are the file's bytes).
func (s *Shifted) Records(ctx context.Context, from int64, fn func(*Record) bool) error {
	rl, err := s.lister()
	if err != nil {
		return err
	}
	return rl.Records(ctx, from, fn)
}

// BlockRecords lists the records inside a block.
func (s *Shifted) BlockRecords(block int64) ([]*Record, []byte, error) {
	rl, err := s.lister()
	if err != nil {
		return nil, nil, err
	}
	return rl.BlockRecords(block)
}

// ReadRange reads file bytes.
func (s *Shifted) ReadRange(off int64, n int) ([]byte, error) {
	rl, err := s.lister()
	if err != nil {
		return nil, err
	}
	return rl.ReadRange(off, n)
}

// IndexRecords returns the offsets of the records that index a block.
func (s *Shifted) IndexRecords(block int64) ([]int64, bool) {
	rl, err := s.lister()
	if err != nil {
		return nil, false
	}
	il, ok := rl.(BlockIndexLister)
	if !ok {
		return nil, false
	}
	return il.IndexRecords(block)
}
