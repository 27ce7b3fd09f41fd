package ros1

import "context"

// loadedChunk is one chunk's data as loadInOrder hands it over.
type loadedChunk struct {
	ch   *Chunk
	data []byte
	err  error
	buf  ChunkBuffer
}

// loadInOrder reads and decompresses chunks on one worker per core and
// calls fn with each chunk's data (or the error reading it) in the order
// given, never more than two chunks per worker ahead of fn. The data is
// reused once fn returns. It stops at fn's first error, or when ctx ends,
// and returns that error.
func (b *Bag) loadInOrder(ctx context.Context, chunks []*Chunk, fn func(ch *Chunk, data []byte, err error) error) error {
	if len(chunks) == 0 {
		return nil
	}
	o := newInOrder(func(l *loadedChunk) { l.data, l.err = b.ReadChunkData(l.ch, &l.buf) })
	defer o.Close()
	take := func() error {
		l := o.Oldest()
		defer o.Recycle()
		if err := ctx.Err(); err != nil {
			return err
		}
		return fn(l.ch, l.data, l.err)
	}
	for _, ch := range chunks {
		if o.Full() {
			if err := take(); err != nil {
				return err
			}
		}
		o.Submit(func(l *loadedChunk) { l.ch = ch })
	}
	for o.Len() > 0 {
		if err := take(); err != nil {
			return err
		}
	}
	return nil
}
