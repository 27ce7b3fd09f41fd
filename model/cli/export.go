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
overwritten without --force. --json prints what was written as one JSON object. Exit 1 when a part
of FILE could not be read (said on stderr).`,
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
	asJSON := c.Flags().Bool("json", false, "print one JSON object: each table written (path, topic, type, rows, columns), the topics not exported, what was lost, and a verdict")
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
		return runExport(b, in, dir, opt, *asJSON, e.stdout, e.stderr)
	}
	return c
}

// exportJSON is export's --json object.
type exportJSON struct {
	// Path is the recording, Output the folder written.
	Path     string            `json:"path"`
	Output   string            `json:"output"`
	Format   string            `json:"format"`
	Messages int64             `json:"messages"`
	Tables   []exportTableJSON `json:"tables"`
	Skipped  []exportSkipJSON  `json:"skipped"`
	Lost     lossJSON          `json:"lost"`
	// OK is true when every selected message has its row; Verdict is
	// "ok", "problems" (exit 1) or "failed" (nothing written).
	OK      bool   `json:"ok"`
	Verdict string `json:"verdict"`
	// Error is why nothing could be written.
	Error string `json:"error,omitempty"`
}

// exportTableJSON is one table written.
type exportTableJSON struct {
	Path    string `json:"path"`
	Topic   string `json:"topic"`
	Type    string `json:"type"`
	Rows    int64  `json:"rows"`
	Columns int    `json:"columns"`
	// Failed counts the messages that do not decode: they have no row.
	Failed int64 `json:"failed"`
}

// exportSkipJSON is a topic not exported, and why.
type exportSkipJSON struct {
	Topic string `json:"topic"`
	Type  string `json:"type"`
	Why   string `json:"why"`
}

func runExport(b bag.Storage, in, dir string, opt export.Options, asJSON bool, stdout, stderr io.Writer) error {
	pl := newProgress(stderr, "exporting")
	opt.Progress = pl.update
	rep, err := export.Export(context.Background(), b, dir, opt)
	pl.end()
	if err != nil {
		if rep == nil && strings.Contains(err.Error(), "exists") {
			return usagef("%v", err)
		}
		if asJSON {
			writeJSON(stdout, exportJSON{Path: in, Output: dir, Format: opt.Format, Tables: []exportTableJSON{},
				Skipped: []exportSkipJSON{}, Lost: noLoss(), Verdict: "failed", Error: err.Error()})
		}
		return status(fail(stderr, in, err))
	}
	j := exportJSON{Path: in, Output: dir, Format: opt.Format, Messages: rep.Messages, Tables: []exportTableJSON{}, Skipped: []exportSkipJSON{}}
	for _, t := range rep.Tables {
		if asJSON {
			j.Tables = append(j.Tables, exportTableJSON{t.Path, t.Topic, t.Type, t.Rows, t.Columns, t.Failed})
			continue
		}
		fmt.Fprintf(stdout, "%s  %d rows, %d columns  (%s, %s)\n", t.Path, t.Rows, t.Columns, t.Topic, t.Type)
	}
	code := ExitOK
	for _, s := range rep.Skipped {
		j.Skipped = append(j.Skipped, exportSkipJSON{s.Topic, s.Type, s.Err.Error()})
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
	if asJSON {
		j.Lost, j.OK, j.Verdict = l.json(), code == ExitOK, "ok"
		if code != ExitOK {
			j.Verdict = "problems"
		}
		writeJSON(stdout, j)
	}
	return status(code)
}
