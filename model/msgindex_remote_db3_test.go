package model

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
)

// TestRemoteDb3MessageIndexReadsTheFileOnce builds the message index of a
// .db3 (its /image rows spill onto overflow pages) served by nginx, as a
// lone file and as a folder whose metadata.yaml lets it open without
// counting its rows: the index must be the local file's, and fetching it
// must cost at most half the messages table's own pages (as SQLite's
// dbstat counts them on the local copy), not the overflow pages of its
// large rows nor the timestamp index's, in a few requests (issues 25, 27:
// the iteration it was built from fetched 2.7 times the file in mostly
// single blocks; the walk of every page in file order, the file; then
// the table's pages in 4 requests; here, of the leaves only the parts
// the times are in).
func TestRemoteDb3MessageIndexReadsTheFileOnce(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	os.Mkdir(dir, 0o755)
	file := filepath.Join(dir, "run_0.db3")
	db3test.Write(t, file, 6000)
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("/usr/bin/python3", "-c", `import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
print(db.execute("SELECT count(*) FROM dbstat WHERE name = 'messages' AND pagetype IN ('internal', 'leaf')").fetchone()[0])`, file).CombinedOutput()
	if err != nil {
		t.Fatalf("dbstat: %v\n%s", err, out)
	}
	tablePages, err := strconv.ParseInt(strings.TrimSpace(string(out)), 10, 64)
	if err != nil || tablePages <= 0 || tablePages*4096 > fi.Size()/2 {
		t.Fatalf("the messages table has %q pages of the file's %d bytes: the test needs rows that spill onto overflow pages", out, fi.Size())
	}
	local, err := bag.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	want, err := BuildMessageIndex(context.Background(), local, nil)
	local.Close()
	if err != nil || len(want.Errors) > 0 {
		t.Fatalf("local index: %v %v", err, want.Errors)
	}
	var topics []db3test.Topic
	var lo, hi int64
	for i, tm := range want.Topics {
		topics = append(topics, db3test.Topic{Name: tm.Topic, Type: "std_msgs/msg/String", Messages: tm.Len()})
		first, last := tm.At(0).T, tm.At(tm.Len()-1).T
		if i == 0 {
			lo, hi = first, last
		}
		lo, hi = min(lo, first), max(hi, last)
	}
	if err := os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(db3test.FolderMetadata("run_0.db3", topics, lo, hi)), 0o644); err != nil {
		t.Fatal(err)
	}
	web := remotetest.Nginx(t, root)
	defer remote.SetDefault(nil)
	for _, rel := range []string{"run/run_0.db3", "run/"} {
		t.Run(rel, func(t *testing.T) {
			// A cache smaller than the file, as the window's 128 MiB is
			// beside a recording of gigabytes (but larger than the
			// file's read-ahead windows, as that one is).
			c := remote.NewClient(remote.Options{CacheBytes: 6 << 20})
			remote.SetDefault(c)
			s, err := bag.Open(web.URL + rel)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			opened := c.Stats()
			got, err := BuildMessageIndex(context.Background(), s, nil)
			if err != nil || len(got.Errors) > 0 {
				t.Fatalf("remote index: %v %v", err, got.Errors)
			}
			st := c.Stats()
			bytes, reqs := st.Bytes-opened.Bytes, st.Requests-opened.Requests
			pages := fi.Size() / 4096
			t.Logf("the index fetched %d bytes in %d requests of a %d-byte file (%d pages, %d of them the messages table's)", bytes, reqs, fi.Size(), pages, tablePages)
			// The leaves hold mostly the first kilobytes of /image rows:
			// they are read in parts (header, cell pointers, each
			// cell's first bytes), at most half the table's pages, in
			// multi-range requests of 100 parts, a few rounds a batch.
			if bytes > tablePages*4096/2 {
				t.Errorf("the index fetched %d bytes; the messages table's pages are %d (the file %d): its leaves are mostly data", bytes, tablePages*4096, fi.Size())
			}
			if reqs > tablePages/16+4 {
				t.Errorf("the index took %d requests for a table of %d pages", reqs, tablePages)
			}
			if got.Count() != want.Count() || len(got.Topics) != len(want.Topics) {
				t.Fatalf("remote index of %d messages, local %d", got.Count(), want.Count())
			}
			for i, w := range want.Topics {
				g := got.Topics[i]
				if g.Topic != w.Topic || g.Len() != w.Len() {
					t.Fatalf("remote topic %s (%d), local %s (%d)", g.Topic, g.Len(), w.Topic, w.Len())
				}
				for j, r := range w.All() {
					if g.At(j) != r {
						t.Fatalf("%s message %d: remote %+v, local %+v", w.Topic, j, g.At(j), r)
					}
				}
			}
		})
	}
}
