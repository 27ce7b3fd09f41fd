package ros1

import (
	"slices"
	"sort"

	"github.com/bagscope/bagscope/bag"
)

// A read of a window of a remote bag (a plot of 10 s, the message view's
// neighbourhood) knows its chunks from the index before it reads any, and
// their headers were fetched on open: their records are fetched together,
// exactly (one multi-range request over HTTP), instead of chunk by chunk
// with a read-ahead that runs past the last one (1.3-2.9x the bytes
// needed). A read of more than windowPrefetch bytes of chunks is left to
// the file's read-ahead, which keeps its memory bounded.

// windowPrefetch is the most chunk bytes a read fetches ahead this way.
const windowPrefetch = 8 << 20

// prefetchWindow fetches the records of the iterator's chunks together when
// the bag is remote and they add up to at most windowPrefetch bytes.
func (it *MessageIter) prefetchWindow() {
	b := it.q.b
	if !bag.IsRemote(b.r) || len(it.chunks) == 0 {
		return
	}
	offs := make([]int64, 0, len(it.chunks))
	lens := make([]int64, 0, len(it.chunks))
	var total int64
	for _, ci := range it.chunks {
		ch, err := b.ChunkHeader(ci)
		if err != nil {
			return // the reads say what is wrong
		}
		// The whole record, its header too: the reads of the chunk
		// start there.
		n := ch.End() - ci.ChunkPos
		total += n
		if n <= 0 || total > windowPrefetch {
			return
		}
		offs, lens = append(offs, ci.ChunkPos), append(lens, n)
	}
	bag.PrefetchSpans(b.r, offs, lens)
	it.windowed = true
}

// readAheadBytes is how far a remote read of more than windowPrefetch
// asks for its next chunks ahead of the one it hands out: enough to keep
// several requests in flight over a long round trip, a small part of the
// client's block cache.
const readAheadBytes = 24 << 20

// readAhead asks the remote file for the chunks after the next one handed
// out, up to readAheadBytes, each time one is handed out: the file fetches
// them in parallel pieces while the workers decompress (a full ROS 1 read
// made one small request per chunk, 15% of the link).
func (it *MessageIter) readAhead() {
	b := it.q.b
	if it.windowed || !bag.IsRemote(b.r) {
		return
	}
	var sp spans
	for i := it.sent; i < len(it.chunks) && sp.total < readAheadBytes; i++ {
		ci := it.chunks[i]
		ch, err := b.ChunkHeader(ci)
		if err != nil || !sp.add(ci.ChunkPos, ch.End()) {
			break
		}
	}
	sp.readAhead(b)
}

// spans are the file spans a read will need next, merged where they
// (nearly) touch, so that the file fetches them in a few large pieces,
// the records between the chunks included, rather than a request per
// chunk.
type spans struct {
	off, end []int64
	total    int64
}

// add notes the span [from, to); false when it is empty.
func (s *spans) add(from, to int64) bool {
	if to <= from {
		return false
	}
	s.total += to - from
	if n := len(s.off); n > 0 && from >= s.off[n-1] && from-s.end[n-1] <= maxBetweenChunks {
		s.end[n-1] = max(s.end[n-1], to)
		return true
	}
	s.off, s.end = append(s.off, from), append(s.end, to)
	return true
}

// readAhead asks b's file for the spans.
func (s *spans) readAhead(b *Bag) {
	for i, off := range s.off {
		bag.ReadAhead(b.r, off, s.end[i]-off)
	}
}

// readAheadChunks is readAhead for a read of chunks in file order (Check's
// and the scan's): the records of the first of them and of those after it,
// up to readAheadBytes.
func (b *Bag) readAheadChunks(chunks []*Chunk) {
	var sp spans
	for _, ch := range chunks {
		if sp.total >= readAheadBytes || !sp.add(ch.Offset, ch.End()) {
			break
		}
	}
	sp.readAhead(b)
}

// prefetchLayout fetches, for a check of a remote bag that has its index,
// every chunk's header and the records between its data and the next
// chunk (its index data), together: the scan that checks the file's
// records walks them one by one, a round trip each (two per chunk). Both
// lie where the index says; what does not fit the file's prefetch budget
// is left to the scan's reads.
func (b *Bag) prefetchLayout() {
	if !bag.IsRemote(b.r) || len(b.ChunkInfos) == 0 {
		return
	}
	infos := slices.Clone(b.ChunkInfos)
	sort.Slice(infos, func(i, j int) bool { return infos[i].ChunkPos < infos[j].ChunkPos })
	heads := make([]int64, len(infos))
	for i, ci := range infos {
		heads[i] = ci.ChunkPos
	}
	bag.Prefetch(b.r, heads, recordLookahead)
	var offs, lens []int64
	for i, ci := range infos {
		ch, err := b.ChunkHeader(ci)
		if err != nil {
			return
		}
		next := b.Header.IndexPos
		if i+1 < len(infos) {
			next = infos[i+1].ChunkPos
		}
		// To the next chunk's header, which a look-ahead read of the
		// last record before it reaches into.
		if end := ch.End(); next > end && next-end <= maxBetweenChunks {
			offs, lens = append(offs, end), append(lens, next-end+recordLookahead)
		}
	}
	bag.PrefetchSpans(b.r, offs, lens)
}

// maxBetweenChunks bounds the records between two chunks prefetchLayout
// asks for: index data, a connection record or two.
const maxBetweenChunks = 1 << 20

// indexPrefetch is the most index data bytes PrefetchBlockIndexes
// fetches at once: half the remote file's prefetch budget.
const indexPrefetch = 8 << 20

// indexDataHeader is the bytes of an index data record before its
// entries: the header's length, its op, ver, conn and count fields (each
// a length and name=value), and the data's length.
const indexDataHeader = 4 + (4 + 4) + (4 + 8) + (4 + 9) + (4 + 10) + 4

// PrefetchBlockIndexes fetches the index data records after the given
// chunks together (their sizes follow from the chunk infos' counts), up
// to indexPrefetch bytes, and says how many of blocks that covered;
// BlockIndex of each then reads no further. release lets go of them. A
// local or scanned bag fetches nothing.
func (s *Store) PrefetchBlockIndexes(blocks []*bag.Block) (release func(), covered int) {
	b := s.Bag
	if !bag.IsRemote(b.r) || b.Scan != nil {
		return func() {}, len(blocks)
	}
	var offs, lens []int64
	var total int64
	for _, blk := range blocks {
		ci := s.chunkInfo(blk.Offset)
		if ci == nil {
			covered++
			continue
		}
		ch, err := b.ChunkHeader(ci)
		if err != nil {
			covered++
			continue
		}
		// The records' exact bytes, and the look-ahead of the read of
		// the last one.
		n := int64(recordLookahead)
		for _, cc := range ci.Conns {
			n += indexDataHeader + 12*int64(cc.Count)
		}
		if total += n; total > indexPrefetch && covered > 0 {
			break
		}
		offs, lens = append(offs, ch.End()), append(lens, n)
		covered++
	}
	return bag.PrefetchHeld(b.r, offs, lens), covered
}

var _ bag.BlockIndexPrefetcher = (*Store)(nil)
