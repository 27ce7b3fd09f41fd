package bag_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
)

// TestRemoteSplitIndexPrefetch: the message index of a remote split
// recording fetches each file's index records together, ahead of the
// reads (bag.BlockIndexPrefetcher through MultiStorage), so that reading
// every block's index after makes no request, and the prefetches make at
// most a few requests per file, not one per block.
func TestRemoteSplitIndexPrefetch(t *testing.T) {
	root := t.TempDir()
	meta := "rosbag2_bagfile_information:\n  version: 5\n  storage_identifier: mcap\n  relative_file_paths:\n"
	for i := range 3 {
		name := fmt.Sprintf("w_%d.mcap", i)
		remotetest.WindowMCAP(t, filepath.Join(root, name), 5)
		meta += "  - " + name + "\n"
	}
	if err := os.WriteFile(filepath.Join(root, "metadata.yaml"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	web := remotetest.Nginx(t, root)
	defer remote.SetDefault(nil)
	c := remote.NewClient(remote.Options{})
	remote.SetDefault(c)
	rs, err := bag.Open(web.URL + "metadata.yaml")
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	pf := bag.IndexPrefetcherOf(rs)
	if pf == nil {
		t.Fatalf("%T offers no index prefetch", rs)
	}
	blocks := rs.Blocks()
	files := map[int]bool{}
	for _, b := range blocks {
		files[b.File] = true
	}
	if len(files) < 2 || len(blocks) < 2*len(files) {
		t.Fatalf("%d blocks in %d files: not a split recording with several chunks per file", len(blocks), len(files))
	}
	before := c.Stats()
	var prefetchReqs, readReqs int64
	for i := 0; i < len(blocks); {
		s0 := c.Stats()
		release, covered := pf.PrefetchBlockIndexes(blocks[i:])
		s1 := c.Stats()
		prefetchReqs += s1.Requests - s0.Requests
		if covered < 1 || i+covered > len(blocks) {
			t.Fatalf("a prefetch from block %d covered %d of %d", i, covered, len(blocks)-i)
		}
		for _, b := range blocks[i : i+covered] {
			if b.File != blocks[i].File {
				t.Errorf("a prefetch from file %d covered a block of file %d", blocks[i].File, b.File)
			}
			if _, err := rs.BlockIndex(b); err != nil {
				t.Fatal(err)
			}
		}
		readReqs += c.Stats().Requests - s1.Requests
		release()
		i += covered
	}
	t.Logf("%d blocks in %d files: prefetches %d requests, reads after %d (opening %d)", len(blocks), len(files), prefetchReqs, readReqs, before.Requests)
	if readReqs > 0 {
		t.Errorf("reading the prefetched indexes made %d requests", readReqs)
	}
	if prefetchReqs > 2*int64(len(files)) {
		t.Errorf("the prefetches made %d requests for %d files", prefetchReqs, len(files))
	}
}
