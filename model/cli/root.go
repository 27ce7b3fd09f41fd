package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote"
)

// Options are what Execute needs besides the arguments.
type Options struct {
	Stdout, Stderr io.Writer
	// Window opens the window on args: the window's flags as --name=value,
	// then "--", then the files. It is called only when there is a display.
	// Nil: this program has no window (it says so).
	Window func(args []string) int
	// Getenv reads the environment (os.Getenv when nil).
	Getenv func(string) string
	// MemoryLimit, when not 0, is the soft memory limit of the process
	// (debug.SetMemoryLimit) while a headless command runs, unless
	// GOMEMLIMIT sets one. Main sets it; the tests, which run commands in
	// their own process, leave it.
	MemoryLimit int64
}

// CommandMemoryLimit is Main's MemoryLimit: with peak RSS at most 64 MB
// for every headless command (issue 29), the runtime's and the binary's own
// pages (about 12 MB: `info`'s RSS) leave the heap about 50. The collector
// then runs when the heap nears it, rather than when it doubles what was
// live at the last collection (GOGC=100): what the commands keep is
// bounded in bytes (the read-ahead, the writers' buffers), well under
// half of it, so the limit costs them no CPU, and it makes the runtime
// return freed pages to the system before the RSS passes it. A soft
// limit: a command that must hold more still runs, the collector's CPU
// capped by the runtime. A program whose own pages are more sets it lower
// before Main (bagscope-tables).
var CommandMemoryLimit int64 = 48 << 20

// env is what every command is built with: where it writes, and how the
// root opens the window.
type env struct {
	stdout, stderr io.Writer
	window         func(args []string) int
	getenv         func(string) string
	// allowScan is --allow-remote-scan (see setupRemote).
	allowScan bool
	// helpErr is the usage mistake help was asked for on (setupHelp).
	helpErr error
}

// Main runs bagscope with the process's arguments and returns the exit
// status: a command, or the window through window. A panic (a bug) is said
// in one line, never as a Go stack trace, unless BAGSCOPE_TRACEBACK is set.
func Main(window func(args []string) int) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "bagscope: internal error: %v (please report it with the command line; BAGSCOPE_TRACEBACK=1 shows where)\n", r)
			if os.Getenv("BAGSCOPE_TRACEBACK") != "" {
				os.Stderr.Write(debug.Stack())
			}
			code = ExitProblems
		}
	}()
	if !remote.S3Linked && FullBinary != nil && namesBucketURL(os.Args[1:]) {
		// The front does not link the AWS SDK (bag/remote/s3_front.go).
		return FullBinary()
	}
	return Execute(os.Args[1:], Options{Stdout: os.Stdout, Stderr: os.Stderr, Window: window, MemoryLimit: CommandMemoryLimit})
}

// namesBucketURL says whether a command line names an s3:// or gs:// URL,
// as an argument or a flag's value.
func namesBucketURL(args []string) bool {
	for _, a := range args {
		if _, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(a, "-") {
			a = v
		}
		l := strings.ToLower(a)
		if strings.HasPrefix(l, "s3://") || strings.HasPrefix(l, "gs://") {
			return true
		}
	}
	return false
}

// Run runs bagscope's command line args (without the program name) with
// no window, writing to stdout and stderr, and returns the exit status.
func Run(args []string, stdout, stderr io.Writer) int {
	return Execute(args, Options{Stdout: stdout, Stderr: stderr})
}

// Execute runs the command line args (without the program name) and
// returns the exit status (see the Exit constants).
func Execute(args []string, o Options) int {
	e := &env{stdout: o.Stdout, stderr: o.Stderr, window: o.Window, getenv: o.Getenv}
	// A presigned URL's signature named here never reaches the output.
	if secrets := secretsOf(args); len(secrets) > 0 {
		e.stdout = secretWriter{e.stdout, secrets}
		e.stderr = secretWriter{e.stderr, secrets}
	}
	if e.getenv == nil {
		e.getenv = os.Getenv
	}
	root := newRoot(e)
	root.SetArgs(args)
	if o.MemoryLimit > 0 && e.getenv("GOMEMLIMIT") == "" {
		// A headless command only: the window (the root) has its own
		// budget, and after exec another process.
		if c, _, err := root.Find(args); err == nil && c != root {
			debug.SetMemoryLimit(o.MemoryLimit)
		}
	}
	cmd, err := root.ExecuteC()
	if err == nil && e.helpErr != nil {
		cmd, err = root, e.helpErr
	}
	var st exitStatus
	switch {
	case err == nil:
		return ExitOK
	case errors.As(err, &st):
		return int(st)
	}
	// Anything else is a usage mistake the library or a command found:
	// its reason and where the help is, never the usage itself.
	fmt.Fprintf(e.stderr, "bagscope: %v\n", err)
	if cmd == nil {
		cmd = root
	}
	fmt.Fprintf(e.stderr, "Run '%s --help' for usage.\n", cmd.CommandPath())
	return ExitUsage
}

