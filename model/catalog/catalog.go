// Package catalog builds a library of recordings: one row per recording
// (its path, format, size, times, counts, health and metadata) and one per
// topic (type, count, rate, intervals, gaps, bytes, QoS), written as
// Hive-partitioned Parquet that DuckDB, Spark, Trino and Athena read in
// place:
//
//	CATALOG/recordings/shard=I-of-N/recordings.parquet
//	CATALOG/topics/shard=I-of-N/topics.parquet
//
// Each recording is read from its index or summary alone; a recording
// without one is listed but read only when asked (Options.Scan). A run is
// incremental: a recording whose size and modification time are those of
// its row is not opened again; below an S3 prefix, listed whole, also its
// ETag (Recording.Validator), so an unchanged prefix costs its listing
// alone (listremote.go). A remote recording that cannot be reached is a
// row saying why, tried again by the next run. A run may take one shard of the recordings
// (by a hash of the path), so that several processes, on one machine or
// many, write one dataset, each its own partition.
package catalog

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/bagscope/bagscope/bag"
)

// Options say what Build reads and writes.
type Options struct {
	// Out is the catalogue's folder.
	Out string
	// Shard and Shards: this run catalogues the recordings whose path
	// hashes to Shard of Shards (0 <= Shard < Shards). Shards 0 is 1.
	Shard, Shards int
	// Scan reads recordings that have no usable index or summary (an
	// unindexed or cut bag, an MCAP without summary) by scanning them.
	Scan bool
	// ReadAll reads every message of every recording: each topic's bytes,
	// and damage inside chunks and pages that the index cannot show.
	ReadAll bool
	// Jobs is how many recordings are read at once (0: the CPUs, at
	// least 4 when a root is a URL).
	Jobs int
	// Progress, when set, hears of the recordings done out of those of
	// the shard, and of each recording's path as it is done.
	Progress func(done, total int, path string)
	// AllowRemoteScan is passed to the opener for remote recordings.
	AllowRemoteScan bool
}

// Report says what Build did.
type Report struct {
	// Listed counts the recordings found under the roots; Mine those of
	// this shard.
	Listed, Mine int
	// Read counts the recordings opened; Reused those whose rows were
	// kept (unchanged since the last run); Unscanned those listed without
	// being read (no index, Scan not set); Failed those that could not be
	// opened (their rows say why).
	Read, Reused, Unscanned, Failed int
	// Recordings and Topics are the rows written.
	Recordings, Topics int
	// Paths are the files written.
	Paths []string
}

// Build catalogues the recordings under roots (folders, files, or URLs of
// S3 prefixes) into o.Out.
func Build(ctx context.Context, roots []string, o Options) (*Report, error) {
	if o.Out == "" {
		return nil, errors.New("no catalogue folder")
	}
	if o.Shards == 0 {
		o.Shards = 1
	}
	recs, topics, rep, err := Collect(ctx, roots, o)
	if err != nil {
		return nil, err
	}
	paths, err := write(o.Out, o.Shard, o.Shards, recs, topics)
	rep.Paths = paths
	return rep, err
}

// Collect reads the rows of the recordings under roots as Build does,
// without writing them: the window's library shows a folder so. With
// o.Out set, the rows of that catalogue's unchanged recordings are kept
// rather than read again.
func Collect(ctx context.Context, roots []string, o Options) ([]Recording, []Topic, *Report, error) {
	if o.Shards == 0 {
		o.Shards = 1
	}
	if o.Shard < 0 || o.Shard >= o.Shards {
		return nil, nil, nil, fmt.Errorf("shard %d of %d: give 0 <= I < N", o.Shard, o.Shards)
	}
	jobs := o.Jobs
	if jobs <= 0 {
		jobs = runtime.NumCPU()
		if slices.ContainsFunc(roots, bag.IsURL) {
			// Remote reads wait on round trips, not the CPU; the
			// client bounds the requests in flight and the memory of
			// cached blocks whatever the jobs.
			jobs = max(jobs, remoteJobs)
		}
	}
	found, err := list(ctx, roots)
	if err != nil {
		return nil, nil, nil, err
	}
	rep := &Report{Listed: len(found)}
	var mine []entry
	for _, e := range found {
		if ShardOf(e.path, o.Shards) == o.Shard {
			mine = append(mine, e)
		}
	}
	rep.Mine = len(mine)
	prev, prevTopics := map[string]Recording{}, map[string][]Topic{}
	if o.Out != "" {
		if prev, prevTopics, err = readPrevious(o.Out); err != nil {
			return nil, nil, nil, err
		}
	}

	recs := make([]Recording, len(mine))
	topics := make([][]Topic, len(mine))
	var mu sync.Mutex
	done := 0
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(jobs, max(len(mine), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				e := mine[i]
				var kind string
				key := bag.Shown(e.path)
				if p, ok := prev[key]; ok && e.unchanged(p) && (p.Scanned || !o.Scan || p.Indexed) && (!o.ReadAll || p.ReadAll) {
					recs[i], topics[i], kind = p, prevTopics[key], "reused"
					switch {
					case p.Error != "":
						kind = "failed"
					case !p.Indexed && !p.Scanned:
						kind = "unscanned"
					}
				} else {
					recs[i], topics[i], kind = read(ctx, e, o)
				}
				mu.Lock()
				if p, ok := prev[key]; ok && e.unchanged(p) && kind != "read" {
					rep.Reused++
				}
				switch kind {
				case "reused":
				case "unscanned":
					rep.Unscanned++
				case "failed":
					rep.Failed++
				default:
					rep.Read++
				}
				done++
				if o.Progress != nil {
					o.Progress(done, len(mine), e.path)
				}
				mu.Unlock()
			}
		}()
	}
	for i := range mine {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, nil, err
	}
	var allTopics []Topic
	for _, ts := range topics {
		allTopics = append(allTopics, ts...)
	}
	rep.Recordings, rep.Topics = len(recs), len(allTopics)
	return recs, allTopics, rep, nil
}

// remoteJobs is how many remote recordings are read at once by default.
const remoteJobs = 4

// entry is one recording found: its path and what its files' sizes and
// times add up to; for a remote recording, its validator (see
// Recording.Validator). err is why a remote recording named could not
// even be listed (403, 404): its row says so.
type entry struct {
	path      string
	size      int64
	mtime     time.Time
	validator string
	err       error
}

// unchanged reports whether the row of an earlier run describes the
// recording as listed now: same size, time and validator, and not a
// failure to reach it (which a later run tries again). A remote file
// without a validator (no ETag, no Last-Modified) is never taken as
// unchanged.
func (e entry) unchanged(p Recording) bool {
	if e.err != nil || (e.validator == "" && bag.IsURL(e.path)) {
		return false
	}
	return p.Size == e.size && p.MTime.Equal(e.mtime) && p.Validator == e.validator
}
