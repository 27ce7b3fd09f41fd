package ui

import (
	"fmt"
	"os"
	"time"
)

// timingOn is BAGSCOPE_TIMING: when set, the window says on stderr the
// wall-clock moment (Unix nanoseconds) it showed a recording's topics, so
// that testdata/bench/window.sh can time it from the moment it started the
// process (issue 29: the window shows topics within 0.5 s).
var timingOn = os.Getenv("BAGSCOPE_TIMING") != ""

// markTiming prints what the window just reached, when timingOn.
func markTiming(what string) {
	if timingOn {
		fmt.Fprintf(os.Stderr, "bagscope: timing: %s at %d\n", what, time.Now().UnixNano())
	}
}
