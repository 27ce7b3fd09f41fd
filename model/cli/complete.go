package cli

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/series"
)

// completeFiles completes a FILE argument: the shell's own file names.
func completeFiles(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveDefault
}

// completeTopics completes --topics and --exclude with the topics of the
// recording named first on the line, before the flag or after it.
func completeTopics(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	file := ""
	if len(args) > 0 {
		file = args[0]
	} else {
		file = fileOnLine(cmd, os.Getenv(compLineEnv))
	}
	if file == "" {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	msgDirs(cmd)
	b, err := model.OpenStorage(file)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	defer b.Close()
	// A comma-separated list completes its last item.
	done, last := "", toComplete
	if i := strings.LastIndexByte(toComplete, ','); i >= 0 {
		done, last = toComplete[:i+1], toComplete[i+1:]
	}
	var out []cobra.Completion
	for _, t := range series.Topics(b) {
		if strings.HasPrefix(t, last) || strings.HasPrefix(t, "/"+last) {
			out = append(out, done+t)
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

// completeSeries completes plot's arguments: the file, then field paths
// of its topics as the window's plot box offers them.
func completeSeries(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) == 0 {
		return nil, cobra.ShellCompDirectiveDefault
	}
	msgDirs(cmd)
	b, err := model.OpenStorage(args[0])
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	defer b.Close()
	var cache rosmsg.Cache
	return series.CompleteField(b, &cache, toComplete, 200), cobra.ShellCompDirectiveNoSpace | cobra.ShellCompDirectiveNoFileComp
}

// compLineEnv is the environment variable in which the completion scripts
// hand the whole command line to the completion request: the shells give
// cobra only the words before the cursor, so a file named after --topics
// would not be seen.
const compLineEnv = "BAGSCOPE_COMP_LINE"

// fileOnLine returns the first word of a shell command line (as
// compLineEnv holds it) that names an existing file or folder and is
// neither the program, cmd's name, a flag nor a flag's value; or "". A
// word in simple or double quotes loses them; a line with other shell
// syntax may find nothing, which completes nothing.
func fileOnLine(cmd *cobra.Command, line string) string {
	words := strings.Fields(line)
	if len(words) == 0 {
		return ""
	}
	named := false
	for i := 1; i < len(words); i++ {
		w := words[i]
		if len(w) >= 2 && (w[0] == '\'' || w[0] == '"') && w[len(w)-1] == w[0] {
			w = w[1 : len(w)-1]
		}
		switch {
		case w == "--":
			continue
		case strings.HasPrefix(w, "-"):
			if name, ok := strings.CutPrefix(w, "--"); ok && !strings.Contains(name, "=") {
				if f := lookupFlag(cmd, name, ""); f != nil && f.NoOptDefVal == "" {
					i++ // its value is the next word
				}
			} else if len(w) == 2 {
				if f := lookupFlag(cmd, "", w[1:]); f != nil && f.NoOptDefVal == "" {
					i++
				}
			}
			continue
		case !named && w == cmd.Name():
			named = true
			continue
		}
		if _, err := os.Stat(w); err == nil {
			return w
		}
	}
	return ""
}

// lookupFlag finds cmd's flag (its own or inherited) by name or shorthand.
func lookupFlag(cmd *cobra.Command, name, short string) *pflag.Flag {
	for _, fs := range []*pflag.FlagSet{cmd.Flags(), cmd.InheritedFlags()} {
		if name != "" {
			if f := fs.Lookup(name); f != nil {
				return f
			}
		} else if f := fs.ShorthandLookup(short); f != nil {
			return f
		}
	}
	return nil
}

// compLinePatches hand the whole command line to the completion request,
// in compLineEnv, for each shell whose script cobra generates: bash's
// COMP_LINE, zsh's BUFFER, fish's commandline. Each replaces the line of
// cobra's script that runs the request.
var compLinePatches = map[string][2]string{
	"bash": {`out=$(eval "${requestComp}" 2>/dev/null)`, `out=$(export ` + compLineEnv + `="${COMP_LINE-}"; eval "${requestComp}" 2>/dev/null)`},
	"zsh":  {`out=$(eval ${requestComp} 2>/dev/null)`, `out=$(export ` + compLineEnv + `="$BUFFER"; eval ${requestComp} 2>/dev/null)`},
	"fish": {`set -l results (eval $requestComp 2> /dev/null)`, `set -lx ` + compLineEnv + ` (commandline)
    set -l results (eval $requestComp 2> /dev/null)`},
}

// compScripts generate each shell's script as cobra's completion command
// does (with descriptions unless asked not to).
var compScripts = map[string]func(root *cobra.Command, w *bytes.Buffer, desc bool) error{
	"bash": func(root *cobra.Command, w *bytes.Buffer, desc bool) error { return root.GenBashCompletionV2(w, desc) },
	"zsh": func(root *cobra.Command, w *bytes.Buffer, desc bool) error {
		if desc {
			return root.GenZshCompletion(w)
		}
		return root.GenZshCompletionNoDesc(w)
	},
	"fish": func(root *cobra.Command, w *bytes.Buffer, desc bool) error { return root.GenFishCompletion(w, desc) },
}

// passCompletionLine makes root's `completion bash|zsh|fish` print cobra's
// script with compLinePatches applied. A script whose line is not found
// (a cobra that changed it) is an error, which a test catches.
func passCompletionLine(root *cobra.Command) {
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		for _, sh := range c.Commands() {
			patch, ok := compLinePatches[sh.Name()]
			gen := compScripts[sh.Name()]
			if !ok || gen == nil {
				continue
			}
			sh.RunE = func(cmd *cobra.Command, args []string) error {
				noDesc, _ := cmd.Flags().GetBool("no-descriptions")
				var buf bytes.Buffer
				if err := gen(root, &buf, !noDesc); err != nil {
					return err
				}
				script := buf.String()
				if !strings.Contains(script, patch[0]) {
					return fmt.Errorf("completion %s: cobra's script no longer has the line %q that hands it the command line", cmd.Name(), patch[0])
				}
				_, err := fmt.Fprint(cmd.OutOrStdout(), strings.Replace(script, patch[0], patch[1], 1))
				return err
			}
		}
	}
}
