package cli

import "fmt"

// Exit statuses: one table for every command (and the window's start).
const (
	// ExitOK: the command did what it was asked and nothing was lost.
	ExitOK = 0
	// ExitProblems: data lost (listed on stderr with byte offsets),
	// problems found (check, verify), or an output could not be written.
	ExitProblems = 1
	// ExitUsage: a usage mistake (unknown command, flag, topic; a range
	// outside the recording; no display for the window), or an input that is
	// not a recording bagscope can read (missing, not a recording).
	ExitUsage = 2
	// ExitPartial: a repair or conversion that kept less than everything.
	ExitPartial = 3
)

// exitTable is the exit-status table every help text ends with (and the
// README repeats; a test keeps them equal).
const exitTable = `Exit status:
  0  ok
  1  data lost or problems found (each listed on stderr with its byte offset)
  2  usage mistake, or the input is not a recording bagscope can read
  3  a repair or conversion that kept less than everything`

// exitStatus is the error a command returns to end with a status other
// than 0 once it has said why on stderr.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// status turns a command's exit status into its RunE error.
func status(code int) error {
	if code == ExitOK {
		return nil
	}
	return exitStatus(code)
}

// usageError is a usage mistake: Run prints it with a pointer to the
// command's help and exits with ExitUsage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// usagef returns a usage error: the reason, never a usage dump.
func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}
