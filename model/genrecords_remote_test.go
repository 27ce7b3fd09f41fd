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

// TestRemoteDb3RecordsReadWhatTheyShow lists the records of a .db3 served
// by nginx as the window's Records tab does (BuildFileRecords) and reads
// its first screen of them: the list must be the local file's (the
// database header, then every page, at the local listing's offsets and
// lengths), each record read must say the page type SQLite's dbstat
// gives on the local copy, and the whole must fetch a few blocks, not the
// file (the page map the listing was built from read every page; issue
// 25).
func TestRemoteDb3RecordsReadWhatTheyShow(t *testing.T) {
	// A folder whose metadata.yaml lets it open without counting its rows
	// (which reads the file).
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	os.Mkdir(dir, 0o755)
	file := filepath.Join(dir, "run_0.db3")
	db3test.Write(t, file, 12000)
	// The reference: each page's type, as SQLite sees it.
	out, err := exec.Command("/usr/bin/python3", "-c", `import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
for n, typ, name in db.execute("SELECT pageno, pagetype, name FROM dbstat"):
    print(n, typ, name)`, file).CombinedOutput()
	if err != nil {
		t.Fatalf("dbstat: %v\n%s", err, out)
	}
	ref := map[int]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		n, _ := strconv.Atoi(f[0])
		ref[n] = f[1] + " " + f[2]
	}

	local, err := bag.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer local.Close()
	idx, err := BuildMessageIndex(context.Background(), local, nil)
	if err != nil {
		t.Fatal(err)
	}
	var topics []db3test.Topic
	lo, hi := idx.Topics[0].At(0).T, idx.Topics[0].At(0).T
	for _, tm := range idx.Topics {
		topics = append(topics, db3test.Topic{Name: tm.Topic, Type: "std_msgs/msg/String", Messages: tm.Len()})
		lo, hi = min(lo, tm.At(0).T), max(hi, tm.At(tm.Len()-1).T)
	}
	if err := os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(db3test.FolderMetadata("run_0.db3", topics, lo, hi)), 0o644); err != nil {
		t.Fatal(err)
	}
	want, err := BuildFileRecords(context.Background(), Lister(local), local.FileInfo().Size, nil)
	if err != nil || want.Err != nil {
		t.Fatalf("local records: %v %v", err, want.Err)
	}

	web := remotetest.Nginx(t, root)
	defer remote.SetDefault(nil)
	c := remote.NewClient(remote.Options{})
	remote.SetDefault(c)
	s, err := bag.Open(web.URL + "run/")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	opened := bag.TransferOf(s)
	t.Logf("opening fetched %d bytes in %d requests", opened.Bytes, opened.Requests)
	got, err := BuildFileRecords(context.Background(), Lister(s), s.FileInfo().Size, nil)
	if err != nil || got.Err != nil {
		t.Fatalf("remote records: %v %v", err, got.Err)
	}
	if got.Len() != want.Len() || got.Len() < 1000 {
		t.Fatalf("remote: %d records, local %d", got.Len(), want.Len())
	}
	for i := 0; i < want.Len(); i++ {
		if got.Offset(i) != want.Offset(i) || got.RecordLen(i) != want.RecordLen(i) {
			t.Fatalf("record %d: remote at %d (%d bytes), local at %d (%d bytes)", i, got.Offset(i), got.RecordLen(i), want.Offset(i), want.RecordLen(i))
		}
		if k := want.Find(want.Offset(i) + 1); got.Find(got.Offset(i)+1) != k {
			t.Fatalf("record %d: Find gives %d, locally %d", i, got.Find(got.Offset(i)+1), k)
		}
	}
	// The first screen, and one far down (a scroll).
	kinds := map[string]string{"leaf": "leaf", "internal": "interior", "overflow": "other"}
	seen := map[string]bool{}
	for _, i := range append(seqTo(60), got.Len()/2, got.Len()-1) {
		r, w := got.Record(i), want.Record(i)
		if r.Offset != w.Offset || r.Len != w.Len || r.Damaged != w.Damaged {
			t.Fatalf("record %d: remote %+v, local %+v", i, r, w)
		}
		if i == 0 {
			if r.Kind != "header" || r.Summary != w.Summary {
				t.Fatalf("record 0: remote %q %q, local %q %q", r.Kind, r.Summary, w.Kind, w.Summary)
			}
			continue
		}
		typ, ok := ref[i]
		if !ok {
			continue // a page dbstat does not list (free)
		}
		f := strings.Fields(typ)
		if !strings.HasSuffix(r.Kind, kinds[f[0]]) || (f[0] != "overflow" && r.Kind != w.Kind) {
			t.Errorf("page %d: remote says %q, local %q, SQLite %s", i, r.Kind, w.Kind, typ)
		}
		seen[f[0]] = true
	}
	if !seen["leaf"] || !seen["overflow"] {
		t.Errorf("the pages read are of kinds %v: the test wants leaf and overflow pages", seen)
	}
	st := bag.TransferOf(s)
	bytes, reqs := st.Bytes-opened.Bytes, st.Requests-opened.Requests
	t.Logf("listing and reading %d records fetched %d bytes in %d requests (the file: %d bytes)", 62, bytes, reqs, got.Size())
	if bytes > 1<<20 || bytes > got.Size()/8 {
		t.Errorf("listing the records and reading 62 fetched %d bytes of the file's %d", bytes, got.Size())
	}
}

// seqTo returns 0..n-1.
func seqTo(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
