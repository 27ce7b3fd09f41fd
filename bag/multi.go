package bag

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"
)

// A recording of several files (a rosbag2 folder split by size or time, a
// ROS 1 recording made with `rosbag record --split`) is read through Multi:
// one Storage over the files' own storages, its parts.
//
// Locations carry the part: a Loc's Block (and a Block's Offset) is the
// part's own value plus part<<PartShift, so part 0's values are unchanged
// and a part's own values must lie in [-2^47, 2^47) (file offsets below
// 128 TiB, .db3 row ids below 2^79). JoinPart and SplitPart convert. A
// Connection's ID is the recording's: the same topic, type, encoding and
// caller across files is one connection.

// PartShift is the bit position of the part index in a location's Block
// and a block's Offset in a recording of several files.
const PartShift = 48

// MaxParts is the number of files a recording of several files may have.
const MaxParts = 1<<15 - 1

// JoinPart returns a part's own block value v (a Loc's Block, a Block's
// Offset) as the recording's.
func JoinPart(part int, v int64) int64 { return v + int64(part)<<PartShift }

// SplitPart returns the part and the part's own value of a recording's
// block value.
func SplitPart(v int64) (part int, own int64) {
	p := (v + 1<<(PartShift-1)) >> PartShift
	return int(p), v - p<<PartShift
}

// MultiOptions describes a recording of several files for Multi.
type MultiOptions struct {
	// Path is the recording's path: its folder, or its first file.
	Path string
	// Format and Version say what the recording is ("rosbag2 folder",
	// "metadata.yaml version 5"); "" takes the first part's.
	Format, Version string
	// Names are the parts' paths as the user knows them (a .db3.zstd
	// rather than its decompressed copy in the cache); "" or missing takes
	// the part's FileInfo().Path.
	Names []string
	// Warnings are problems with the recording as a whole (metadata that
	// disagrees with the files, files missing); FileInfo lists them and
	// Check reports them.
	Warnings []error
	// Errors are problems that lose messages (files missing, files that
	// do not open): FileInfo lists them with the warnings, first, and
	// Check reports them as errors.
	Errors []error
	// OnClose, when set, is called by Close after the parts are closed.
	OnClose func() error
	// Missing lists the files the recording names but lacks (see
	// Damage); files that do not open are LeftOutErrors in Errors.
	Missing []MissingFile
	// Claim is what the recording says it holds (its metadata.yaml),
	// PartClaims what it says each part holds (nil where it does not
	// say), by part.
	Claim      *Claim
	PartClaims []*Claim
}

// MultiStorage is a recording of several files read as one. It implements
// Storage, and RecordLister for files whose format lists records (offsets
// carrying the file's index, as locations do); with a single part it also
// unwraps to that part (see Underlying), since its IDs and locations are
// then the part's own.
type MultiStorage struct {
	parts []Storage
	opts  MultiOptions
	names []string

	conns []*Connection
	byID  map[uint32]*Connection
	// toPart[p] maps the recording's connection IDs to part p's;
	// fromPart[p] maps part p's to the recording's.
	toPart, fromPart []map[uint32]uint32
	conflicts        []error

	sumOnce sync.Once
	sums    []*Summary
	sumErrs []error

	blocksOnce sync.Once
	blocks     []*Block
	blockSrc   map[*Block]*Block // the recording's block -> the part's
}

var _ Storage = (*MultiStorage)(nil)

// singlePart is a MultiStorage of one part: it unwraps to the part.
type singlePart struct{ *MultiStorage }

// Unwrap returns the only part.
func (s singlePart) Unwrap() Storage { return s.parts[0] }

// Multi reads parts, the files of one recording in file order, as one
// Storage. Closing it closes the parts. It panics with more than MaxParts
// parts.
func Multi(parts []Storage, o MultiOptions) Storage {
	m := NewMulti(parts, o)
	if len(parts) == 1 {
		return singlePart{m}
	}
	return m
}

