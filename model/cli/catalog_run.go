//go:build !bagscope_front || bagscope_tables

package cli

import (
	"context"
	"fmt"
	"slices"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/model/catalog"
)

// catalogCacheBytes is the remote block cache of a catalogue run: room
// for the largest read-ahead window (16 MiB) of each of the 4 recordings
// read at once.
const catalogCacheBytes = 64 << 20

// catalogJSON is the `catalog --json` object.
type catalogJSON struct {
	Out        string   `json:"out"`
	Shard      string   `json:"shard"`
	Listed     int      `json:"listed"`
	Mine       int      `json:"in_shard"`
	Read       int      `json:"read"`
	Reused     int      `json:"unchanged"`
	Unscanned  int      `json:"not_scanned"`
	Failed     int      `json:"failed"`
	Recordings int      `json:"recordings"`
	Topics     int      `json:"topics"`
	Files      []string `json:"files"`
	OK         bool     `json:"ok"`
	// Fetched is what was fetched from remote storage: listings and
	// reads (absent when nothing remote was read).
	Fetched *fetchedJSON `json:"fetched,omitempty"`
}

// writeCatalog writes the catalogue (model/catalog, which links parquet-go);
// the front hands catalog to the full binary instead (tables_front.go).
func writeCatalog(e *env, args []string, r catalogRequest) error {
	if slices.ContainsFunc(args, bag.IsURL) {
		// Each remote recording is read once, index-only: the block
		// cache serves the read-ahead of the recordings being read, not
		// reuse, so a smaller one bounds the memory (the 128 MiB of
		// the default cache, twice over before the collector frees it,
		// was most of a remote catalogue's 330 MB peak).
		o := remote.Default().Options()
		o.CacheBytes = catalogCacheBytes
		remote.SetDefault(remote.NewClient(o))
	}
	o := catalog.Options{Out: r.out, Shard: r.i, Shards: r.n, Scan: r.scan, ReadAll: r.readAll, Jobs: r.jobs,
		AllowRemoteScan: e.openOptions().AllowRemoteScan}
	pl := newProgress(e.stderr, "cataloguing")
	o.Progress = func(done, total int, _ string) { pl.update(int64(done), int64(total)) }
	rep, err := catalog.Build(context.Background(), args, o)
	pl.end()
	if err != nil {
		return status(fail(e.stderr, r.out, err))
	}
	if r.asJSON {
		writeJSON(e.stdout, catalogJSON{Out: r.out, Shard: r.shard, Listed: rep.Listed, Mine: rep.Mine, Read: rep.Read, Reused: rep.Reused,
			Unscanned: rep.Unscanned, Failed: rep.Failed, Recordings: rep.Recordings, Topics: rep.Topics, Files: rep.Paths, OK: rep.Failed == 0, Fetched: fetchedObject()})
	} else {
		fmt.Fprintf(e.stdout, "catalogued %d recordings of %d found (shard %s): %d read, %d unchanged, %d not scanned, %d failed; %d topics\n",
			rep.Recordings, rep.Listed, r.shard, rep.Read, rep.Reused, rep.Unscanned, rep.Failed, rep.Topics)
		if st, ok := fetched(); ok {
			fmt.Fprintf(e.stdout, "fetched %s\n", fetchedText(st))
		}
		for _, p := range rep.Paths {
			fmt.Fprintf(e.stdout, "wrote %s\n", p)
		}
	}
	if rep.Failed > 0 {
		return status(ExitProblems)
	}
	return nil
}
