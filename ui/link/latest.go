package link

import (
	"context"
	"sync"
)

// Latest reads something at the newest time asked for, one read at a
// time: a time asked for while a read runs is kept, and read once that
// read ends, so that the moves of a drag or of playback fold into one
// read (the TF, 3D and Diagnostics tabs follow the current time so). Its
// methods run on the UI goroutine.
type Latest struct {
	run              func(t int64, finish func(apply func()))
	reading, pending bool
	want             int64
}

// NewLatest reads with run: it starts the read at t and, on the UI
// goroutine, calls finish once with what puts the result on screen (nil
// for nothing). Most views use ReadLatest.
func NewLatest(run func(t int64, finish func(apply func()))) *Latest {
	return &Latest{run: run}
}

// ReadLatest reads with l.Go: work runs in the background at time t,
// then show gets its result on the UI goroutine.
func ReadLatest[T any](l Link, work func(ctx context.Context, t int64) T, show func(r T, t int64)) *Latest {
	return NewLatest(func(t int64, finish func(apply func())) {
		var mu sync.Mutex
		var res T
		l.Go(func(ctx context.Context) {
			r := work(ctx, t)
			mu.Lock()
			res = r
			mu.Unlock()
		}, func() {
			mu.Lock()
			r := res
			mu.Unlock()
			finish(func() { show(r, t) })
		})
	})
}

// At asks for a read at t: now, or after the read that runs.
func (r *Latest) At(t int64) {
	r.want = t
	if r.reading {
		r.pending = true
		return
	}
	r.reading, r.pending = true, false
	r.run(t, func(apply func()) {
		r.reading = false
		if apply != nil {
			apply()
		}
		if r.pending {
			r.At(r.want)
		}
	})
}

// Want is the time last asked for.
func (r *Latest) Want() int64 { return r.want }

// Reading reports whether a read runs.
func (r *Latest) Reading() bool { return r.reading }