// newRoot builds the command tree: the root (the window) and every
// command of commands.
func newRoot(e *env) *cobra.Command {
	root := &cobra.Command{
		Use:   "bagscope [flags] [FILE...]",
		Short: "inspect ROS 1 bags, MCAP files and rosbag2 folders",
		Long: `bagscope inspects robot recordings: ROS 1 bags (.bag, .bag.active), MCAP files and rosbag2
folders of .db3 or .mcap files, whole, split, compressed, unindexed, cut or damaged.

Without a command it opens the recordings named (or a start page) in a window, which needs a
display. The commands run headless and print text, or JSON with --json.`,
		Example: `  bagscope x.bag                        # open a window
  bagscope info x.bag                   # what rosbag info prints
  bagscope cat x.bag --topics /rosout -n 3
  bagscope check --json cut.mcap`,
		Version:           versionString(),
		Args:              e.windowArgs,
		RunE:              e.openWindow,
		SilenceErrors:     true,
		SilenceUsage:      true,
		DisableAutoGenTag: true,
		ValidArgsFunction: completeFiles,
	}
	root.SuggestionsMinimumDistance = 2
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	root.SetFlagErrorFunc(flagError)
	root.SetHelpTemplate(root.HelpTemplate() + "\n" + exitTable + "\n")
	root.SetVersionTemplate("bagscope {{.Version}}\n")
	root.PersistentFlags().StringArray("msgs", nil, "also look in `DIR` for the ROS 2 message definitions a recording lacks (repeatable)")
	root.MarkPersistentFlagDirname("msgs")
	addRemoteFlags(root.PersistentFlags())
	root.PersistentPreRunE = func(cmd *cobra.Command, args []string) error { return e.setupRemote(cmd) }
	addWindowFlags(root.Flags())
	for _, c := range commands {
		root.AddCommand(c(e))
	}
	e.setupHelp(root)
	passCompletionLine(root)
	return root
}

// addWindowFlags adds the window's flags (ui.Run parses them again).
func addWindowFlags(fs *pflag.FlagSet) {
	fs.Bool("sample", false, "open the embedded sample bag")
	fs.String("screenshot", "", "once FILE (or --sample) has loaded, save the window to `OUT.png` and exit")
	fs.String("tab", "", "show the tab whose title starts with `NAME` (e.g. Findings)")
	fs.String("select", "", "select the message of `TOPIC@TIME` nearest TIME: seconds from the bag's start, or since the epoch")
	fs.String("range", "", "show the time window `START:END` (seconds from the bag's start, or since the epoch) in the timeline and plots")
	fs.String("size", "", "open bag windows (and render --screenshot) at `WxH` pixels, e.g. 1024x640")
	fs.StringArray("plot", nil, "plot `PATHS` (e.g. /imu.linear_acceleration.x; commas put several in one plot); repeat for more plots")
	fs.String("find", "", "open the Find bar and search for `EXPR` (as `bagscope find` does)")
	fs.String("compare", "", "show the Diff tab comparing FILE with recording `B` (as `bagscope diff FILE B` does)")
	fs.StringArray("add", nil, "show `FILE` in the window of the first FILE too, its topics under B: (then C:, …), aligned start to start (File › Add Recording…); repeatable")
	fs.Bool("library", false, "show each DIR (a folder of recordings, or a catalogue) as a library, as File › Open Library… does")
	fs.String("query", "", "with --library: run `SQL` in the library's query box (as bagscope sql runs it)")
}

// windowArgs checks the root's arguments: each an existing file or
// folder. A first word that is not one, and looks like no path, is a
// mistyped command.
func (e *env) windowArgs(cmd *cobra.Command, args []string) error {
	for i, a := range args {
		if bag.IsURL(a) {
			continue // the window opens it in place
		}
		if _, err := os.Stat(a); err == nil {
			continue
		}
		if i == 0 && !strings.ContainsAny(a, `./\`) {
			return unknownCommand(cmd, a)
		}
		return usagef("%s: no such file or folder", a)
	}
	return nil
}

// openWindow opens the window, when there is a display.
func (e *env) openWindow(cmd *cobra.Command, args []string) error {
	if e.getenv("DISPLAY") == "" && e.getenv("WAYLAND_DISPLAY") == "" {
		fmt.Fprintln(e.stderr, "bagscope: no display (DISPLAY and WAYLAND_DISPLAY are unset): run a headless command such as `bagscope info FILE`")
		if len(args) > 0 {
			fmt.Fprintf(e.stderr, "  e.g. bagscope info %s   (bagscope --help lists the commands)\n", shellQuote(args[0]))
		}
		return exitStatus(ExitUsage)
	}
	if e.window == nil {
		fmt.Fprintln(e.stderr, "bagscope: this program has no window: run bagscope, or a headless command such as `bagscope info FILE`")
		return exitStatus(ExitUsage)
	}
	var argv []string
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, s := range sv.GetSlice() {
				argv = append(argv, "--"+f.Name+"="+s)
			}
			return
		}
		argv = append(argv, "--"+f.Name+"="+f.Value.String())
	})
	argv = append(append(argv, "--"), args...)
	return status(e.window(argv))
}

// flagError turns a flag the library could not parse into a usage error,
// with the flags of the command it is closest to.
func flagError(c *cobra.Command, err error) error {
	msg := err.Error()
	name, ok := strings.CutPrefix(msg, "unknown flag: --")
	if !ok {
		return usagef("%s", msg)
	}
	var names []string
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	if s := closest(name, names, 2); len(s) > 0 {
		msg += " (did you mean --" + strings.Join(s, ", --") + "?)"
	}
	return usagef("%s", msg)
}

// shellQuote quotes s for a shell when it needs it.
func shellQuote(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[]{}()<>|&;#~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
