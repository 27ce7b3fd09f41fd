package cli

import (
	"flag"
	"fmt"
	"io"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
)

// newFlags returns a FlagSet for a command that prints its usage to stderr.
func newFlags(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var(msgsFlag{}, "msgs", "also look in `DIR` for the ROS 2 message definitions a recording lacks (repeatable)")
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

// openOne parses the flags and one FILE argument and opens the recording,
// whatever its format, by scanning it when its index cannot be used. A
// scanned file is said so on stderr. On failure it has said why and returns
// the exit status with ok false; otherwise the caller closes s.
func openOne(fs *flag.FlagSet, args []string, stderr io.Writer) (s bag.Storage, path string, code int, ok bool) {
	path, code, ok = oneFile(fs, args)
	if !ok {
		return nil, path, code, false
	}
	s, err := model.OpenStorage(path)
	if err != nil {
		return nil, path, fail(stderr, path, err), false
	}
	return s, path, 0, true
}

// msgsFlag adds each --msgs folder to the definitions search as it is parsed.
type msgsFlag struct{}

func (msgsFlag) String() string { return "" }
func (msgsFlag) Set(dir string) error {
	model.AddDefinitionDirs(dir)
	return nil
}
