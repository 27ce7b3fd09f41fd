package ros1

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"runtime"
	"sort"
	"sync"

	"github.com/bagscope/bagscope/bag"
)

func init() {
	bag.RegisterFormat(bag.Format{
		Name:       "ROS 1 bag",
		Magic:      []byte(Magic),
		Extensions: []string{".bag", ".bag.active"},
		Write: func(out io.WriteSeeker, src bag.Storage, compression string) (*bag.RepairReport, error) {
			return WriteFrom(out, src, WriterOptions{Compression: compression, ChunkThreshold: DefaultChunkThreshold})
		},
		Open: func(r io.ReaderAt, size int64, path string) (bag.Storage, error) {
			b, err := NewReaderOrScan(r, size)
			if err != nil {
				return nil, err
			}
			b.path = path
			return NewStore(b), nil
		},
		NeedsScan: func(r io.ReaderAt, size int64, _ string) error {
			// NewReader reads the header and the index section only.
			if _, err := NewReader(r, size); err != nil && scannable(err) {
				return err
			}
			return nil
		},
		Check: func(ctx context.Context, r io.ReaderAt, size int64, progress func(done, total int64)) (*bag.CheckReport, error) {
			rep, err := CheckContext(ctx, r, size, progress)
			if err != nil {
				return nil, err
			}
			return SeamReport(rep), nil
		},
	})
}

// Store is a ROS 1 bag behind the storage seam. Bag is the bag itself, for
// what only ROS 1 has (its records, chunk infos and scan report).
type Store struct {
	Bag *Bag
	// ChunkSize is the uncompressed chunk size Repair writes.
	ChunkSize int

	conns []*bag.Connection
	byID  map[uint32]*bag.Connection
	// dense holds byID's connections of small IDs by ID (the usual ones):
	// a read looks one up per message, and the map access was 1.1% of
	// verify's CPU on the bench's mixed.bag (perf).
	dense []*bag.Connection

	blocksOnce sync.Once
	blocks     []*bag.Block

	mu   sync.Mutex
	last struct {
		pos     int64
		data    []byte
		suspect string // ChunkSuspect of the chunk
	}
}

var (
	_ bag.Storage  = (*Store)(nil)
	_ bag.Repairer = (*Store)(nil)
)

// NewStore puts an opened bag behind the seam.
func NewStore(b *Bag) *Store {
	s := &Store{Bag: b, ChunkSize: DefaultChunkThreshold, byID: map[uint32]*bag.Connection{}}
	for _, c := range b.Connections {
		sc := SeamConnection(c)
		s.conns = append(s.conns, sc)
		s.byID[c.ID] = sc
		if c.ID < 1<<12 {
			if int(c.ID) >= len(s.dense) {
				s.dense = append(s.dense, make([]*bag.Connection, int(c.ID)+1-len(s.dense))...)
			}
			s.dense[c.ID] = sc
		}
	}
	s.last.pos = -1
	return s
}

// SeamConnection describes a ROS 1 connection in the seam's terms.
func SeamConnection(c *Connection) *bag.Connection {
	md := map[string]string{}
	for _, f := range c.Fields {
		switch f.Name {
		case "topic", "type", "md5sum", "message_definition":
		default:
			md[f.Name] = string(f.Value)
		}
	}
	return &bag.Connection{
		ID: c.ID, Topic: c.Topic, Type: c.Type,
		Encoding: "ros1", SchemaEncoding: "ros1msg",
		Definition: c.MessageDefinition, MD5Sum: c.MD5Sum,
		CallerID: c.CallerID, Latching: c.Latching,
		Metadata: md, Offset: c.Offset,
	}
}

