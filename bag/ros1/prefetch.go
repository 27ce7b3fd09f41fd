package ros1

import "github.com/bagscope/bagscope/bag"

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
}
