// Package cli is bagscope's command line: the headless commands (info,
// cat, check, ...) and the root that opens the window, on one grammar
// built with github.com/spf13/cobra and pflag. Each command writes its
// result to stdout, its errors and what it lost to stderr, and ends with a
// status from one table (ExitOK, ExitProblems, ExitUsage, ExitPartial).
//
// # Adding a command
//
// Write newX(e *env) *cobra.Command in its own file (x.go) and add newX to
// commands below. The command:
//
//   - gives Use ("x [flags] FILE"), Short, Long and Example; the help
//     template adds the flags and the exit-status table;
//   - checks its positional arguments with files("FILE") (or files("IN",
//     "OUT")), which says what is missing, never dumps the usage;
//   - declares flags on c.Flags() (pflag: they may come before, between or
//     after the files); a command that reads messages adds the selection
//     flags with addSelection(c) and resolves them against the opened
//     recording with sel.resolve (unknown topics and ranges outside the
//     recording are usage errors that list what exists; an empty result
//     is said on stderr by sel.noteEmpty);
//   - offers --json with one schema style: jsonTime for times
//     ({"secs","nsecs","ns"}), seconds as JSON numbers for durations
//     (jsonSeconds), writeJSON to print one object;
//   - returns status(code) from RunE, after saying why on stderr; usagef
//     for a usage mistake (Execute prints it with a pointer to --help);
//     openRecording reports a file that cannot be opened as ExitUsage;
//     a loss found while reading is printed by loss.print and is
//     ExitProblems;
//   - completes its arguments: ValidArgsFunction completeFiles, and
//     completeTopics for --topics (addSelection does that).
//
// No command may do work at package initialisation: the headless front
// (model/cli/bagscope) starts in a few milliseconds.
package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
)

// commands are the constructors of the headless commands.
var commands = []func(*env) *cobra.Command{
	newCat,
	newCatalog,
	newCheck,
	newConvert,
	newDiag,
	newDiff,
	newExport,
	newFilter,
	newFind,
	newFix,
	newInfo,
	newMarks,
	newPlot,
	newRecords,
	newSQL,
	newTF,
	newVerify,
	newVersion,
}

// files returns an Args check that wants exactly the positional arguments
// named, and says which is missing or what is extra.
func files(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < len(names) {
			return usagef("%s: missing %s (bagscope %s)", cmd.Name(), strings.Join(names[len(args):], " and "), cmd.Use)
		}
		if len(args) > len(names) {
			return usagef("%s takes %s, got %d arguments: %s", cmd.Name(), strings.Join(names, " "), len(args), strings.Join(args, " "))
		}
		return nil
	}
}

// msgDirs adds the --msgs folders to the definitions search.
func msgDirs(cmd *cobra.Command) {
	if dirs, err := cmd.Flags().GetStringArray("msgs"); err == nil {
		model.AddDefinitionDirs(dirs...)
	}
}

// openRecording opens the recording at path, whatever its format, by
// scanning it when its index cannot be used. A file that cannot be opened
// is said on stderr and is ExitUsage (not a recording bagscope can read):
// the error is an *openError.
func (e *env) openRecording(cmd *cobra.Command, path string) (bag.Storage, error) {
	msgDirs(cmd)
	s, err := model.OpenStorageWith(path, e.openOptions())
	if err != nil {
		failOpen(e.stderr, path, err)
		return nil, &openError{err}
	}
	notePartOf(e.stderr, path)
	noteDefinitionSources(e.stderr, path, s)
	// Its reads keep what they find for the doctor after them (loss.go).
	vouchReads(s)
	return s, nil
}

// openError is why a recording could not be opened, once said on stderr;
// it ends the command with ExitUsage.
type openError struct{ cause error }

func (e *openError) Error() string { return e.cause.Error() }

// Unwrap gives the exit status the command ends with.
func (e *openError) Unwrap() error { return exitStatus(ExitUsage) }

// openCause returns why a recording could not be opened, when err is
// openRecording's, else err.
func openCause(err error) error {
	var oe *openError
	if errors.As(err, &oe) {
		return oe.cause
	}
	return err
}

// notePartOf says, for a storage file of a rosbag2 folder (which every
// command and the window read alone), that the folder is the whole
// recording.
func notePartOf(stderr io.Writer, path string) {
	if dir := bag.FolderOf(path); dir != "" {
		fmt.Fprintf(stderr, "bagscope: %s: offset 0: %s\n", path, model.PartOfNote(path, dir))
	}
}

// noteDefinitionSources says on stderr, once per type, where the
// definitions came from that the recording does not carry itself (a .db3
// written before Iron is decoded with an installed ROS 2's, a --msgs
// folder's or bagscope's own standard definitions).
func noteDefinitionSources(stderr io.Writer, path string, s bag.Storage) {
	seen := map[string]bool{}
	for _, c := range s.Connections() {
		if c.DefinitionSource == "" || seen[c.Type] {
			continue
		}
		seen[c.Type] = true
		fmt.Fprintf(stderr, "bagscope: %s: note: %s (%s) has no definition in the recording: decoded with %s\n", path, c.Type, c.Topic, c.DefinitionSource)
	}
}

// fail prints an error for file path and returns ExitProblems.
func fail(stderr io.Writer, path string, err error) int {
	path = bag.Shown(path)
	msg := err.Error()
	if path != "" && !strings.Contains(msg, path) {
		msg = path + ": " + msg
	}
	fmt.Fprintf(stderr, "bagscope: %s\n", msg)
	return ExitProblems
}

// failOpen prints why path could not be opened and returns ExitUsage.
func failOpen(stderr io.Writer, path string, err error) int {
	fail(stderr, path, err)
	return ExitUsage
}

func newVersion(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "version",
		Short: "print bagscope's version, commit and Go version (as --version does)",
		Args:  files(),
	}
	asJSON := c.Flags().Bool("json", false, `print one JSON object: {"version", "commit", "go", "os", "arch"}`)
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if *asJSON {
			return writeJSON(e.stdout, versionInfo())
		}
		fmt.Fprintf(e.stdout, "bagscope %s\n", versionString())
		return nil
	}
	return c
}
