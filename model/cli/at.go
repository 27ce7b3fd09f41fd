package cli

import (
	"fmt"
	"io"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
)

// atFlag reads an --at flag (tf, diag): seconds from the recording's
// start, @SECONDS since the epoch or an RFC 3339 time, within the
// recording; "" is the zero time (each frame's or status's latest).
func atFlag(b bag.Storage, at string) (bag.Time, error) {
	if at == "" {
		return bag.Time{}, nil
	}
	start, end := model.TimeRange(b)
	when, err := parseBound(at, start)
	if err != nil {
		return bag.Time{}, usagef("--at %q: %v", at, err)
	}
	if err := checkRange(when, bag.Time{}, start, end); err != nil {
		return bag.Time{}, err
	}
	return when, nil
}

// endOfRead says on stderr what a read at a time (tf, diag) could not
// read: the messages of kind what it could not decode (n, the first said
// in first) and the recording's loss. It returns code, or ExitProblems
// when there was any.
func endOfRead(stderr io.Writer, path string, code int, what string, n uint64, first string, lost *loss) error {
	if n > 0 {
		fmt.Fprintf(stderr, "bagscope: %s: %d %s messages could not be read (the first: %s)\n", bag.Shown(path), n, what, first)
		code = ExitProblems
	}
	if lost != nil {
		lost.print(stderr, bag.Shown(path))
		if lost.any() {
			code = ExitProblems
		}
	}
	return status(code)
}