// NewMulti is Multi returning the MultiStorage itself, which never unwraps.
func NewMulti(parts []Storage, o MultiOptions) *MultiStorage {
	if len(parts) > MaxParts {
		panic(fmt.Sprintf("bag.Multi: %d files, at most %d", len(parts), MaxParts))
	}
	m := &MultiStorage{parts: parts, opts: o, byID: map[uint32]*Connection{}}
	for i, p := range parts {
		name := ""
		if i < len(o.Names) {
			name = o.Names[i]
		}
		if name == "" {
			name = p.FileInfo().Path
		}
		if name == "" {
			name = fmt.Sprintf("file %d", i)
		}
		m.names = append(m.names, name)
	}
	m.mergeConnections()
	return m
}

// AsMulti returns the MultiStorage behind s, or nil when s is not a
// recording read through Multi.
func AsMulti(s Storage) *MultiStorage {
	for {
		switch v := s.(type) {
		case *MultiStorage:
			return v
		case singlePart:
			return v.MultiStorage
		case interface{ Unwrap() Storage }:
			s = v.Unwrap()
		default:
			return nil
		}
	}
}

type connKey struct{ topic, typ, enc, caller string }

// mergeConnections gives the parts' connections the recording's IDs: a
// part's connection takes the first connection of the same topic, type,
// encoding and caller that no other connection of the part took, else a
// new one. A new connection keeps the part's ID when it is free, so the
// first part's IDs are kept.
func (m *MultiStorage) mergeConnections() {
	byKey := map[connKey][]*Connection{}
	var next uint32
	typesOf := map[string]string{}
	for p, part := range m.parts {
		to, from := map[uint32]uint32{}, map[uint32]uint32{}
		claimed := map[uint32]bool{}
		for _, c := range part.Connections() {
			k := connKey{c.Topic, c.Type, c.Encoding, c.CallerID}
			var mc *Connection
			for _, cand := range byKey[k] {
				if !claimed[cand.ID] {
					mc = cand
					break
				}
			}
			if mc == nil {
				cp := *c
				if _, taken := m.byID[c.ID]; taken {
					cp.ID = next
				}
				mc = &cp
				m.byID[mc.ID] = mc
				m.conns = append(m.conns, mc)
				byKey[k] = append(byKey[k], mc)
				if t, ok := typesOf[c.Topic]; ok && t != c.Type {
					m.conflicts = append(m.conflicts, fmt.Errorf("%s: topic %s has type %s here, %s in an earlier file", Base(m.names[p]), c.Topic, c.Type, t))
				} else if !ok {
					typesOf[c.Topic] = c.Type
				}
			}
			if mc.ID >= next {
				next = mc.ID + 1
			}
			claimed[mc.ID] = true
			to[mc.ID], from[c.ID] = c.ID, mc.ID
		}
		m.toPart = append(m.toPart, to)
		m.fromPart = append(m.fromPart, from)
	}
	sort.Slice(m.conns, func(i, j int) bool { return m.conns[i].ID < m.conns[j].ID })
}

// Parts returns the recording's files' storages, in file order.
func (m *MultiStorage) Parts() []Storage { return m.parts }

// Names returns the parts' paths as the user knows them.
func (m *MultiStorage) Names() []string { return m.names }

// PartConn returns part p's ID of the recording's connection id, and
// whether the part has it.
func (m *MultiStorage) PartConn(p int, id uint32) (uint32, bool) {
	if p < 0 || p >= len(m.parts) {
		return 0, false
	}
	v, ok := m.toPart[p][id]
	return v, ok
}

// RecordingConn returns the recording's ID of part p's connection id.
func (m *MultiStorage) RecordingConn(p int, id uint32) (uint32, bool) {
	if p < 0 || p >= len(m.parts) {
		return 0, false
	}
	v, ok := m.fromPart[p][id]
	return v, ok
}

// PartLoc returns the part holding the message at the recording's loc,
// and its location in that part.
func (m *MultiStorage) PartLoc(loc Loc) (int, Loc) {
	p, b := SplitPart(loc.Block)
	return p, Loc{Block: b, Offset: loc.Offset}
}

