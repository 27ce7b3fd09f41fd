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
