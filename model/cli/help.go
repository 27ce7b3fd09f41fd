package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// peerWords are the commands of rosbag, ros2 bag, rostopic and the mcap CLI
// a user of them types, each suggesting the bagscope command that does its
// job (cobra's SuggestFor).
var peerWords = map[string][]string{
	"cat":   {"echo", "play"},
	"fix":   {"reindex", "recover", "repair"},
	"check": {"doctor"},
	"info":  {"show"},
}

// unknownCommand is the usage mistake of a word that names no command and
// no file, with the commands it may mean.
func unknownCommand(root *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command '%s'", word)
	if s := root.SuggestionsFor(word); len(s) > 0 {
		msg += " (did you mean " + strings.Join(s, ", ") + "?)"
	}
	return usagef("%s", msg)
}

// setupHelp makes `bagscope WORD --help` and `bagscope help WORD`, where
// WORD names no command and no file, the usage mistake of a mistyped
// command (with suggestions), as `bagscope WORD` is, rather than the
// root's help with exit 0; and lets the peers' command names suggest
// bagscope's. The mistake is kept in e.helpErr for Execute.
func (e *env) setupHelp(root *cobra.Command) {
	for _, c := range root.Commands() {
		c.SuggestFor = append(c.SuggestFor, peerWords[c.Name()]...)
	}
	help := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c == root {
			if err := e.windowArgs(c, c.Flags().Args()); err != nil {
				e.helpErr = err
				return
			}
		}
		help(c, args)
	})
	root.SetHelpCommand(&cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "help COMMAND prints the command's help: what it does, its flags, examples and the exit status.",
		ValidArgsFunction: func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			var names []cobra.Completion
			if len(args) == 0 {
				for _, s := range root.Commands() {
					if s.IsAvailableCommand() && strings.HasPrefix(s.Name(), toComplete) {
						names = append(names, cobra.CompletionWithDesc(s.Name(), s.Short))
					}
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			cmd, _, err := root.Find(args)
			if err != nil {
				return usagef("%v", err)
			}
			if cmd == root && len(args) > 0 {
				e.helpErr = unknownCommand(root, args[0])
				return nil
			}
			cmd.InitDefaultHelpFlag()
			cmd.InitDefaultVersionFlag()
			return cmd.Help()
		},
	})
}
