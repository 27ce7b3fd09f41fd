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
connection headers kept as channel metadata) and back, every message byte-equal. --topics,
--exclude and --range convert a part of IN. IN is never written; OUT is not overwritten without
--force. Exit 3 when a part of IN could not be converted (said on stderr).`,
		Example: `  bagscope convert old.bag old.mcap
  bagscope convert x.mcap x.bag --compression lz4
  bagscope convert x.bag imu.mcap --topics '/imu*' --range 5: --json`,
		Args:              files("IN", "OUT"),
		ValidArgsFunction: completeFiles,
	}
	sel := addSelection(c)
	compression := c.Flags().String("compression", "", "compression of OUT's chunks: none, lz4 or zstd (.mcap), none, bz2 or lz4 (.bag); default: the format's")
	force := c.Flags().Bool("force", false, "overwrite OUT if it exists (never IN)")
	asJSON := c.Flags().Bool("json", false, "print one JSON object: what was written per topic, what could not be converted, and a verdict")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		in, out := args[0], args[1]
		if err := model.CheckRepairOutput(in, out, *force); err != nil {
			return usagef("%v", err)
		}
		src, err := e.openRecording(cmd, in)
		if err != nil {
			if *asJSON {
				writeJSON(e.stdout, copyFailure(in, out, openCause(err)))
			}
			return err
		}
		defer src.Close()
		f, err := sel.resolve(src)
		if err != nil {
			return err
		}
		o := copyOptions{in: in, out: out, compression: *compression, json: *asJSON, sel: sel}
		return status(runConvert(bag.Select(src, f), o, e.stdout, e.stderr))
	}
	return c
}

func runConvert(src bag.Storage, o copyOptions, stdout, stderr io.Writer) int {
	defer removeTempsOnSignal()()
	rep, err := model.WriteConverted(src, o.out, o.compression)
	if err != nil {
		if o.json {
			writeJSON(stdout, copyFailure(o.in, o.out, err))
		}
		return fail(stderr, o.in, err)
	}
	code := ExitOK
	if !rep.Complete() {
		code = ExitPartial
	}
	if o.json {
		writeJSON(stdout, copyReport(src, o.in, o.out, rep, code))
	} else {
		fmt.Fprintf(stdout, "wrote %s: %d messages, %d connections, %s compression\n", o.out, rep.Messages, len(src.Connections()), rep.Compression)
	}
	if o.sel != nil {
		o.sel.noteEmpty(stderr, o.in, rep.Messages)
	}
	// What could not be converted is said on stderr, as every command
	// that reads says it.
	l := rangesLoss(src, rep.Lost, true)
	l.print(stderr, o.in)
	return code
}
