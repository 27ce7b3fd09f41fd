package cli

import (
	"strconv"
	"strings"

	"github.com/spf13/cobra"
)

// catalogRequest is what the catalog command asks of model/catalog (in
// catalog_run.go, which the front does not build).
type catalogRequest struct {
	out, shard    string
	i, n, jobs    int
	scan, readAll bool
	asJSON        bool
}

func newCatalog(e *env) *cobra.Command {
	c := &cobra.Command{
		Use:   "catalog [flags] DIR|FILE|URL... -o CATALOG",
		Short: "write a library of recordings (one row per recording and per topic) as Parquet",
		Long: `catalog finds the recordings under each DIR (files, and rosbag2 folders as one recording each; an
S3 prefix URL too) and writes two Parquet tables under CATALOG, Hive-partitioned so that DuckDB,
Spark, Trino and Athena read them in place:

  CATALOG/recordings/shard=I-of-N/recordings.parquet   path, format, size, start, end, duration,
      messages, health (what was lost, as every command reports it), metadata (rosbag2 custom_data,
      MCAP metadata records, as JSON)
  CATALOG/topics/shard=I-of-N/topics.parquet           path, topic, type, messages, rate, min/median/
      max interval, gaps over 3x the median, bytes (with --read-all), QoS

Each recording is read from its index or summary only; one without (unindexed, cut) is listed as not
read unless --scan. A recording whose size and modification time are unchanged since the last run
is not read again; for an S3 prefix, whose listing gives each object's size, ETag and Last-Modified,
an unchanged run makes listing requests only (a rosbag2 prefix, one holding a metadata.yaml, is one
recording; an http(s) URL names one recording, and is asked for its ETag by the suffix read that opens
it). A remote recording that cannot be read (HTTP 403, 404, changed during the read) is a row whose
health says why, tried again by the next run. --shard I/N takes the recordings whose path hashes to I of N, so N processes
(a Kubernetes indexed Job, Spark, Ray tasks) write one catalogue together, each its partition.
Exit 1 when a recording could not be read (its row says why).`,
		Example: `  bagscope catalog /data/fleet -o /data/catalog
  bagscope catalog s3://fleet/2026/ -o catalog --shard 3/16
  bagscope catalog s3://fleet/2026/ --endpoint-url http://minio:9000 -o catalog
  duckdb -c "SELECT path, health FROM read_parquet('catalog/recordings/*/*.parquet') WHERE NOT healthy"`,
		Args:              cobra.MinimumNArgs(1),
		ValidArgsFunction: completeFiles,
	}
	f := c.Flags()
	out := f.StringP("output", "o", "", "the catalogue's folder `CATALOG` (made if missing; this shard's partition is replaced)")
	shard := f.String("shard", "0/1", "catalogue only the recordings of shard `I/N` (0 <= I < N), by a hash of their path")
	scan := f.Bool("scan", false, "read recordings that have no index or summary by scanning them")
	readAll := f.Bool("read-all", false, "read every message: each topic's bytes, and damage inside chunks and pages")
	jobs := f.Int("jobs", 0, "recordings read at once (default: the CPUs)")
	asJSON := f.Bool("json", false, "print one JSON object: what was read, kept and written")
	c.MarkFlagDirname("output")
	c.RunE = func(cmd *cobra.Command, args []string) error {
		msgDirs(cmd)
		if *out == "" {
			return usagef("catalog: give the catalogue's folder with -o CATALOG")
		}
		i, n, err := parseShard(*shard)
		if err != nil {
			return err
		}
		if !tablesLinked {
			return handOffTables("write a catalogue (Parquet)")
		}
		return writeCatalog(e, args, catalogRequest{out: *out, shard: *shard, i: i, n: n, scan: *scan, readAll: *readAll, jobs: *jobs, asJSON: *asJSON})
	}
	return c
}

// parseShard reads --shard I/N.
func parseShard(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, usagef("--shard %q: give I/N with 0 <= I < N (3/16)", s)
	}
	return i, n, nil
}