func (m *MultiStorage) part(p int) (Storage, error) {
	if p < 0 || p >= len(m.parts) {
		return nil, fmt.Errorf("the recording has %d files; there is no file %d", len(m.parts), p)
	}
	return m.parts[p], nil
}

func (m *MultiStorage) base(p int) string { return Base(m.names[p]) }

// FileInfo describes the recording: its files' formats, total size, how
// they were read, and each file's own FileInfo in Files.
func (m *MultiStorage) FileInfo() *FileInfo {
	fi := &FileInfo{Format: m.opts.Format, Version: m.opts.Version, Path: m.opts.Path, Indexed: true}
	fi.Warnings = append(fi.Warnings, m.opts.Errors...)
	fi.Warnings = append(fi.Warnings, m.opts.Warnings...)
	fi.Warnings = append(fi.Warnings, m.conflicts...)
	var scan *ScanInfo
	for p, part := range m.parts {
		pi := *part.FileInfo()
		pi.Path = m.names[p]
		if p == 0 {
			if fi.Format == "" {
				fi.Format = pi.Format
			}
			if fi.Version == "" {
				fi.Version = pi.Version
			}
			fi.Profile = pi.Profile
		} else if fi.Profile != pi.Profile {
			fi.Profile = ""
		}
		fi.Size += pi.Size
		fi.Indexed = fi.Indexed && pi.Indexed
		for _, w := range pi.Warnings {
			fi.Warnings = append(fi.Warnings, fmt.Errorf("%s: %w", m.base(p), w))
		}
		if si := pi.Scanned; si != nil {
			if scan == nil {
				scan = &ScanInfo{}
			}
			scan.Reason = errors.Join(scan.Reason, fmt.Errorf("%s: %w", m.base(p), si.Reason))
			// Each file's offset against its own size: a folder's
			// offsets are not one file's.
			scan.Files = append(scan.Files, ScannedFile{File: m.base(p), ParsedTo: si.ParsedTo, Size: pi.Size})
			for _, r := range si.Skipped {
				r.Why = m.base(p) + ": " + r.Why
				scan.Skipped = append(scan.Skipped, r)
			}
			scan.LostMessages += si.LostMessages
			for _, n := range si.Notes {
				scan.Notes = append(scan.Notes, m.base(p)+": "+n)
			}
		}
		fi.Files = append(fi.Files, &pi)
	}
	fi.Scanned = scan
	if fi.Path == "" && len(m.names) > 0 {
		fi.Path = m.names[0]
	}
	return fi
}

// Connections lists the recording's connections by ID.
func (m *MultiStorage) Connections() []*Connection { return m.conns }

// Connection returns the recording's connection with an ID, or nil.
func (m *MultiStorage) Connection(id uint32) *Connection { return m.byID[id] }

func (m *MultiStorage) partSummaries() ([]*Summary, []error) {
	m.sumOnce.Do(func() {
		m.sums = make([]*Summary, len(m.parts))
		m.sumErrs = make([]error, len(m.parts))
		for p, part := range m.parts {
			m.sums[p], m.sumErrs[p] = part.Summary()
		}
	})
	return m.sums, m.sumErrs
}

