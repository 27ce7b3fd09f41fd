package cli

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
)

func newConvert(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "convert [flags] IN OUT",
		Short: "write a recording in another format: a ROS 1 bag as MCAP and back",
		Long: `convert writes IN in the format OUT's name asks for: a ROS 1 bag as MCAP (ros1 profile, the
connection headers kept as channel metadata) and back, every message byte-equal. IN is never
written; OUT is not overwritten without --force. Exit 3 when a part of IN could not be converted
(said on stderr).`,
		Example: `  bagscope convert old.bag old.mcap
  bagscope convert x.mcap x.bag --compression lz4`,
		Args:              files("IN", "OUT"),
		ValidArgsFunction: completeFiles,
	}
	compression := c.Flags().String("compression", "", "compression of OUT's chunks: none, lz4 or zstd (.mcap), none, bz2 or lz4 (.bag); default: the format's")
	force := c.Flags().Bool("force", false, "overwrite OUT if it exists (never IN)")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		in, out := args[0], args[1]
		if err := model.CheckRepairOutput(in, out, *force); err != nil {
			return usagef("%v", err)
		}
		src, err := e.openRecording(cmd, in)
		if err != nil {
			return err
		}
		defer src.Close()
		return status(runConvert(src, in, out, *compression, e.stdout, e.stderr))
	}
	return c
}

func runConvert(src bag.Storage, in, out, compression string, stdout, stderr io.Writer) int {
	defer removeTempsOnSignal()()
	rep, err := model.WriteConverted(src, out, compression)
	if err != nil {
		return fail(stderr, in, err)
	}
	fmt.Fprintf(stdout, "wrote %s: %d messages, %d connections, %s compression\n", out, rep.Messages, len(src.Connections()), rep.Compression)
	for _, r := range rep.Lost {
		fmt.Fprintf(stderr, "bagscope: %s: not converted: %s\n", in, r)
	}
	if !rep.Complete() {
		return ExitPartial
	}
	return ExitOK
}