// FileInfo says what the file is and how it was read.
func (s *Store) FileInfo() *bag.FileInfo {
	b := s.Bag
	fi := &bag.FileInfo{Format: "ROS 1 bag", Version: b.Version, Profile: "ros1", Path: b.path, Size: b.size, Indexed: b.Scan == nil, Warnings: b.Warnings}
	if r := b.Scan; r != nil {
		si := &bag.ScanInfo{Reason: r.Reason, ParsedTo: r.ParsedTo, Skipped: r.Skipped, LostMessages: r.LostMessages}
		si.Notes = append(si.Notes, fmt.Sprintf("%d closed chunks", r.ClosedChunks))
		if o := r.Open; o != nil {
			state := "open"
			if o.Cut {
				state = "cut"
			}
			si.Notes = append(si.Notes, fmt.Sprintf("%s %s chunk at %d: %d messages salvaged (%d bytes), %d bytes after them lost", state, o.Compression, o.Pos, o.Messages, o.Salvaged, o.LostBytes))
		}
		for _, n := range r.Notes {
			si.Notes = append(si.Notes, n.Error())
		}
		fi.Scanned = si
	}
	return fi
}

// Connections lists the bag's connections by ID.
func (s *Store) Connections() []*bag.Connection { return s.conns }

// Connection returns the connection with an ID, or nil.
func (s *Store) Connection(id uint32) *bag.Connection { return s.byID[id] }

// Summary describes the bag as rosbag info does.
func (s *Store) Summary() (*bag.Summary, error) {
	rs, err := s.Bag.Summary()
	out := &bag.Summary{
		Path: rs.Path, Format: "ROS 1 bag", Version: rs.Version, Size: rs.Size, Indexed: rs.Indexed,
		Start: rs.Start, End: rs.End, Messages: rs.Messages, Chunks: rs.Chunks,
		Compression: rs.Compression, CompressedBytes: rs.CompressedBytes, UncompressedBytes: rs.UncompressedBytes,
	}
	out.AddTopics(s.conns, s.Bag.ConnectionCounts())
	return out, err
}

// Blocks lists the bag's chunks in file order.
func (s *Store) Blocks() []*bag.Block {
	s.blocksOnce.Do(func() {
		for _, ci := range s.Bag.ChunkInfos {
			blk := &bag.Block{Offset: ci.ChunkPos, Start: ci.Start, End: ci.End, Counts: map[uint32]uint64{}}
			for _, cc := range ci.Conns {
				blk.Counts[cc.Conn] += uint64(cc.Count)
			}
			if ch, err := s.Bag.ChunkHeader(ci); err != nil {
				blk.Damaged, blk.Err = true, err
			} else {
				blk.Len = ch.Pos.Size()
				blk.Compression = ch.Compression
				blk.CompressedSize = uint64(ch.DataLen)
				blk.UncompressedSize = uint64(ch.Size)
				if ch.Open {
					blk.Damaged, blk.Err = true, errOpenChunk
				}
			}
			s.blocks = append(s.blocks, blk)
		}
	})
	return s.blocks
}

// errOpenChunk is why a chunk that a scan salvaged is damaged: the
// recorder never closed it, so its end and message count are a guess.
var errOpenChunk = errors.New("salvaged from a chunk that was never closed")

// chunkInfo returns the chunk info of the chunk at pos.
func (s *Store) chunkInfo(pos int64) *ChunkInfo {
	cis := s.Bag.ChunkInfos
	i := sort.Search(len(cis), func(i int) bool { return cis[i].ChunkPos >= pos })
	if i < len(cis) && cis[i].ChunkPos == pos {
		return cis[i]
	}
	for _, ci := range cis { // chunk infos are not always in file order
		if ci.ChunkPos == pos {
			return ci
		}
	}
	return nil
}

// BlockIndex lists a chunk's messages from the index data records after it.
func (s *Store) BlockIndex(blk *bag.Block) ([]bag.IndexEntry, error) {
	ci := s.chunkInfo(blk.Offset)
	if ci == nil {
		return nil, fmt.Errorf("offset %d: no chunk info names a chunk there", blk.Offset)
	}
	idx, err := s.Bag.ChunkIndex(ci)
	n := 0
	for _, d := range idx {
		n += len(d.Entries)
	}
	// Sized once: a 5M-message bag's index build allocated twice its
	// entries in outgrown arrays.
	out := make([]bag.IndexEntry, 0, n)
	for _, d := range idx {
		for _, e := range d.Entries {
			out = append(out, bag.IndexEntry{Time: e.Time, Conn: d.Conn, Loc: bag.Loc{Block: ci.ChunkPos, Offset: e.Offset}})
		}
	}
	return out, err
}

