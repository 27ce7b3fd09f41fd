package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/spf13/cobra"

	"github.com/bagscope/bagscope/model/sqlhelper"
)

// newSQL is `bagscope sql`: it runs bagscope-sql (model/sqlhelper), which
// links DuckDB, which this package must not (the front's start-up, and
// info's, stay small).
func newSQL(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "sql [flags] 'SELECT ...'",
		Short: "run SQL (DuckDB) over a catalogue of recordings and over their messages",
		Long: `sql runs a query in embedded DuckDB. With --catalog CATALOG (written by bagscope catalog) the
tables recordings and topics are the catalogue's. messages('PATH', 'TOPIC') is a table of one topic's
messages in a recording of any format: the log_time, publish_time (and header_stamp) columns, then
every field flattened as bagscope export flattens it (pose.position.x; arrays are lists). Its
arguments are quoted strings. DuckDB's whole SQL is there: joins, windows, read_parquet, COPY.
Exit 1 when part of a recording could not be read (said on stderr), 2 for an error in the query.
The query runs in bagscope-sql, a binary of its own that make build puts beside bagscope.`,
		Example: `  bagscope sql --catalog cat "SELECT r.path, t.rate FROM topics t JOIN recordings r USING (path) WHERE t.topic = '/scan' AND t.longest_gap > 1"
  bagscope sql "SELECT count(*), avg(percentage) FROM messages('run.mcap', '/battery') WHERE percentage < 0.2"
  bagscope sql --json "SELECT log_time, \"linear.x\" FROM messages('x.bag', '/cmd_vel') LIMIT 5"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("sql: give one query (got %d arguments); quote it: bagscope sql 'SELECT ...'", len(args))
			}
			return nil
		},
	}
	f := c.Flags()
	cat := f.String("catalog", "", "the catalogue folder `CATALOG` (bagscope catalog -o) whose tables are recordings and topics")
	asJSON := f.Bool("json", false, "print one JSON object per row")
	asCSV := f.Bool("csv", false, "print CSV with a header line")
	c.MarkFlagDirname("catalog")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		if *asJSON && *asCSV {
			return usagef("sql: give --json or --csv, not both")
		}
		bin, err := sqlhelper.Find()
		if err != nil {
			fmt.Fprintf(e.stderr, "bagscope: sql needs %s: %v\n", sqlhelper.Name, err)
			return status(ExitProblems)
		}
		argv := []string{}
		if *cat != "" {
			argv = append(argv, "--catalog", *cat)
		}
		if *asJSON {
			argv = append(argv, "--json")
		}
		if *asCSV {
			argv = append(argv, "--csv")
		}
		if e.openOptions().AllowRemoteScan {
			argv = append(argv, "--allow-remote-scan")
		}
		run := exec.Command(bin, append(argv, "--", args[0])...)
		run.Stdin, run.Stdout, run.Stderr = os.Stdin, e.stdout, e.stderr
		if ep, _ := cmd.Flags().GetString("endpoint-url"); ep != "" {
			// The helper reads s3:// URLs from the store asked for.
			run.Env = append(os.Environ(), "AWS_ENDPOINT_URL="+ep)
		}
		err = run.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return status(ee.ExitCode())
		}
		if err != nil {
			fmt.Fprintf(e.stderr, "bagscope: starting %s: %v\n", bin, err)
			return status(ExitProblems)
		}
		return nil
	}
	return c
}
