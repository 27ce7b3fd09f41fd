package model

import (
	"io"

	"github.com/bagscope/bagscope/bag"
)

// WriteAtomically writes a file through write on a temporary file beside
// out, renamed into place once complete, as WriteRepaired does: a failed
// or interrupted write never leaves a half-written out (RemovePendingTemps
// removes the temporary file on a signal).
func WriteAtomically(out string, write func(io.WriteSeeker) (*bag.RepairReport, error)) (*bag.RepairReport, error) {
	return writeAtomically(out, write)
}

// TrackTemp registers a temporary file being written so that
// RemovePendingTemps removes it; call the function it returns once the
// file is renamed or removed.
func TrackTemp(name string) (forget func()) {
	pendingTemps.Store(name, struct{}{})
	return func() { pendingTemps.Delete(name) }
}
