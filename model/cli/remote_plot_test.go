package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	_ "github.com/bagscope/bagscope/bag/mcap"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
)

// `plot URL --range` of a remote MCAP fetches its opening (a suffix and
// the first block) and the chunks of the window, at most 1.2x their bytes
// (issue 25), as nginx counts them, and writes the CSV the local file
// gives. It used to read every chunk's message index, then the whole file
// for a quick check (233 MB of a 219 MB file for a 10 s window).
func TestRemotePlotFetchesItsWindow(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "w.mcap")
	remotetest.WindowMCAP(t, path, 20)
	web := remotetest.Nginx(t, root)
	defer remote.SetDefault(nil)
	remote.SetDefault(remote.NewClient(remote.Options{}))

	local, err := bag.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := local.Summary()
	if err != nil {
		t.Fatal(err)
	}
	from, to := bag.TimeFromNanos(sum.Start.Nanos()+10e9), bag.TimeFromNanos(sum.Start.Nanos()+13e9)
	var need int64
	for _, blk := range local.Blocks() {
		if !blk.End.Before(from) && !to.Before(blk.Start) {
			need += blk.Len // every chunk holds /imu
		}
	}
	size := local.FileInfo().Size
	local.Close()

	want := filepath.Join(root, "local.csv")
	if _, stderr, code := run("plot", path, "/imu.x", "--range", "10:13", "--csv", want); code != ExitOK {
		t.Fatalf("local plot: exit %d: %s", code, stderr)
	}
	got := filepath.Join(root, "remote.csv")
	if _, stderr, code := run("plot", web.URL+"w.mcap", "/imu.x", "--range", "10:13", "--csv", got); code != ExitOK {
		t.Fatalf("remote plot: exit %d: %s", code, stderr)
	}
	w, _ := os.ReadFile(want)
	g, _ := os.ReadFile(got)
	if string(w) != string(g) || strings.Count(string(w), "\n") < 600 {
		t.Errorf("the remote plot's CSV (%d bytes) differs from the local one's (%d)", len(g), len(w))
	}
	var bytes int64
	for _, l := range web.Requests(t) {
		// combined log: ... "GET /w.mcap HTTP/1.1" 206 BYTES ...
		f := strings.Fields(l)
		if len(f) > 9 {
			n, _ := strconv.ParseInt(f[9], 10, 64)
			bytes += n
		}
	}
	opening := int64(256<<10 + 64<<10)
	t.Logf("fetched %d bytes (opening %d, window chunks %d, file %d)", bytes, opening, need, size)
	if float64(bytes-opening) > 1.2*float64(need) {
		t.Errorf("the plot fetched %d bytes besides its opening; want at most 1.2 x %d (the window's chunks)", bytes-opening, need)
	}
}
