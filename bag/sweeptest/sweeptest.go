// Package sweeptest decides how much of a long test sweep runs. It is
// imported by tests only.
//
// `make test` runs a fixed sample of each sweep's cases: one in every N,
// taken within each class of case (each format, each kind of damage, each
// fixture), so every class is still covered, and the same cases run every
// time, so a failure repeats. `go test -long` (`make test-long`, the
// Makefile's LONG_SWEEPS) runs every case. BAGSCOPE_SAMPLE=K moves the
// sample to another fixed subset, so that every case can be reached
// without -long, and a failure seen with it repeats with the same K.
package sweeptest

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// long is the -long flag of every test binary that imports this package.
var long = flag.Bool("long", false, "run the long test sweeps whole (make test-long), not a fixed sample of their cases")

// Long reports whether the sweeps run every case (-long).
func Long() bool { return *long }

// Shift is BAGSCOPE_SAMPLE: 0 when unset, which sample of the cases runs
// without -long.
func Shift() int {
	k, _ := strconv.Atoi(os.Getenv("BAGSCOPE_SAMPLE"))
	return max(k, 0)
}

// Keep reports whether case i (counted from 0 within its class) runs: every
// case with -long or when every is 1 or less, otherwise one in every, the
// middle one of each run of every cases (where cases are offsets spread
// over a file, the sample is spread too, not bunched at its start).
func Keep(i, every int) bool {
	if *long || every <= 1 {
		return true
	}
	return (i+Shift())%every == every/2
}

// Note logs which cases of a sweep run, and how to run them all.
func Note(t testing.TB, every int, what string) {
	t.Helper()
	if *long || every <= 1 {
		t.Logf("every case of %s (-long)", what)
		return
	}
	t.Logf("sampled: one in %d of %s (BAGSCOPE_SAMPLE=%d picks which); go test -long, or make test-long, runs every one", every, what, Shift())
}
