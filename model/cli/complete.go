package cli

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/series"
)

// completeFiles completes a FILE argument: the shell's own file names.
func completeFiles(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
	return nil, cobra.ShellCompDirectiveDefault
}

// completeTopics completes --topics and --exclude with the topics of the
// recording named first on the line.
func completeTopics(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) == 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	msgDirs(cmd)
	b, err := model.OpenStorage(args[0])
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