// Messages iterates over messages in receive-time order.
func (s *Store) Messages(f bag.MessageFilter) bag.MessageIter {
	s.Bag.preScanRead(f)
	it := s.Bag.Messages(MessageFilter{Topics: f.Topics, Conns: f.Conns, Start: f.Start, End: f.End})
	return &storeIter{it: it, s: s}
}

// PreparedMessages is Messages with prep run on the workers that load the
// chunks, on each selected message as the seam gives it, before the merge
// in time order (bag.Preparer). What prep makes of a chunk is held with
// it and counts against ChunkBudget once merged; a prepared read keeps one
// chunk per core ahead, as what is prepared can be several times a chunk.
func (s *Store) PreparedMessages(f bag.MessageFilter, prep bag.Prepare) bag.PreparedIter {
	s.Bag.preScanRead(f)
	it := s.Bag.Messages(MessageFilter{Topics: f.Topics, Conns: f.Conns, Start: f.Start, End: f.End})
	it.ahead = min(it.ahead, runtime.GOMAXPROCS(0))
	it.q.prep = func(m *Message, dst []byte) ([]byte, bool) {
		bm := s.seamMessage(m)
		return prep(&bm, dst)
	}
	return &storeIter{it: it, s: s}
}

// conn returns byID[id].
func (s *Store) conn(id uint32) *bag.Connection {
	if id < uint32(len(s.dense)) {
		return s.dense[id]
	}
	return s.byID[id]
}

// seamMessage is m as the seam gives it.
func (s *Store) seamMessage(m *Message) bag.Message {
	return bag.Message{
		Conn: s.conn(m.Conn.ID), Time: m.Time, PublishTime: m.Time, Data: m.Data,
		Loc: bag.Loc{Block: m.ChunkPos, Offset: m.Offset}, DataOffset: int64(m.DataOffset),
		Suspect: m.Suspect,
	}
}

// Prepared returns what a prepared read's prep made of the current
// message (bag.PreparedIter).
func (i *storeIter) Prepared() ([]byte, bool) { return i.it.prepOut, i.it.prepOK }

// storeIter turns the bag's messages into the seam's.
type storeIter struct {
	it  *MessageIter
	s   *Store
	msg bag.Message
}

func (i *storeIter) Next() bool {
	if !i.it.Next() {
		return false
	}
	i.msg = i.s.seamMessage(i.it.Message())
	return true
}

func (i *storeIter) Message() *bag.Message { return &i.msg }
func (i *storeIter) Err() error            { return i.it.Err() }
func (i *storeIter) Close()                { i.it.Close() }

// Skipped lists the byte ranges whose messages could not be read so far.
func (i *storeIter) Skipped() []bag.ByteRange { return i.it.Skipped() }

// LostMessages counts the selected messages the index knows of that could
// not be read so far.
func (i *storeIter) LostMessages() uint64 { return i.it.LostMessages() }

// Suspects counts the suspect messages given so far.
func (i *storeIter) Suspects() uint64 { return i.it.Suspects() }

// Iter returns the bag's own iterator behind a seam iterator made by Store,
// for callers that need what only ROS 1 gives (OnChunk), or nil.
func Iter(it bag.MessageIter) *MessageIter {
	for {
		switch i := it.(type) {
		case *storeIter:
			return i.it
		case interface{ Unwrap() bag.MessageIter }:
			it = i.Unwrap()
		default:
			return nil
		}
	}
}

