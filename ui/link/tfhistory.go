package link

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"fyne.io/fyne/v2"

	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/tf"
)

// ErrTFHistoryStopped says the transform history's read was stopped
// (StopTFHistory): asking for the history again reads it again.
var ErrTFHistoryStopped = errors.New("the transform history's read was stopped")

// tfHistory is the window's transform history (model/tf), read once in
// the background for the views that follow the time through TF (the TF
// and 3D tabs): each time move is then a search, not a read of /tf.
type tfHistory struct {
	h       *tf.History
	err     error
	done    bool
	reading bool
	waiters []func(*tf.History, error)
	// stop cancels the read running; gen counts the reads, so that a
	// stopped read's late progress is not shown.
	stop     context.CancelFunc
	gen      int
	progress []func(done, total int64)
}

// TFHistory calls f on the UI goroutine with the recording's transform
// history, reading it in the background the first time it is asked for.
// f gets the history with the error of a read that stopped on damage (the
// history of what was read), or nil and the error (no transform topic,
// ErrTFHistoryStopped, or the window closed). After a stop, the next
// TFHistory reads again.
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
	t.gen++
	gen := t.gen
	ctx, stop := context.WithCancel(l.ctx)
	t.stop = stop
	var mu sync.Mutex
	var h *tf.History
	var err error
	st := l.d.Storage
	// Progress in whole percents of the transform messages, on the UI
	// goroutine, while this read is the one running.
	lastPct := int64(-1)
	progress := func(done, total int64) {
		if total <= 0 {
			return
		}
		pct := 100 * done / total
		if pct == lastPct {
			return
		}
		lastPct = pct
		fyne.Do(func() {
			if t.reading && t.gen == gen {
				for _, p := range t.progress {
					p(done, total)
				}
			}
		})
	}
	l.Go(func(context.Context) {
		hh, e := tf.BuildHistory(ctx, st, tf.HistoryOptions{Options: tf.Options{Progress: progress}})
		mu.Lock()
		h, err = hh, e
		mu.Unlock()
	}, func() {
		mu.Lock()
		hh, e := h, err
		mu.Unlock()
		// A read that ended before the stop keeps its history.
		stopped := hh == nil && ctx.Err() != nil
		stop()
		t.reading, t.stop = false, nil
		if stopped {
			hh, e = nil, ErrTFHistoryStopped
		} else {
			t.h, t.err, t.done = hh, e, true
		}
		waiters := t.waiters
		t.waiters = nil
		for _, w := range waiters {
			w(hh, e)
		}
	})
}

// OnTFHistoryProgress calls f on the UI goroutine as the transform
// history's read goes: the transform messages read of the total.
func (l *Hub) OnTFHistoryProgress(f func(done, total int64)) {
	l.tfh.progress = append(l.tfh.progress, f)
}

// StopTFHistory stops the transform history's read, if one runs (its
// waiters then get ErrTFHistoryStopped), and reports whether one ran.
func (l *Hub) StopTFHistory() bool {
	if t := &l.tfh; t.reading && t.stop != nil {
		t.stop()
		return true
	}
	return false
}

// TFHistoryReading reports whether the transform history is being read.
func (l *Hub) TFHistoryReading() bool { return l.tfh.reading }

// TFHistoryStoppedText is the TF and 3D tabs' line once the transform
// history's read is stopped.
const TFHistoryStoppedText = "TF history stopped: the tree follows the time from it once it is read. Retry reads it again."

// TFHistoryProgressText says how far the transform history's read is, in
// the TF and 3D tabs.
func TFHistoryProgressText(done, total int64) string {
	return fmt.Sprintf("Reading the TF history: %d%% of %s transform messages (Esc or Stop stops)", min(100*done/max(total, 1), 100), human.Count(uint64(total)))
}
