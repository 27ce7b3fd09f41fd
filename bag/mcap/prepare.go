package mcap

import (
	"sync"
	"sync/atomic"

	"github.com/bagscope/bagscope/bag"
)

// maxSide bounds what a Prepare may make of one chunk's messages: past it
// the rest are left to the reader (the side buffer's offsets are 32-bit).
const maxSide = 1 << 31

// PreparedMessages is Messages with prep run on the workers, on each
// selected message of a chunk once it is decompressed, before the chunk
// goes to the merge in time order (bag.Preparer). What prep makes of a
// chunk is held with it, and counts against the bytes read ahead.
func (x *Reader) PreparedMessages(f bag.MessageFilter, prep bag.Prepare) bag.PreparedIter {
	it := x.Iter(f)
	it.prep = prep
	return it
}

// Prepared returns what the iterator's Prepare made of the current
// message, and whether it prepared it (bag.PreparedIter); nil and false
// for a plain read.
func (it *MessageIter) Prepared() ([]byte, bool) { return it.prepOut, it.prepOK }

// Side segments: what a Prepare makes of a chunk's messages is kept in
// segments of sideSeg bytes, each given back as soon as the merge has
// passed its messages, so that a chunk being drained holds only what is
// left of it and a chunk being prepared only what was made so far.
const (
	sideSeg = 256 << 10
	// maxPooledSegs bounds the spare segments kept for reuse (2 MiB):
	// more would hold, between the chunks, what their peak needed.
	maxPooledSegs = 8
	// maxScratch is the largest prepared message whose buffer a worker
	// keeps for the next.
	maxScratch = 4 << 20
)

// prepare runs the iterator's Prepare on every entry of a loaded job, on
// the worker that loaded it, into the result's side segments, counting
// them against the budget. scratch is the worker's buffer for one
// message's bytes, returned for the next job.
func (it *MessageIter) prepare(r *result, m *bag.Message, cost int64, scratch []byte) []byte {
	r.cost = cost
	if r.err != nil || len(r.ents) == 0 {
		return scratch
	}
	var total int
	for k := range r.ents {
		e := &r.ents[k]
		e.ps, e.pe = uint32(total), uint32(total)
		it.x.fill(m, r, e)
		out, ok := it.prep(m, scratch[:0])
		if cap(out) <= maxScratch {
			scratch = out[:0]
		}
		if !ok || total+len(out) > maxSide {
			continue
		}
		for b := out; len(b) > 0; {
			if len(r.side) == 0 || len(r.side[len(r.side)-1]) == sideSeg {
				r.side = append(r.side, it.getSeg())
			}
			seg := &r.side[len(r.side)-1]
			n := min(len(b), sideSeg-len(*seg))
			*seg = append(*seg, b[:n]...)
			b = b[n:]
		}
		total += len(out)
		e.prepared, e.pe = true, uint32(total)
	}
	return scratch
}

// getSeg returns an empty side segment, counted against the budget until
// the merge takes its chunk.
func (it *MessageIter) getSeg() []byte {
	it.budget.add(sideSeg)
	select {
	case b := <-it.freeSeg:
		return b[:0]
	default:
	}
	return make([]byte, 0, sideSeg)
}

// releaseSide gives back the side segments of r before segment n.
func (it *MessageIter) releaseSide(r *result, n int) {
	for ; r.sideFrom < n; r.sideFrom++ {
		select {
		case it.freeSeg <- r.side[r.sideFrom]:
		default:
		}
		r.side[r.sideFrom] = nil
	}
}

// givePrepared makes entry e of r the current message's prepared bytes,
// giving back the segments before them.
func (it *MessageIter) givePrepared(r *result, e *ent) {
	first := int(e.ps / sideSeg)
	it.releaseSide(r, first)
	it.prepOK = e.prepared
	if !e.prepared || e.ps == e.pe {
		it.prepOut = nil
		return
	}
	last := int((e.pe - 1) / sideSeg)
	lo, hi := int(e.ps%sideSeg), int((e.pe-1)%sideSeg)+1
	if first == last {
		it.prepOut = r.side[first][lo:hi:hi]
		return
	}
	b := append(it.joined[:0], r.side[first][lo:]...)
	for i := first + 1; i < last; i++ {
		b = append(b, r.side[i]...)
	}
	b = append(b, r.side[last][:hi]...)
	it.prepOut = b
	if cap(b) <= maxScratch {
		it.joined = b
	}
}

// jobCost is what reading a job counts against the budget before it is
// prepared: its bytes decompressed (or read, outside chunks).
func jobCost(j *job) int64 {
	if j.c != nil {
		return int64(min(j.c.USize, preallocLimit))
	}
	first, last := j.loose[0], j.loose[len(j.loose)-1]
	return last.Offset + last.Len - first.Offset
}

// budget bounds the bytes a prepared read holds ahead of the merge: chunks
// decompressed and what was prepared of them. A job waits while the
// budget is spent, unless nothing is held (a chunk larger than the budget
// is still read, alone).
type budget struct {
	mu          sync.Mutex
	cond        sync.Cond
	used, limit int64
	stop        <-chan struct{}
	// shares, when not nil, counts the reads the limit is shared by
	// (activeReads): each may hold limit/shares.
	shares *atomic.Int64
}

func newBudget(limit int64, stop <-chan struct{}) *budget {
	b := &budget{limit: limit, stop: stop}
	b.cond.L = &b.mu
	return b
}

// acquire takes n bytes, waiting for room; false when the read stopped.
func (b *budget) acquire(n int64) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	for b.used > 0 && b.used+n > b.share() {
		select {
		case <-b.stop:
			return false
		default:
		}
		b.cond.Wait()
	}
	b.used += n
	return true
}

// share is what this read may hold of the limit.
func (b *budget) share() int64 {
	if b.shares == nil {
		return b.limit
	}
	return b.limit / max(1, b.shares.Load())
}

// add counts n more bytes held (a side buffer), without waiting.
func (b *budget) add(n int64) {
	b.mu.Lock()
	b.used += n
	b.mu.Unlock()
}

// release gives back n bytes.
func (b *budget) release(n int64) {
	b.mu.Lock()
	b.used -= n
	b.cond.Broadcast()
	b.mu.Unlock()
}

// wake lets a waiting acquire see that the read stopped.
func (b *budget) wake() {
	b.mu.Lock()
	b.cond.Broadcast()
	b.mu.Unlock()
}
