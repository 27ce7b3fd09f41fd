package bag

import (
	"context"
	"runtime"
)

// loadedChunk is one chunk's data as loadInOrder hands it over.
type loadedChunk struct {
	ch   *Chunk
	data []byte
	err  error
	buf  ChunkBuffer
	done chan struct{}
}

// loadInOrder reads and decompresses chunks on one worker per core and
// calls fn with each chunk's data (or the error reading it) in the order
// given, never more than two chunks per worker ahead of fn. The data is
// reused once fn returns. It stops at fn's first error, or when ctx ends,
// and returns that error.
func (b *Bag) loadInOrder(ctx context.Context, chunks []*Chunk, fn func(ch *Chunk, data []byte, err error) error) error {
	workers := min(runtime.GOMAXPROCS(0), len(chunks))
	if workers == 0 {
		return nil
	}
	ahead := 2 * workers
	free := make(chan *loadedChunk, ahead)
	for range ahead {
		free <- &loadedChunk{done: make(chan struct{}, 1)}
	}
	jobs := make(chan *loadedChunk, ahead)
	ordered := make(chan *loadedChunk, ahead)
	stop := make(chan struct{})
	defer close(stop)
	for range workers {
		go func() {
			for l := range jobs {
				l.data, l.err = b.ReadChunkData(l.ch, &l.buf)
				l.done <- struct{}{}
			}
		}()
	}
	// The feeder hands out chunks as slots come free, in order.
	go func() {
		defer close(jobs)
		defer close(ordered)
		for _, ch := range chunks {
			var l *loadedChunk
			select {
			case l = <-free:
			case <-stop:
				return
			}
			l.ch = ch
			jobs <- l
			ordered <- l
		}
	}()
	for l := range ordered {
		<-l.done
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := fn(l.ch, l.data, l.err); err != nil {
			return err
		}
		free <- l
	}
	return nil
}
