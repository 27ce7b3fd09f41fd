package ros1

import (
	"context"

	"github.com/bagscope/bagscope/bag"
)

// loadedChunk is one chunk's data as loadInOrder hands it over.
type loadedChunk struct {
	ch   *Chunk
	data []byte // what could be read of the chunk's data, maybe partial
	err  error  // why the data is partial or missing
	buf  ChunkBuffer
	// weight is what the chunk holds of ChunkBudget.
	weight int64
	// bad lists the messages that do not decode (see checker.validate).
	bad      []badMessage
	moreBad  int
	validate *validator
	// visit, when set, is handed the chunk's data on the worker that
	// decompressed it (see checker.visit); missed is set when it could
	// not hand on every message.
	visit  chunkVisit
	missed bool
	// walk asks the worker for the vouch of the chunk read whole (see
	// walkVouch): the doctor's walk of its records, off the doctor's
	// goroutine, in visit's walk when there is one; vouch is it, or nil.
	walk  bool
	vouch *chunkVouch
}

// loadInOrder reads and decompresses chunks on one worker per core and
// calls fn with each chunk's data (or the error reading it) in the order
// given, never more than two chunks per worker ahead of fn, and never more
// than ChunkBudget allows. The data is reused once fn returns. It stops at
// fn's first error, or when ctx ends, and returns that error.
func (b *Bag) loadInOrder(ctx context.Context, chunks []*Chunk, fn func(ch *Chunk, data []byte, err error) error) error {
	return b.loadChunks(ctx, chunks, nil, nil, false, func(l *loadedChunk) error {
		if l.err != nil {
			return fn(l.ch, nil, l.err)
		}
		return fn(l.ch, l.data, nil)
	})
}

// loadChunks is loadInOrder handing over the whole loadedChunk: the data
// that could be read beside the error, and, with v set, the messages that
// do not decode, found on the workers; with visit set, each chunk read
// whole is handed to it on the worker too; with walk, the worker adds the
// chunk's vouch.
func (b *Bag) loadChunks(ctx context.Context, chunks []*Chunk, v *validator, visit chunkVisit, walk bool, fn func(l *loadedChunk) error) error {
	if len(chunks) == 0 {
		return nil
	}
	o := newInOrder(func(l *loadedChunk) {
		l.data, l.err = b.readChunkData(l.ch, &l.buf)
		l.bad, l.moreBad = l.bad[:0], 0
		if l.validate != nil && len(l.data) > 0 {
			l.validate.chunk(l)
		}
		l.missed, l.vouch = false, nil
		vouch := l.walk && l.err == nil && !l.ch.Open
		switch {
		case l.visit != nil && l.err == nil:
			// One walk of the records for both.
			visited, cv := l.visit(l.ch, l.data, vouch)
			l.missed, l.vouch = !visited, cv
		case vouch:
			l.vouch = walkVouch(l.ch, l.data)
		}
	})
	defer o.Close()
	take := func() error {
		l := o.Oldest()
		defer func() {
			ChunkBudget.Release(l.weight)
			l.weight = 0
			l.buf.trim()
			o.Recycle()
		}()
		if err := ctx.Err(); err != nil {
			return err
		}
		return fn(l)
	}
	defer func() {
		// Give back the budget of chunks not taken (a stop on error).
		for o.Len() > 0 {
			l := o.Oldest()
			ChunkBudget.Release(l.weight)
			l.weight = 0
			o.Recycle()
		}
	}()
	remote := bag.IsRemote(b.r)
	for i, ch := range chunks {
		if remote {
			b.readAheadChunks(chunks[i:])
		}
		w := chunkWeight(ch)
		for o.Len() > 0 && (o.Full() || !ChunkBudget.TryAcquire(w)) {
			if err := take(); err != nil {
				return err
			}
		}
		if o.Len() == 0 {
			ChunkBudget.Acquire(w) // with nothing else in flight, always
		}
		o.Submit(func(l *loadedChunk) { l.ch, l.weight, l.validate, l.visit, l.walk = ch, w, v, visit, walk })
	}
	for o.Len() > 0 {
		if err := take(); err != nil {
			return err
		}
	}
	return nil
}