// Summary adds up the files' summaries: counts, times, chunks and their
// compression, with each file in Files.
func (m *MultiStorage) Summary() (*Summary, error) {
	sums, errs := m.partSummaries()
	fi := m.FileInfo()
	out := &Summary{
		Path: fi.Path, Format: fi.Format, Version: fi.Version, Size: fi.Size, Indexed: fi.Indexed,
		Compression: map[string]int{},
	}
	counts := map[uint32]uint64{}
	var err error
	first := true
	for p, s := range sums {
		if errs[p] != nil {
			err = errors.Join(err, fmt.Errorf("%s: %w", m.base(p), errs[p]))
		}
		if s == nil {
			out.Files = append(out.Files, FileSummary{Path: m.names[p]})
			continue
		}
		out.Files = append(out.Files, FileSummary{Path: m.names[p], Format: s.Format, Size: s.Size, Start: s.Start, End: s.End, Messages: s.Messages, Chunks: s.Chunks})
		if s.Messages > 0 || !s.Start.IsZero() || !s.End.IsZero() {
			if first || s.Start.Before(out.Start) {
				out.Start = s.Start
			}
			if first || out.End.Before(s.End) {
				out.End = s.End
			}
			first = false
		}
		out.Messages += s.Messages
		out.Chunks += s.Chunks
		for k, v := range s.Compression {
			out.Compression[k] += v
		}
		out.CompressedBytes += s.CompressedBytes
		out.UncompressedBytes += s.UncompressedBytes
		for id, n := range s.ConnMessages {
			if rid, ok := m.fromPart[p][id]; ok {
				counts[rid] += n
			}
		}
	}
	out.AddTopics(m.conns, counts)
	return out, err
}

// Blocks lists each file's chunks in file order, Block.File naming the
// file; a file without chunks (a .db3) is one block of its own, with
// WholeFile set, when the recording has several files.
func (m *MultiStorage) Blocks() []*Block {
	m.blocksOnce.Do(func() {
		m.blockSrc = map[*Block]*Block{}
		sums, _ := m.partSummaries()
		for p, part := range m.parts {
			pbs := part.Blocks()
			if len(pbs) == 0 && len(m.parts) > 1 {
				fi := part.FileInfo()
				b := &Block{Offset: JoinPart(p, 0), Len: fi.Size, File: p, WholeFile: true, Counts: map[uint32]uint64{}}
				if s := sums[p]; s != nil {
					b.Start, b.End = s.Start, s.End
					for id, n := range s.ConnMessages {
						if rid, ok := m.fromPart[p][id]; ok {
							b.Counts[rid] += n
						}
					}
				}
				b.Damaged = fi.Scanned != nil
				if b.Damaged {
					b.Err = fi.Scanned.Reason
				}
				m.blocks = append(m.blocks, b)
				continue
			}
			for _, pb := range pbs {
				b := *pb
				b.Offset = JoinPart(p, pb.Offset)
				b.File = p
				b.Counts = make(map[uint32]uint64, len(pb.Counts))
				for id, n := range pb.Counts {
					if rid, ok := m.fromPart[p][id]; ok {
						b.Counts[rid] += n
					} else {
						b.Counts[id] += n
					}
				}
				m.blocks = append(m.blocks, &b)
				m.blockSrc[&b] = pb
			}
		}
	})
	return m.blocks
}

// BlockIndex lists a block's messages with the recording's connection IDs
// and locations. A WholeFile block's index is read from the file's
// messages.
func (m *MultiStorage) BlockIndex(b *Block) ([]IndexEntry, error) {
	m.Blocks()
	p, own := SplitPart(b.Offset)
	part, err := m.part(p)
	if err != nil {
		return nil, err
	}
	if b.WholeFile {
		return m.wholeFileIndex(p, part)
	}
	pb := m.blockSrc[b]
	if pb == nil {
		for _, cand := range part.Blocks() {
			if cand.Offset == own {
				pb = cand
				break
			}
		}
		if pb == nil {
			return nil, fmt.Errorf("%s: offset %d: no block there", m.base(p), own)
		}
	}
	entries, err := part.BlockIndex(pb)
	for i := range entries {
		if rid, ok := m.fromPart[p][entries[i].Conn]; ok {
			entries[i].Conn = rid
		}
		entries[i].Loc.Block = JoinPart(p, entries[i].Loc.Block)
	}
	if err != nil {
		err = fmt.Errorf("%s: %w", m.base(p), err)
	}
	return entries, err
}

