package model

import (
	"fmt"
	"path/filepath"
	"sort"

	"github.com/bagscope/bagscope/bag"
)

// Timeline is what the timeline view draws: the chunks over time and, per
// topic, how many messages fall in each time bin. It comes from the chunk
// infos alone (a chunk's messages are spread evenly over its span), so it
// costs nothing to build for any bag size.
type Timeline struct {
	Start, End int64 // nanoseconds since the epoch
	Chunks     []ChunkSpan
	// ChunkRows is the number of rows the chunk lane needs so that chunks
	// overlapping in time sit on different rows (see ChunkSpan.Row).
	ChunkRows int
	Topics    []TopicDensity
	// Missing are the files of a recording of several that its metadata
	// names but that are not there, each a named gap on the chunk lane.
	Missing []MissingSpan

	// index, once set, gives exact densities (see SetIndex).
	index *MessageIndex
	// cum[i] is the running sum of Topics[i].Bins, for resampling.
	cum [][]float64
}

// ChunkSpan is one chunk on the chunk lane.
type ChunkSpan struct {
	Pos         int64 // file offset of the chunk record
	End         int64 // file offset just past it
	T0, T1      int64 // its messages' time span, nanoseconds
	Messages    uint64
	Compression string
	// Ratio is compressed/uncompressed size (1 for uncompressed chunks).
	Ratio float64
	// Damaged says why the chunk is marked as damaged, or "".
	Damaged string
	// Note says why the chunk holds damage that provably lost no
	// message (an index, a free page: bag.Damage.Notes), or "".
	Note string
	// Place says where the chunk is, for people: "chunk at 4096", with
	// its file for a recording of several ("wbag_1.db3: chunk at 4096"),
	// never a location's internal bits.
	Place string
	// Row is the chunk lane row the chunk sits on: 0 unless it overlaps in
	// time a chunk before it in file order.
	Row int
	// WholeFile is a file of a recording of several that has no chunks
	// (a .db3 of a rosbag2 folder): the span is the file's.
	WholeFile bool
}

// LaneUnit is what the chunk lane's spans are: "files" when each is a
// whole file (the .db3 files of a rosbag2 folder), else "chunks".
func (tl *Timeline) LaneUnit() string {
	if len(tl.Chunks) == 0 {
		return "chunks"
	}
	for _, c := range tl.Chunks {
		if !c.WholeFile {
			return "chunks"
		}
	}
	return "files"
}

// TopicDensity is one topic's density lane.
type TopicDensity struct {
	Topic string
	Bins  []float64 // messages per bin, bins spanning Start..End evenly
	Max   float64
}

// TimelineBins is the number of density bins per topic.
const TimelineBins = 512

