package link

import (
	"context"
	"sync"

	"github.com/bagscope/bagscope/model/tf"
)

// tfHistory is the window's transform history (model/tf), read once in
// the background for the views that follow the time through TF (the TF
// and 3D tabs): each time move is then a search, not a read of /tf.
type tfHistory struct {
	h       *tf.History
	err     error
	done    bool
	reading bool
	waiters []func(*tf.History, error)
}

// TFHistory calls f on the UI goroutine with the recording's transform
// history, reading it in the background the first time it is asked for.
// f gets the history with the error of a read that stopped on damage (the
// history of what was read), or nil and the error (no transform topic,
// or the window closed).
func (l *Hub) TFHistory(f func(*tf.History, error)) {
	t := &l.tfh
	if t.done {
		f(t.h, t.err)
		return
	}
	t.waiters = append(t.waiters, f)
	if t.reading {
		return
	}
	t.reading = true
	var mu sync.Mutex
	var h *tf.History
	var err error
	st := l.d.Storage
	l.Go(func(ctx context.Context) {
		hh, e := tf.BuildHistory(ctx, st, tf.HistoryOptions{})
		mu.Lock()
		h, err = hh, e
		mu.Unlock()
	}, func() {
		mu.Lock()
		t.h, t.err, t.done = h, err, true
		mu.Unlock()
		waiters := t.waiters
		t.waiters = nil
		for _, w := range waiters {
			w(t.h, t.err)
		}
	})
}