// ReadMessage reads the message of the recording's connection conn at the
// recording's loc from the file that holds it.
func (m *MultiStorage) ReadMessage(conn uint32, loc Loc) (*Message, error) {
	p, own := m.PartLoc(loc)
	part, err := m.part(p)
	if err != nil {
		return nil, err
	}
	pc, ok := m.toPart[p][conn]
	if !ok {
		pc = conn // let the part say what is wrong
	}
	msg, err := part.ReadMessage(pc, own)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.base(p), err)
	}
	out := *msg
	m.relabel(p, &out)
	return &out, nil
}

// relabel gives a part's message the recording's connection and location.
func (m *MultiStorage) relabel(p int, msg *Message) {
	if msg.Conn != nil {
		if rid, ok := m.fromPart[p][msg.Conn.ID]; ok {
			msg.Conn = m.byID[rid]
		}
	}
	msg.Loc.Block = JoinPart(p, msg.Loc.Block)
}

// Messages merges the files' messages in receive-time order; ties go in
// file order. A file whose read fails is left out from there on and its
// error is reported by Err once the others are read.
func (m *MultiStorage) Messages(f MessageFilter) MessageIter {
	it := &multiIter{m: m}
	sums, _ := m.partSummaries()
	for p := range m.parts {
		pf, ok := m.partFilter(p, f)
		if !ok {
			continue
		}
		src := &multiSrc{part: p, filter: pf}
		// A file that says where it starts is opened when the merge gets
		// there, so a long split recording keeps one or two files open.
		if s := sums[p]; s != nil && s.Indexed && s.Messages > 0 && m.parts[p].FileInfo().Scanned == nil {
			src.start = s.Start
			it.pending = append(it.pending, src)
		} else {
			it.open(src)
		}
	}
	sort.SliceStable(it.pending, func(i, j int) bool { return it.pending[i].start.Before(it.pending[j].start) })
	return it
}

// partFilter translates a filter to part p's connection IDs; ok is false
// when the filter selects nothing in the part.
func (m *MultiStorage) partFilter(p int, f MessageFilter) (MessageFilter, bool) {
	pf := MessageFilter{Topics: f.Topics, Start: f.Start, End: f.End}
	if len(f.Conns) == 0 {
		return pf, true
	}
	for _, id := range f.Conns {
		if pc, ok := m.toPart[p][id]; ok {
			pf.Conns = append(pf.Conns, pc)
		}
	}
	if len(pf.Conns) == 0 && len(pf.Topics) == 0 {
		return pf, false
	}
	return pf, true
}

type multiSrc struct {
	part   int
	filter MessageFilter
	start  Time
	it     MessageIter
	cur    *Message
}

type multiIter struct {
	m       *MultiStorage
	heap    srcHeap
	pending []*multiSrc // not opened yet, by start time
	opened  []*multiSrc
	last    *multiSrc // the source of the message returned last
	msg     Message
	err     error
	closed  bool
}

type srcHeap []*multiSrc

