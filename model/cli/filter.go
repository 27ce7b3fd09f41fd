package cli

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg/expr"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/query"
)

func newFilter(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "filter [flags] IN OUT",
		Short: "write the selected messages of a recording to a new ROS 1 bag, MCAP or .db3, byte for byte",
		Long: `filter copies the messages of IN that --topics, --exclude, --range and --where select into OUT,
in the format OUT's extension (.bag, .mcap, .db3) or --format names: every payload byte for byte,
each kept topic's definition, QoS and connection header fields as they were. Only the chunks in
--range are read. --where keeps the messages an expression holds for (find's grammar); topics it
cannot read are left out (said on stderr). A ROS 1 bag holds ROS 1 messages and a .db3 ROS 2 (CDR)
messages only: filter refuses to mix them. IN is never written; OUT is not overwritten without
--force and appears only when complete. --json prints what was written as one JSON object. Exit 3
when a part of IN could not be read (said on stderr).`,
		Example: `  bagscope filter big.mcap cut.mcap --range 120:130
  bagscope filter x.bag imu_only.bag --topics /imu
  bagscope filter x.db3 x.mcap --exclude '/camera/*'
  bagscope filter run.mcap errors.mcap --where 'level >= ERROR' --topics /rosout`,
		Args:              files("IN", "OUT"),
		ValidArgsFunction: completeFiles,
	}
	sel := addSelection(c)
	where := c.Flags().String("where", "", "keep the messages the expression `EXPR` holds for (see bagscope find --help)")
	format := c.Flags().String("format", "", "OUT's format: bag, mcap or db3 (default: OUT's extension)")
	compression := c.Flags().String("compression", "", "compression of OUT's chunks: none, lz4 or zstd (.mcap), none, bz2 or lz4 (.bag); default: the format's")
	force := c.Flags().Bool("force", false, "overwrite OUT if it exists (never IN)")
	asJSON := c.Flags().Bool("json", false, "print one JSON object: what was written per topic, what was read and lost, and a verdict")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		in, out := args[0], args[1]
		if err := model.CheckRepairOutput(in, out, *force); err != nil {
			return usagef("%v", err)
		}
		if _, err := query.FilterFormat(out, *format); err != nil {
			return usagef("%v", err)
		}
		src, err := e.openRecording(cmd, in)
		if err != nil {
			return err
		}
		defer src.Close()
		f, err := sel.resolve(src)
		if err != nil {
			return err
		}
		opt := query.FilterOptions{Filter: f, Where: *where, Format: *format, Compression: *compression}
		return runFilter(src, in, out, opt, *asJSON, e.stdout, e.stderr)
	}
	return c
}

// filterJSON is filter's --json object: fix's and convert's, with the
// messages read and those the expression could not be evaluated on.
type filterJSON struct {
	copyJSON
	Read   int64 `json:"read"`
	Failed int64 `json:"failed"`
}

func runFilter(src bag.Storage, in, out string, opt query.FilterOptions, asJSON bool, stdout, stderr io.Writer) error {
	defer removeTempsOnSignal()()
	pl := newProgress(stderr, "filtering")
	opt.Progress = pl.update
	rep, err := query.Filter(context.Background(), src, out, opt)
	pl.end()
	if err != nil {
		var xe *expr.Error
		if rep == nil && opt.Where != "" && errors.As(err, &xe) {
			return exprUsage(opt.Where, err)
		}
		if rep == nil && err.Error() == "the selection leaves no topic to write" {
			return usagef("%v", err)
		}
		if asJSON {
			writeJSON(stdout, filterJSON{copyJSON: copyFailure(in, out, err)})
		}
		return status(fail(stderr, in, err))
	}
	if !asJSON {
		fmt.Fprintf(stdout, "wrote %s (%s): %d of %d messages read, %d connections, %s compression\n", out, rep.Format, rep.Messages, rep.Read, rep.Connections, rep.Compression)
	}
	printUnread(stderr, in, "left out", rep.Unread)
	code := ExitOK
	if rep.Failed > 0 {
		first := rep.First[0]
		fmt.Fprintf(stderr, "bagscope: %s: %s: %d messages left out that the expression could not be evaluated on (the first on %s at %s: %v)\n",
			in, bag.Where(src, first.Loc), rep.Failed, first.Topic, first.Time, first.Err)
		code = ExitProblems
	}
	if !rep.Complete() {
		l := rangesLoss(src, rep.Lost, true)
		l.print(stderr, in)
		code = ExitPartial
	}
	if asJSON {
		j := filterJSON{copyJSON: copyReport(src, in, out, rep.RepairReport, code), Read: rep.Read, Failed: rep.Failed}
		j.Format, j.Connections = rep.Format, rep.Connections
		if code == ExitProblems {
			j.OK, j.Verdict = false, "problems"
		}
		writeJSON(stdout, j)
	}
	return status(code)
}
