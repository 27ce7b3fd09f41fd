package ui

import (
	"os"
	"time"
)

// exitGrace is how long the process may take to end once its last window
// has closed.
const exitGrace = 10 * time.Second

// exitSoon ends the process exitGrace after the last window closed, if
// it has not ended by then. Fyne v2.8.1 can hang at exit: an app event
// queued as the window closes waits on the main loop's queue just after
// the loop drained it for the last time (Lifecycle.WaitForEvents never
// returns; seen about once in 25 runs of TestWindowPlaceRemembered under
// load, its goroutines dumped). The window is gone and the process stays.
// What bagscope keeps at close (windows.json) is written before this.
func exitSoon() {
	time.AfterFunc(exitGrace, func() { os.Exit(0) })
}
