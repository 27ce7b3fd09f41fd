package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	_ "github.com/bagscope/bagscope/bag/db3"
	"github.com/bagscope/bagscope/bag/db3/db3test"
	_ "github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
)

// `plot URL --range` of a remote .db3 fetches, beyond info's opening, at
// most 1.2x the pages that hold the window (issue 25): the index's and the
// table's leaf, interior and overflow pages SQLite itself reads to answer
// the window's query (db3test.PagesRead), as nginx counts the bytes; and
// it writes the CSV the local file gives. It used to read ahead far past
// the window (up to 16 MiB), fetch interior pages in 256 kB windows and
// read the overflow pages of every row in the window, of any topic.
func TestRemoteDb3PlotFetchesItsWindow(t *testing.T) {
	src := filepath.Join(t.TempDir(), "w.mcap")
	remotetest.WindowMCAP(t, src, 60)
	root := t.TempDir()
	path := filepath.Join(root, "w.db3")
	if _, stderr, code := run("filter", src, path); code != ExitOK {
		t.Fatalf("filter to .db3: exit %d: %s", code, stderr)
	}
	local, err := bag.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := local.Summary()
	if err != nil {
		t.Fatal(err)
	}
	// rosbag2's metadata.yaml beside it, which gives the counts: without
	// it a remote .db3's opening counts the rows.
	var topics []db3test.Topic
	for _, c := range local.Connections() {
		topics = append(topics, db3test.Topic{Name: c.Topic, Type: c.Type, Messages: int(sum.ConnMessages[c.ID])})
	}
	local.Close()
	meta := db3test.FolderMetadata("w.db3", topics, sum.Start.Nanos(), sum.End.Nanos())
	if err := os.WriteFile(filepath.Join(root, "metadata.yaml"), []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	web := remotetest.Nginx(t, root)
	defer remote.SetDefault(nil)
	remote.SetDefault(remote.NewClient(remote.Options{}))
	from, to := sum.Start.Nanos()+20e9, sum.Start.Nanos()+30e9
	pages, need, err := db3test.PagesRead(path, db3test.WindowQuery, "/imu", from, to)
	if err != nil {
		t.Fatal(err)
	}

	out := t.TempDir()
	want, got := filepath.Join(out, "local.csv"), filepath.Join(out, "remote.csv")
	if _, stderr, code := run("plot", path, "/imu.x", "--range", "20:30", "--csv", want); code != ExitOK {
		t.Fatalf("local plot: exit %d: %s", code, stderr)
	}
	fetched := func() (bytes int64) {
		for _, l := range web.Requests(t) {
			// combined log: ... "GET /w.db3 HTTP/1.1" 206 BYTES ...
			if f := strings.Fields(l); len(f) > 9 {
				n, _ := strconv.ParseInt(f[9], 10, 64)
				bytes += n
			}
		}
		return bytes
	}
	url := web.URL + "metadata.yaml" // the folder, as rosbag2 wrote it
	if _, stderr, code := run("info", url); code != ExitOK {
		t.Fatalf("remote info: exit %d: %s", code, stderr)
	}
	opening := fetched()
	if _, stderr, code := run("plot", url, "/imu.x", "--range", "20:30", "--csv", got); code != ExitOK {
		t.Fatalf("remote plot: exit %d: %s", code, stderr)
	}
	bytes := fetched() - opening // the plot's, its opening included
	w, _ := os.ReadFile(want)
	g, _ := os.ReadFile(got)
	if string(w) != string(g) || strings.Count(string(w), "\n") < 2000 {
		t.Errorf("the remote plot's CSV (%d bytes) differs from the local one's (%d)", len(g), len(w))
	}
	t.Logf("the plot fetched %d bytes, info's opening %d; the window's %d pages hold %d bytes", bytes, opening, pages, need)
	if float64(bytes-opening) > 1.2*float64(need) {
		t.Errorf("the plot fetched %d bytes besides its opening (%d); want at most 1.2 x %d (the window's pages)", bytes-opening, opening, need)
	}
}
