// Package cli implements bagscope's headless subcommands (info, records,
// ...). Each command writes its result to stdout, its errors to stderr, and
// returns the process exit status.
package cli

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// command is one subcommand.
type command struct {
	summary string
	run     func(args []string, stdout, stderr io.Writer) int
}

var commands = map[string]command{
	"cat":     {"print messages decoded, as text or one JSON object per line", runCat},
	"plot":    {"render fields, derived series (deriv, integ, diff, ...) and XY paths to PNG or SVG (and CSV) without a window", runPlot},
	"convert": {"write a recording in another format: a ROS 1 bag as MCAP and back", runConvert},
	"check":   {"cross-check every record of a bag and list what is wrong, with offsets", runCheck},
	"fix":     {"write a repaired, indexed copy of a bag with every message that can be read", runFix},
	"info":    {"print a summary of a bag (topics, types, counts, times, chunks)", runInfo},
	"records": {"list every top-level record in byte order with its header fields", runRecords},
	"verify":  {"read every message, check the index, print per-topic counts, bytes and CRC-32C", runVerify},
}

// IsCommand reports whether name is a headless subcommand.
func IsCommand(name string) bool {
	_, ok := commands[name]
	return ok || name == "help"
}

// Run runs the subcommand args[0] with the remaining arguments and returns
// the exit status.
func Run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" {
		Usage(stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "bagscope: unknown command %q\n", args[0])
		Usage(stderr)
		return 2
	}
	return c.run(args[1:], stdout, stderr)
}

// Usage prints the list of commands.
func Usage(w io.Writer) {
	fmt.Fprintln(w, "usage: bagscope [FILE...]           open bags in the inspector window")
	fmt.Fprintln(w, "       bagscope COMMAND [flags] FILE")
	fmt.Fprintln(w, "\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
	fmt.Fprintln(w, "\nRun 'bagscope COMMAND -h' for a command's flags.")
}

// fail prints an error for file path and returns exit status 1.
func fail(stderr io.Writer, path string, err error) int {
	msg := err.Error()
	if path != "" && !strings.Contains(msg, path) {
		msg = path + ": " + msg
	}
	fmt.Fprintf(stderr, "bagscope: %s\n", msg)
	return 1
}