// ReadMessage reads the message data record at loc.Offset in the chunk at
// loc.Block. The last chunk read is kept, so stepping through one chunk
// decompresses it once.
func (s *Store) ReadMessage(conn uint32, loc bag.Loc) (*bag.Message, error) {
	data, suspect, err := s.chunkData(loc.Block)
	if err != nil {
		return nil, err
	}
	if int64(loc.Offset) >= int64(len(data)) {
		return nil, errAt(loc.Block, OpChunk, ErrMalformed, "message at %d is past the chunk's %d bytes", loc.Offset, len(data))
	}
	w := NewChunkWalker(data[loc.Offset:], loc.Block)
	if !w.Next() {
		err := w.Err()
		if err == nil {
			err = errors.New("no record")
		}
		return nil, fmt.Errorf("message at %d of chunk at %d: %w", loc.Offset, loc.Block, err)
	}
	rec := *w.Record()
	md, err := parseMessageData(rec)
	if err != nil {
		return nil, fmt.Errorf("message at %d of chunk at %d: %w", loc.Offset, loc.Block, err)
	}
	c := s.byID[md.Conn]
	if c == nil {
		return nil, fmt.Errorf("message at %d of chunk at %d: unknown connection %d", loc.Offset, loc.Block, md.Conn)
	}
	return &bag.Message{
		Conn: c, Time: md.Time, PublishTime: md.Time, Data: w.Data(),
		Loc: loc, DataOffset: int64(loc.Offset) + rec.DataOffset, Suspect: suspect,
	}, nil
}

// chunkData returns the uncompressed data of the chunk at pos and the mark
// its messages carry (ChunkSuspect), keeping the last chunk read.
func (s *Store) chunkData(pos int64) ([]byte, string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.last.data != nil && s.last.pos == pos {
		return s.last.data, s.last.suspect, nil
	}
	ch, err := s.Bag.ChunkAt(pos)
	if err != nil {
		return nil, "", err
	}
	data, err := s.Bag.ReadChunkData(ch, nil) // fresh: messages alias it
	if err != nil {
		return nil, "", err
	}
	suspect, err := s.Bag.ChunkSuspect(pos, data)
	if err != nil {
		return nil, "", err
	}
	s.last.pos, s.last.data, s.last.suspect = pos, data, suspect
	return data, suspect, nil
}

// Check runs the doctor on the bag's file.
func (s *Store) Check(ctx context.Context, progress func(done, total int64)) (*bag.CheckReport, error) {
	var visit chunkVisit
	if fn := bag.MessageVisitorOf(ctx); fn != nil {
		visit = func(ch *Chunk, data []byte, vouch bool) (bool, *chunkVouch) { return s.visitChunk(ch, data, fn, vouch) }
	}
	r, err := checkVouched(ctx, s.Bag.r, s.Bag.size, progress, visit, s.Bag.taken(), s.Bag.takePreScan())
	if err != nil {
		return nil, err
	}
	rep := SeamReport(r)
	rep.Visited = visit != nil && r.visited
	return rep, nil
}

// VouchReads asks the bag to keep what its reads find of the chunks they
// decompress, so that a quick Check after them does not decompress them
// again (bag.ReadVoucher).
func (s *Store) VouchReads() { s.Bag.VouchReads() }

// DoctorVisits says that Check hands the messages to the visitor of its
// context (bag.WithMessageVisitor), chunk by chunk on the goroutines that
// decompress them.
func (s *Store) DoctorVisits() bool { return true }