func (h srcHeap) Len() int { return len(h) }
func (h srcHeap) Less(i, j int) bool {
	a, b := h[i].cur.Time.Key(), h[j].cur.Time.Key()
	if a != b {
		return a < b
	}
	return h[i].part < h[j].part
}
func (h srcHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *srcHeap) Push(x any)   { *h = append(*h, x.(*multiSrc)) }
func (h *srcHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// open starts a source's iterator and puts its first message on the heap.
func (it *multiIter) open(src *multiSrc) {
	src.it = it.m.parts[src.part].Messages(src.filter)
	it.opened = append(it.opened, src)
	if it.advance(src) {
		heap.Push(&it.heap, src)
	}
}

// advance moves src to its next message; false when it has no more.
func (it *multiIter) advance(src *multiSrc) bool {
	if src.it.Next() {
		src.cur = src.it.Message()
		return true
	}
	if err := src.it.Err(); err != nil {
		it.err = errors.Join(it.err, fmt.Errorf("%s: %w", it.m.base(src.part), err))
	}
	src.cur = nil
	return false
}

func (it *multiIter) Next() bool {
	if it.closed {
		return false
	}
	if src := it.last; src != nil {
		it.last = nil
		if it.advance(src) {
			heap.Fix(&it.heap, 0) // src is still the heap's top
		} else {
			heap.Pop(&it.heap)
		}
	}
	// Open the files that start no later than the earliest message.
	for len(it.pending) > 0 && (len(it.heap) == 0 || !it.heap[0].cur.Time.Before(it.pending[0].start)) {
		src := it.pending[0]
		it.pending = it.pending[1:]
		it.open(src)
	}
	if len(it.heap) == 0 {
		return false
	}
	src := it.heap[0]
	it.last = src
	it.msg = *src.cur
	it.m.relabel(src.part, &it.msg)
	return true
}

func (it *multiIter) Message() *Message { return &it.msg }

// Err returns the files' read errors, each prefixed with the file's name.
func (it *multiIter) Err() error { return it.err }

// Close closes the files' iterators.
func (it *multiIter) Close() {
	if it.closed {
		return
	}
	it.closed = true
	for _, src := range it.opened {
		src.it.Close()
	}
	it.heap, it.pending = nil, nil
}

// Skipped lists what the files' reads could not use, each range's Why
// prefixed with the file's name and InFile naming it; its offsets are the
// file's own.
func (it *multiIter) Skipped() []ByteRange {
	var out []ByteRange
	for _, src := range it.opened {
		sk, ok := src.it.(interface{ Skipped() []ByteRange })
		if !ok {
			continue
		}
		for _, r := range sk.Skipped() {
			r.Why = it.m.base(src.part) + ": " + r.Why
			r.InFile = it.m.names[src.part]
			out = append(out, r)
		}
	}
	return out
}

// Check runs each file's doctor in turn; each finding's message starts
// with the file's name and its offset is the file's own. The recording's
// own errors and warnings (files missing or unreadable, metadata that
// disagrees with the files, a topic whose type changes) come first.
func (m *MultiStorage) Check(ctx context.Context, progress func(done, total int64)) (*CheckReport, error) {
	out := &CheckReport{Indexed: true, Bytes: map[uint32]uint64{}}
	for _, e := range m.opts.Errors {
		out.Findings = append(out.Findings, Finding{Severity: Error, Message: e.Error()})
	}
	for _, w := range m.opts.Warnings {
		out.Findings = append(out.Findings, Finding{Severity: Warning, Message: w.Error()})
	}
	for _, w := range m.conflicts {
		out.Findings = append(out.Findings, Finding{Severity: Warning, Message: w.Error()})
	}
	var total int64
	sizes := make([]int64, len(m.parts))
	for p, part := range m.parts {
		sizes[p] = max(part.FileInfo().Size, 1)
		total += sizes[p]
	}
	var base int64
	for p, part := range m.parts {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var pp func(done, total int64)
		if progress != nil {
			b, sz := base, sizes[p]
			pp = func(done, t int64) {
				if t > 0 {
					progress(b+int64(float64(sz)*float64(min(done, t))/float64(t)), total)
				}
			}
		}
		r, err := part.Check(ctx, pp)
		base += sizes[p]
		if err != nil {
			if cerr := ctx.Err(); cerr != nil {
				return nil, cerr
			}
			out.Findings = append(out.Findings, Finding{Severity: Error, Message: fmt.Sprintf("%s: the check could not run: %v", m.base(p), err)})
			out.Indexed = false
			continue
		}
		for _, f := range r.Findings {
			f.Message = m.base(p) + ": " + f.Message
			f.File, f.Part = m.names[p], p
			out.Findings = append(out.Findings, f)
		}
		out.Indexed = out.Indexed && r.Indexed
		out.Undecoded += r.Undecoded
		out.Messages += r.Messages
		for id, n := range r.Bytes {
			if rid, ok := m.fromPart[p][id]; ok {
				out.Bytes[rid] += n
			}
		}
	}
	if progress != nil {
		progress(total, total)
	}
	return out, nil
}

// Close closes every file.
func (m *MultiStorage) Close() error {
	var err error
	for p, part := range m.parts {
		if cerr := part.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("%s: %w", m.base(p), cerr))
		}
	}
	if m.opts.OnClose != nil {
		err = errors.Join(err, m.opts.OnClose())
	}
	return err
}

