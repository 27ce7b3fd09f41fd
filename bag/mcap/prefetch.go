package mcap

import "github.com/bagscope/bagscope/bag"

// A read of a window of a remote file (a plot of 10 s, the message view's
// neighbourhood) names its chunks from the chunk index before it reads
// any: they are fetched together, exactly (one multi-range request over
// HTTP), instead of chunk by chunk with a read-ahead that runs past the
// last one. A read of more than windowPrefetch bytes of chunks is left to
// the file's read-ahead, which keeps its memory bounded.

// windowPrefetch is the most chunk bytes a read fetches ahead this way.
const windowPrefetch = 8 << 20

// prefetchWindow fetches the chunk records of a remote read together when
// they add up to at most windowPrefetch bytes.
func (it *MessageIter) prefetchWindow() {
	if !bag.IsRemote(it.x.r) {
		return
	}
	var offs, lens []int64
	var total int64
	for _, j := range it.jobs {
		if j.c == nil {
			continue
		}
		total += j.c.Length
		if total > windowPrefetch {
			return
		}
		offs, lens = append(offs, j.c.Offset), append(lens, j.c.Length)
	}
	bag.PrefetchSpans(it.x.r, offs, lens)
}

// indexPrefetch is the most message index bytes PrefetchBlockIndexes
// fetches at once: half the remote file's prefetch budget.
const indexPrefetch = 8 << 20

// PrefetchBlockIndexes fetches the message index records of the given
// chunks together (the records after each chunk, where the chunk index
// says), up to indexPrefetch bytes, and says how many of blocks that
// covered; BlockIndex of each then reads no further. release lets go of
// them. A local file fetches nothing.
func (x *Reader) PrefetchBlockIndexes(blocks []*bag.Block) (release func(), covered int) {
	if !bag.IsRemote(x.r) {
		return func() {}, len(blocks)
	}
	var offs, lens []int64
	var total int64
	for _, b := range blocks {
		c := x.chunkAt(b.Offset)
		if c == nil || c.MsgIdxLen == 0 || c.scanned || c.MsgIdxLen > uint64(x.size) {
			covered++
			continue
		}
		n := int64(c.MsgIdxLen)
		if total += n; total > indexPrefetch && covered > 0 {
			break
		}
		offs, lens = append(offs, c.Offset+c.Length), append(lens, n)
		covered++
	}
	return bag.PrefetchHeld(x.r, offs, lens), covered
}

var _ bag.BlockIndexPrefetcher = (*Reader)(nil)
