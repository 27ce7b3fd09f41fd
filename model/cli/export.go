package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/export"
)

func newExport(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "export [flags] FILE OUTDIR",
		Short: "write each topic as a Parquet or CSV table for pandas, polars, DuckDB and Spark",
		Long: `export writes one table per topic under OUTDIR (OUTDIR/TOPIC.parquet, the topic's slashes as folders):
a row per message in receive-time order; the columns log_time, publish_time (and header_stamp for types
with a header), timestamps in nanoseconds (UTC), then the message's fields flattened in definition
order ("pose.position.x"). Parquet keeps the definition's types: int64 stays int64, uint8[] is binary,
other arrays are lists (of structs for messages), ROS 1 times are secs and nsecs; every export of a type
has the same schema, so the exports of many recordings read as one dataset. CSV spreads short fixed
arrays over columns (covariance[0]...) and writes other arrays as JSON, and the times in nanoseconds.
--hive writes OUTDIR/topic=%2Fimu/recording=NAME/NAME.parquet, the partitions DuckDB, Spark and
polars read. Memory stays bounded whatever the recording's size. Tables that exist are not
overwritten without --force. Exit 1 when a part of FILE could not be read (said on stderr).`,
		Example: `  bagscope export x.bag out/ --format parquet
  bagscope export x.mcap out/ --format csv --topics /imu,/odom --range 10:20
  bagscope export run42.mcap lake/ --hive
  duckdb -c "SELECT recording, avg(\"linear_acceleration.z\") FROM read_parquet('lake/topic=%2Fimu/*/*.parquet', hive_partitioning=true) GROUP BY ALL"`,
		Args:              files("FILE", "OUTDIR"),
		ValidArgsFunction: completeFiles,
	}
	sel := addSelection(c)
	format := c.Flags().String("format", export.Parquet, "parquet or csv")
	hive := c.Flags().Bool("hive", false, "write OUTDIR/topic=T/recording=R/R.parquet (Hive partitions)")
	recording := c.Flags().String("recording", "", "the recording's `NAME` in the Hive layout (default: FILE's name)")
	clock := c.Flags().Bool("clock", false, "add the column clock_time: the sim time of /clock at each message")
	force := c.Flags().Bool("force", false, "overwrite tables that exist")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		in, dir := args[0], args[1]
		fmtName := strings.ToLower(*format)
		if fmtName != export.Parquet && fmtName != export.CSV {
			return usagef("--format %q: want parquet or csv", *format)
		}
		if st, err := os.Stat(dir); err == nil && !st.IsDir() {
			return usagef("%s is a file: OUTDIR is a folder", dir)
		}
		b, err := e.openRecording(cmd, in)
		if err != nil {
			return err
		}
		defer b.Close()
		f, err := sel.resolve(b)
		if err != nil {
			return err
		}
		opt := export.Options{Format: fmtName, Filter: f, Hive: *hive, Recording: *recording, Force: *force, Clock: *clock}
		return runExport(b, in, dir, opt, e.stdout, e.stderr)
	}
	return c
}

func runExport(b bag.Storage, in, dir string, opt export.Options, stdout, stderr io.Writer) error {
	pl := newProgress(stderr, "exporting")
	opt.Progress = pl.update
	rep, err := export.Export(context.Background(), b, dir, opt)
	pl.end()
	if err != nil {
		if rep == nil && strings.Contains(err.Error(), "exists") {
			return usagef("%v", err)
		}
		return status(fail(stderr, in, err))
	}
	for _, t := range rep.Tables {
		fmt.Fprintf(stdout, "%s  %d rows, %d columns  (%s, %s)\n", t.Path, t.Rows, t.Columns, t.Topic, t.Type)
	}
	code := ExitOK
	for _, s := range rep.Skipped {
		fmt.Fprintf(stderr, "bagscope: %s: not exported: %s (%s): %v\n", in, s.Topic, s.Type, s.Err)
	}
	for _, t := range rep.Tables {
		if t.Failed > 0 {
			fmt.Fprintf(stderr, "bagscope: %s: %s: %d messages do not decode as %s: they have no row\n", in, t.Topic, t.Failed, t.Type)
			code = ExitProblems
		}
	}
	l := rangesLoss(b, rep.Lost, true)
	l.print(stderr, in)
	if l.any() {
		code = ExitProblems
	}
	return status(code)
}