var _ BlockIndexLister = (*MultiStorage)(nil)

// lister returns part p's RecordLister.
func (m *MultiStorage) lister(p int) (RecordLister, error) {
	part, err := m.part(p)
	if err != nil {
		return nil, err
	}
	rl, ok := Underlying(part).(RecordLister)
	if !ok {
		return nil, fmt.Errorf("%s: the records of a %s cannot be listed", m.base(p), part.FileInfo().Format)
	}
	return rl, nil
}

// Records lists the files' top-level records in file order, from the
// recording's offset from (a file's own offset plus its index, see
// JoinPart) on; each Record's Offset is the recording's, so it matches
// Block.Offset and Loc.Block.
func (m *MultiStorage) Records(ctx context.Context, from int64, fn func(*Record) bool) error {
	p, own := SplitPart(from)
	for ; p < len(m.parts); p++ {
		rl, err := m.lister(p)
		if err != nil {
			return err
		}
		stop := false
		err = rl.Records(ctx, max(own, 0), func(r *Record) bool {
			c := *r
			c.Offset = JoinPart(p, r.Offset)
			if !fn(&c) {
				stop = true
			}
			return !stop
		})
		if err != nil {
			return fmt.Errorf("%s: %w", m.base(p), err)
		}
		if stop {
			return nil
		}
		own = 0
	}
	return nil
}

// BlockRecords lists the records inside the chunk at the recording's
// offset block, as its file's format lists them (offsets into the
// chunk's uncompressed data).
func (m *MultiStorage) BlockRecords(block int64) ([]*Record, []byte, error) {
	p, own := SplitPart(block)
	rl, err := m.lister(p)
	if err != nil {
		return nil, nil, err
	}
	return rl.BlockRecords(own)
}

// IndexRecords returns the recording's offsets of the records that index
// the block at the recording's offset block, as its file's format says.
func (m *MultiStorage) IndexRecords(block int64) ([]int64, bool) {
	p, own := SplitPart(block)
	rl, err := m.lister(p)
	if err != nil {
		return nil, false
	}
	il, ok := rl.(BlockIndexLister)
	if !ok {
		return nil, false
	}
	offs, ok := il.IndexRecords(own)
	out := make([]int64, len(offs))
	for i, o := range offs {
		out[i] = JoinPart(p, o)
	}
	return out, ok
}

// ReadRange reads bytes [off, off+n) of the file that the recording's
// offset off names.
func (m *MultiStorage) ReadRange(off int64, n int) ([]byte, error) {
	p, own := SplitPart(off)
	rl, err := m.lister(p)
	if err != nil {
		return nil, err
	}
	return rl.ReadRange(own, n)
}

// PrefetchBlockIndexes fetches the index records of the leading blocks
// that lie in one file, through that file's own prefetcher (a remote
// split recording: a few requests per file, not one per block), and says
// how many it covered. Whole-file blocks (a .db3 file) have no index
// records to fetch: they are covered one at a time.
func (m *MultiStorage) PrefetchBlockIndexes(blocks []*Block) (release func(), covered int) {
	release = func() {}
	if len(blocks) == 0 {
		return release, 0
	}
	m.Blocks()
	p, _ := SplitPart(blocks[0].Offset)
	var own []*Block
	for _, b := range blocks {
		q, _ := SplitPart(b.Offset)
		src := m.blockSrc[b]
		if q != p || b.WholeFile || src == nil {
			break
		}
		own = append(own, src)
	}
	if len(own) == 0 {
		return release, 1
	}
	part, err := m.part(p)
	if err != nil {
		return release, len(own)
	}
	pf := IndexPrefetcherOf(part)
	if pf == nil {
		return release, len(own)
	}
	release, covered = pf.PrefetchBlockIndexes(own)
	return release, max(covered, 1)
}

var _ BlockIndexPrefetcher = (*MultiStorage)(nil)
