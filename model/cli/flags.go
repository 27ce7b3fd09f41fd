package cli

import (
	"flag"
	"fmt"
	"io"
)

// newFlags returns a FlagSet for a command that prints its usage to stderr.
func newFlags(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: bagscope %s [flags] %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// oneFile parses flags and requires exactly one file argument. ok is false
// when the command should exit with status code.
func oneFile(fs *flag.FlagSet, args []string) (path string, code int, ok bool) {
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			return "", 0, false
		}
		return "", 2, false
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return "", 2, false
	}
	return fs.Arg(0), 0, true
}
