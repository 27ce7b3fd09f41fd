package model

import (
	"context"
	"io"
	"sync"
	"sync/atomic"
)

// openReader wraps the file being opened: while a context is attached it
// fails reads once the context is done, and it reports how far reads have
// reached, so opening can be cancelled and show progress.
type openReader struct {
	r      io.ReaderAt
	mu     sync.Mutex
	ctx    context.Context // nil once detached
	high   atomic.Int64    // furthest byte read so far
	onRead func(high int64)
}

func (o *openReader) ReadAt(p []byte, off int64) (int, error) {
	o.mu.Lock()
	ctx, onRead := o.ctx, o.onRead
	o.mu.Unlock()
	if ctx != nil {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
	}
	n, err := o.r.ReadAt(p, off)
	if end := off + int64(n); end > o.high.Load() {
		o.high.Store(end)
		if onRead != nil {
			onRead(end)
		}
	}
	return n, err
}

// detach stops checking the context and reporting progress: the document
// outlives the job that opened it.
func (o *openReader) detach() {
	o.mu.Lock()
	o.ctx, o.onRead = nil, nil
	o.mu.Unlock()
}
