package cli

import (
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/bag"
)

// The formats export writes (model/export's Parquet and CSV).
const (
	formatParquet = "parquet"
	formatCSV     = "csv"
)

// exportRequest is what the export command asks of model/export (in
// export_run.go, which the front does not build).
type exportRequest struct {
	format             string
	filter             bag.MessageFilter
	hive, force, clock bool
	recording          string
}

func newExport(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "export [flags] FILE|DIR|URL... OUTDIR",
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
overwritten without --force. --json prints what was written as one JSON object. Exit 1 when a part
of FILE could not be read (said on stderr).

Given many inputs (recordings, folders of recordings, S3 prefixes; listed as catalog lists them),
export writes each recording to its own partition, so --hive is required: OUTDIR/topic=T/
recording=NAME/NAME.parquet, NAME the recording's path below its input without its extension
("day1/run3", escaped in the partition). --shard I/N exports only the recordings whose path hashes to I
of N (the hash catalog --shard uses), so N processes (a Kubernetes indexed Job, Spark, Ray tasks) write
one dataset together. A recording without the topics (or range) selected is passed over, said on
stderr; a selection that none has is a usage mistake. Each recording's losses are reported as for one; exit 1 when any recording lost
data or could not be read. --json prints one object listing each recording's tables.`,
		Example: `  bagscope export x.bag out/ --format parquet
  bagscope export x.mcap out/ --format csv --topics /imu,/odom --range 10:20
  bagscope export run42.mcap lake/ --hive
  bagscope export /data/fleet s3://fleet/2026/ lake/ --hive --shard 3/16
  duckdb -c "SELECT recording, avg(\"linear_acceleration.z\") FROM read_parquet('lake/topic=%2Fimu/*/*.parquet', hive_partitioning=true) GROUP BY ALL"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 {
				return files("FILE", "OUTDIR")(cmd, args)
			}
			return nil
		},
		ValidArgsFunction: completeFiles,
	}
	sel := addSelection(c)
	format := c.Flags().String("format", formatParquet, "parquet or csv")
	hive := c.Flags().Bool("hive", false, "write OUTDIR/topic=T/recording=R/R.parquet (Hive partitions)")
	recording := c.Flags().String("recording", "", "the recording's `NAME` in the Hive layout (default: FILE's name)")
	clock := c.Flags().Bool("clock", false, "add the column clock_time: the sim time of /clock at each message")
	force := c.Flags().Bool("force", false, "overwrite tables that exist")
	shard := c.Flags().String("shard", "0/1", "export only the recordings of shard `I/N` (0 <= I < N), by a hash of their path (as catalog --shard)")
	asJSON := c.Flags().Bool("json", false, "print one JSON object: each table written (path, topic, type, rows, columns), the topics not exported, what was lost, and a verdict")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		inputs, dir := args[:len(args)-1], args[len(args)-1]
		fmtName := strings.ToLower(*format)
		if fmtName != formatParquet && fmtName != formatCSV {
			return usagef("--format %q: want parquet or csv", *format)
		}
		if st, err := os.Stat(dir); err == nil && !st.IsDir() {
			return usagef("%s is a file: OUTDIR is a folder", dir)
		}
		if !tablesLinked {
			return handOffTables("write Parquet or CSV tables")
		}
		req := exportRequest{format: fmtName, hive: *hive, recording: *recording, force: *force, clock: *clock}
		if many, err := exportInputs(e, cmd, sel, inputs, dir, req, *asJSON, *shard, cmd.Flags().Changed("shard")); many {
			return err
		}
		in := inputs[0]
		b, err := e.openRecording(cmd, in)
		if err != nil {
			return err
		}
		defer b.Close()
		f, err := sel.resolve(b)
		if err != nil {
			return err
		}
		req.filter = f
		return runExport(b, in, dir, req, *asJSON, e.stdout, e.stderr)
	}
	return c
}