// BuildTimeline builds the timeline of an opened document. Chunks that a
// scan salvaged or found damaged are marked.
func BuildTimeline(d *Document) *Timeline {
	b := d.Storage
	tl := &Timeline{Start: d.Summary.Start.Nanos(), End: d.Summary.End.Nanos()}
	if tl.End <= tl.Start {
		tl.End = tl.Start + 1
	}
	topicOf := map[uint32]int{}
	for _, c := range b.Connections() {
		i, ok := -1, false
		for j := range tl.Topics {
			if tl.Topics[j].Topic == c.Topic {
				i, ok = j, true
			}
		}
		if !ok {
			tl.Topics = append(tl.Topics, TopicDensity{Topic: c.Topic, Bins: make([]float64, TimelineBins)})
			i = len(tl.Topics) - 1
		}
		topicOf[c.ID] = i
	}
	span := float64(tl.End - tl.Start)
	bin := func(t int64) int {
		return min(TimelineBins-1, max(0, int(float64(t-tl.Start)/span*TimelineBins)))
	}
	for _, blk := range b.Blocks() {
		cs := ChunkSpan{Pos: blk.Offset, End: blk.Offset + blk.Len, T0: blk.Start.Nanos(), T1: blk.End.Nanos(), Messages: blk.Messages(), Ratio: 1, Compression: blk.Compression, WholeFile: blk.WholeFile}
		if blk.UncompressedSize > 0 && blk.Compression != "" && blk.Compression != "none" {
			cs.Ratio = float64(blk.CompressedSize) / float64(blk.UncompressedSize)
		}
		switch {
		case blk.WholeFile && blk.Damaged:
			// A file of a folder read page by page: red only where
			// the damage lost messages (the lost ranges below); damage
			// that lost none (a zeroed index page) is a note.
			cs.Note = "the file was read page by page"
			if blk.Err != nil {
				cs.Note = blk.Err.Error()
			}
		case blk.Err != nil:
			cs.Damaged = blk.Err.Error()
		case blk.Damaged:
			cs.Damaged = openChunkDamage
		}
		tl.Chunks = append(tl.Chunks, cs)
		b0, b1 := bin(cs.T0), bin(cs.T1)
		for conn, n := range blk.Counts {
			ti, ok := topicOf[conn]
			if !ok {
				continue
			}
			per := float64(n) / float64(b1-b0+1)
			for k := b0; k <= b1; k++ {
				tl.Topics[ti].Bins[k] += per
			}
		}
	}
	// By name, a recording's topics before the next one's in a window
	// of several (Topic.Member).
	member := map[string]int{}
	for _, t := range d.Topics {
		member[t.Topic] = t.Member
	}
	sort.Slice(tl.Topics, func(i, j int) bool {
		a, b := tl.Topics[i].Topic, tl.Topics[j].Topic
		if ma, mb := member[a], member[b]; ma != mb {
			return ma < mb
		}
		return a < b
	})
	for i := range tl.Topics {
		for _, v := range tl.Topics[i].Bins {
			tl.Topics[i].Max = max(tl.Topics[i].Max, v)
		}
	}
	tl.ChunkRows = layoutChunkRows(tl.Chunks)
	m := bag.AsMulti(b)
	for i := range tl.Chunks {
		c := &tl.Chunks[i]
		c.Place = fmt.Sprintf("chunk at %d", c.Pos)
		if p, own := bag.SplitPart(c.Pos); m != nil && p < len(m.Names()) {
			c.Place = fmt.Sprintf("%s: chunk at %d", filepath.Base(m.Names()[p]), own)
			if c.WholeFile {
				c.Place = filepath.Base(m.Names()[p])
			}
		}
	}
	// What opening found lost, each range in its own file's chunks: a
	// missing file marks none, it is a named gap of its own (Missing).
	dmg := bag.DamageOf(b)
	tl.Missing = missingSpans(dmg, tl.Start, tl.End)
	for _, r := range dmg.Ranges {
		if r.Part < 0 || r.Unit == bag.UnitFile {
			continue
		}
		start, end := r.Start, r.End
		if m != nil {
			start, end = bag.JoinPart(r.Part, start), bag.JoinPart(r.Part, end)
		}
		if r.Messages.None() {
			tl.MarkNote(start, end, r.Why)
		} else {
			tl.MarkDamaged(start, end, r.Why)
		}
	}
	return tl
}

// openChunkDamage is why a chunk salvaged by a scan is marked.
const openChunkDamage = "salvaged from a chunk that was never closed"

// layoutChunkRows gives each chunk the first row whose chunks all end
// before it starts, and returns the number of rows used.
func layoutChunkRows(cs []ChunkSpan) int {
	order := make([]int, len(cs))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return cs[order[a]].T0 < cs[order[b]].T0 })
	var ends []int64 // the end time of each row's last chunk
	for _, i := range order {
		c := &cs[i]
		c.Row = len(ends)
		for r, e := range ends {
			if e < c.T0 || (e == c.T0 && c.T1 > c.T0) {
				c.Row = r
				break
			}
		}
		if c.Row == len(ends) {
			ends = append(ends, c.T1)
		} else {
			ends[c.Row] = c.T1
		}
	}
	return max(1, len(ends))
}

// MarkDamaged marks the chunks whose bytes overlap [start, end) (or, for a
// single offset, contain it) as damaged, with why.
func (tl *Timeline) MarkDamaged(start, end int64, why string) {
	for i := range tl.Chunks {
		c := &tl.Chunks[i]
		if start < c.End && end > c.Pos || (start == end && start >= c.Pos && start < c.End) {
			if c.Damaged == "" {
				c.Damaged = why
			}
		}
	}
}

// MarkNote marks the chunks whose bytes overlap [start, end) (or, for a
// single offset, contain it) as holding damage that lost no message.
func (tl *Timeline) MarkNote(start, end int64, why string) {
	for i := range tl.Chunks {
		c := &tl.Chunks[i]
		if start < c.End && end > c.Pos || (start == end && start >= c.Pos && start < c.End) {
			if c.Note == "" {
				c.Note = why
			}
		}
	}
}

// Damaged returns the chunks marked as damaged.
func (tl *Timeline) Damaged() []ChunkSpan {
	var out []ChunkSpan
	for _, c := range tl.Chunks {
		if c.Damaged != "" {
			out = append(out, c)
		}
	}
	return out
}
