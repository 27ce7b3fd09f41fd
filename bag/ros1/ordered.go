package ros1

import (
	"runtime"
	"sync"
)

// inOrder runs a function on values on one worker per core and hands the
// values back in the order they were submitted, with at most two per
// worker in flight: chunks decompressed for the doctor, chunks compressed
// by the writer. It keeps a spare list, so the values (and the buffers in
// them) are reused.
type inOrder[T any] struct {
	jobs  chan *orderedJob[T]
	queue []*orderedJob[T] // submitted, oldest first
	spare []*orderedJob[T]
	stop  func()
}

type orderedJob[T any] struct {
	v    T
	done chan struct{}
}

// newInOrder starts the workers, which run work on each submitted value.
// They do not refer to the inOrder: one dropped without Close is
// collected, and its workers stop.
func newInOrder[T any](work func(*T)) *inOrder[T] {
	workers := runtime.GOMAXPROCS(0)
	jobs := make(chan *orderedJob[T], 2*workers)
	for range workers {
		go func() {
			for j := range jobs {
				work(&j.v)
				j.done <- struct{}{}
			}
		}()
	}
	o := &inOrder[T]{jobs: jobs, stop: sync.OnceFunc(func() { close(jobs) })}
	runtime.AddCleanup(o, func(stop func()) { stop() }, o.stop)
	return o
}

// Submit has fill set up a value (a spare one, as it was handed back, or a
// new zero one) and hands it to the workers. Take the oldest back first
// when Full.
func (o *inOrder[T]) Submit(fill func(v *T)) {
	var j *orderedJob[T]
	if n := len(o.spare); n > 0 {
		j = o.spare[n-1]
		o.spare = o.spare[:n-1]
	} else {
		j = &orderedJob[T]{done: make(chan struct{}, 1)}
	}
	fill(&j.v)
	o.queue = append(o.queue, j)
	o.jobs <- j // never blocks: Full bounds the queue
}

// Full reports whether as many values are in flight as the workers take:
// take the oldest back (Oldest, Recycle) before the next Submit.
func (o *inOrder[T]) Full() bool { return len(o.queue) == cap(o.jobs) }

// Len returns the number of values submitted and not taken back.
func (o *inOrder[T]) Len() int { return len(o.queue) }

// Oldest waits for the oldest submitted value's work and returns it. It
// stays valid until Recycle.
func (o *inOrder[T]) Oldest() *T {
	j := o.queue[0]
	<-j.done
	return &j.v
}

// Recycle takes the oldest value back, to be returned by a later Next.
func (o *inOrder[T]) Recycle() {
	o.spare = append(o.spare, o.queue[0])
	o.queue = o.queue[1:]
}

// Close stops the workers once the submitted values are done; the
// inOrder is not used afterwards.
func (o *inOrder[T]) Close() { o.stop() }