// visitChunk hands fn every message of a chunk's data as ReadMessage
// reads it. visited is false, and fn is handed none of the rest of the
// chunk, from a record it cannot read as ReadMessage would for certain (a
// malformed or unusual header: the caller then reads the messages apart)
// or a message of an unknown connection. With vouch, it returns the
// chunk's vouch too (walkVouch's), made from the same walk of the record
// headers: the doctor's quick check with a visitor (find) walks each chunk
// once.
func (s *Store) visitChunk(ch *Chunk, data []byte, fn func(m *bag.Message), vouch bool) (visited bool, cv *chunkVouch) {
	var vb *vouchBuilder // the vouch while walkVouchFast would go on
	if vouch {
		vb = newVouchBuilder(ch)
	}
	visited = true
	var m bag.Message
	var conns chunkConns[*bag.Connection]
	for off := 0; off < len(data) && (visited || vb != nil); {
		dstart, end, ok := recordAt(data, off)
		if !ok {
			visited, vb = false, nil
			break
		}
		op, conn, t, _, _, _, plain := scanHeaderPlain(data[off+4 : dstart-4])
		if !plain {
			visited, vb = false, nil
			break
		}
		if visited && op == OpMessageData {
			c, ok := conns.find(conn)
			if !ok {
				c = s.byID[conn]
				conns.keep(conn, c)
			}
			if c != nil && off <= math.MaxUint32 {
				m = bag.Message{Conn: c, Time: t, PublishTime: t, Data: data[dstart:end],
					Loc: bag.Loc{Block: ch.Offset, Offset: uint32(off)}, DataOffset: int64(dstart)}
				fn(&m)
			} else {
				visited = false
			}
		}
		if vb != nil && !vb.record(data, off, dstart, end, op, conn, t) {
			vb = nil
		}
		off = end
	}
	switch {
	case vb != nil:
		cv = vb.done()
	case vouch:
		cv = walkVouchSlow(ch, data)
	}
	return visited, cv
}

// SeamReport puts a ROS 1 check report in the seam's terms.
func SeamReport(r *CheckReport) *bag.CheckReport {
	out := &bag.CheckReport{Indexed: r.Indexed, Messages: r.Messages, Bytes: r.Bytes, Counts: r.Counts, Ordered: !r.Backwards, Undecoded: r.Undecoded}
	for _, f := range r.Findings {
		rec := ""
		if f.Op != 0 {
			rec = f.Op.String()
		}
		out.Findings = append(out.Findings, bag.Finding{Severity: bag.Severity(f.Severity), Offset: f.Offset, Record: rec, Op: uint8(f.Op), Message: f.Message})
	}
	return out
}

// Repair writes an indexed copy of the bag with every message that can be
// read.
func (s *Store) Repair(out io.WriteSeeker, compression string) (*bag.RepairReport, error) {
	return Repair(s.Bag, out, compression, s.ChunkSize)
}

// ChecksPayloads reports that the ROS 1 doctor decodes every message
// itself (unless asked for a quick check).
func (s *Store) ChecksPayloads() bool { return true }

// SetChunkSize sets the uncompressed chunk size Repair writes.
func (s *Store) SetChunkSize(n int) { s.ChunkSize = n }

// Close closes the bag.
func (s *Store) Close() error { return s.Bag.Close() }

// Unverified lists the chunks no checksum covers: the format keeps none,
// so an uncompressed chunk's records are read as they are (bz2 and lz4
// frames check their own data).
func (s *Store) Unverified() []bag.ByteRange {
	var out []bag.ByteRange
	for _, ci := range s.Bag.ChunkInfos {
		ch, err := s.Bag.ChunkHeader(ci)
		if err != nil || ch.Compression != CompressionNone {
			continue
		}
		if n := len(out); n > 0 && out[n-1].End == ch.Offset {
			out[n-1].End = ch.End()
			continue
		}
		out = append(out, bag.ByteRange{Start: ch.Offset, End: ch.End(), Why: "uncompressed chunks: the ROS 1 bag format keeps no checksum"})
	}
	return out
}

// TopicClaim is what the bag's index claims of each topic: its chunk
// infos' message counts per connection, written when the bag was closed
// (bag.TopicClaimer). nil for a bag opened by a scan: its counts are what
// the scan found, not a claim.
func (s *Store) TopicClaim() *bag.Claim {
	if s.Bag.Scan != nil || len(s.Bag.ChunkInfos) == 0 {
		return nil
	}
	c := &bag.Claim{By: "the index", Topics: map[string]uint64{}}
	for _, ci := range s.Bag.ChunkInfos {
		for _, cc := range ci.Conns {
			conn := s.byID[cc.Conn]
			if conn == nil {
				return nil // a count of a connection the bag does not define
			}
			c.Topics[conn.Topic] += uint64(cc.Count)
			c.Messages += uint64(cc.Count)
		}
	}
	return c
}
