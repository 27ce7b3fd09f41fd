package link

import "sync/atomic"

// Background runs a view's slow work off the UI goroutine, counting it in
// BackgroundRunning; tests make it synchronous.
var Background = func(f func()) {
	BackgroundRunning.Add(1)
	go func() {
		defer BackgroundRunning.Add(-1)
		f()
	}()
}

// BackgroundRunning counts the background work running now, for
// --screenshot to wait until the views are idle.
var BackgroundRunning atomic.Int64
