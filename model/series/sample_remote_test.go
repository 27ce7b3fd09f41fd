package series

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// TestSampleFieldsRemoteDb3 samples the fields of a rosbag2 folder whose
// .db3 has a topic without messages (/silent), served by nginx: the
// sample must be the local folder's, and taking it must not fetch the
// file (looking for the first messages of a topic that has none read
// every row, and over the network every page: the window's Plots tab did
// so on opening a remote .db3; issue 25).
func TestSampleFieldsRemoteDb3(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	os.Mkdir(dir, 0o755)
	file := filepath.Join(dir, "run_0.db3")
	db3test.Write(t, file, 24000)
	// The folder's metadata.yaml from the reference's counts.
	out, err := exec.Command("/usr/bin/python3", "-c", `import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
lo, hi = db.execute("SELECT min(timestamp), max(timestamp) FROM messages").fetchone()
print(lo, hi)
for name, typ, n in db.execute("SELECT name, type, (SELECT count(*) FROM messages m WHERE m.topic_id = t.id) FROM topics t ORDER BY id"):
    print(name, typ, n)`, file).CombinedOutput()
	if err != nil {
		t.Fatalf("reference: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	span := strings.Fields(lines[0])
	lo, _ := strconv.ParseInt(span[0], 10, 64)
	hi, _ := strconv.ParseInt(span[1], 10, 64)
	var topics []db3test.Topic
	empty := 0
	for _, l := range lines[1:] {
		f := strings.Fields(l)
		n, _ := strconv.Atoi(f[2])
		topics = append(topics, db3test.Topic{Name: f[0], Type: f[1], Messages: n})
		if n == 0 {
			empty++
		}
	}
	if empty == 0 {
		t.Fatalf("the test file has no topic without messages: %v", topics)
	}
	if err := os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(db3test.FolderMetadata("run_0.db3", topics, lo, hi)), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}

	local, err := bag.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	want, err := SampleFields(context.Background(), local, new(rosmsg.Cache))
	if err != nil {
		t.Fatal(err)
	}

	web := remotetest.Nginx(t, root)
	defer remote.SetDefault(nil)
	remote.SetDefault(remote.NewClient(remote.Options{}))
	s, err := bag.Open(web.URL + "run/")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	opened := bag.TransferOf(s)
	got, err := SampleFields(context.Background(), s, new(rosmsg.Cache))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.paths, want.paths) {
		t.Errorf("remote sample %v, local %v", got.paths, want.paths)
	}
	done := bag.TransferOf(s)
	bytes := done.Bytes - opened.Bytes
	t.Logf("sampling fetched %d bytes in %d requests of a %d-byte file", bytes, done.Requests-opened.Requests, fi.Size())
	if bytes > fi.Size()/2 {
		t.Errorf("sampling the fields fetched %d bytes of the file's %d", bytes, fi.Size())
	}
}
