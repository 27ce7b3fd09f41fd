package bag_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
)

// TestRemoteRecordAtFetchesItsRecord: reading one top-level record of a
// remote MCAP (the Chunk tab's first chunk, the Records tab's first
// screen) fetches that record and the block its header is in, not the
// 4 MiB window a local walk reads ahead.
func TestRemoteRecordAtFetchesItsRecord(t *testing.T) {
	root := t.TempDir()
	remotetest.WindowMCAP(t, filepath.Join(root, "w.mcap"), windowSeconds)
	web := remotetest.Nginx(t, root)
	defer remote.SetDefault(nil)
	c := remote.NewClient(remote.Options{})
	remote.SetDefault(c)
	rs, err := bag.Open(web.URL + "w.mcap")
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Close()
	l, ok := bag.Underlying(rs).(bag.RecordLister)
	if !ok {
		t.Fatalf("%T lists no records", rs)
	}
	blocks := rs.Blocks()
	if len(blocks) < 10 {
		t.Fatalf("the recording has %d chunks", len(blocks))
	}
	for _, tc := range []struct {
		name string
		blk  *bag.Block
	}{{"first chunk", blocks[0]}, {"middle chunk", blocks[len(blocks)/2]}} {
		t.Run(tc.name, func(t *testing.T) {
			before := c.Stats()
			var got *bag.Record
			err := l.Records(context.Background(), tc.blk.Offset, func(r *bag.Record) bool {
				got = r
				return false
			})
			if err != nil || got == nil || got.Offset != tc.blk.Offset {
				t.Fatalf("record at %d: %v, %v", tc.blk.Offset, got, err)
			}
			fetched := c.Stats().Bytes - before.Bytes
			bound := tc.blk.Len + 2*64<<10
			t.Logf("a %d-byte chunk record fetched %d bytes", tc.blk.Len, fetched)
			if fetched > bound {
				t.Errorf("reading a %d-byte record fetched %d bytes; want at most %d", tc.blk.Len, fetched, bound)
			}
		})
	}
}
