package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
	"github.com/bagscope/bagscope/bag/remote"
	"github.com/bagscope/bagscope/bag/remote/remotetest"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// The window of a remote recording reads only what it shows (issue 25):
// opening it fetches its index (the summary and every chunk's message
// index, for the timeline) and the chunk of the message shown, not the
// chunks a check or the topics' bytes would read; those wait for the
// Findings tab's Check and the Topics tab's Count, which say what they
// will fetch, and then give what the local file gives.
func TestRemoteWindowReadsWhatItShows(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	local := filepath.Join(root, "w.mcap")
	linkWindowMCAP(t, local)
	web := remotetest.Nginx(t, root)
	defer remote.SetDefault(nil)
	remote.SetDefault(remote.NewClient(remote.Options{}))

	ld, err := model.Open(t.Context(), local, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ld.Close()
	// The index: every byte of the file outside its chunk records (the
	// header, message indexes, summary and footer).
	var chunkBytes, largest int64
	for _, b := range ld.Storage.Blocks() {
		chunkBytes += b.Len
		largest = max(largest, b.Len)
	}
	indexBytes := ld.Size - chunkBytes
	if indexBytes <= 0 || len(ld.Storage.Blocks()) < 100 {
		t.Fatalf("the test file has %d chunks and %d bytes outside them", len(ld.Storage.Blocks()), indexBytes)
	}

	c := newTestController(t)
	var v *bagView
	c.onOpened = func(o *bagView) { v = o }
	c.openPath(web.URL+"w.mcap", nil) // synchronous: what opening starts has run
	if v == nil || v.err != nil || v.views == nil {
		t.Fatalf("the window did not open the URL: %+v", v)
	}
	t.Cleanup(func() { v.win.Close() })
	if v.views.link.Index() == nil {
		t.Fatal("the window has no message index (its timeline needs it)")
	}
	// What opening fetched: the index, and the records the Message and
	// Records tabs show, with the file's read-ahead (a few MiB), not the
	// file (the check and the topics' bytes read every chunk).
	opened := bag.TransferOf(v.doc.Storage)
	bound := indexBytes + 12<<20 + 2*largest
	t.Logf("file %s, index %s, opening fetched %s in %d requests (bound %s)", human.Size(ld.Size), human.Size(indexBytes), human.Size(opened.Bytes), opened.Requests, human.Size(bound))
	if opened.Bytes > bound || bound > ld.Size/2 {
		t.Errorf("opening fetched %d bytes; want at most %d (the index's %d bytes and a chunk or two; the file has %d)", opened.Bytes, bound, indexBytes, ld.Size)
	}
	// The index records come in a few multi-range requests, not one per chunk.
	if max := int64(len(ld.Storage.Blocks())/10 + 10); opened.Requests > max {
		t.Errorf("opening made %d requests for %d chunks; want at most %d", opened.Requests, len(ld.Storage.Blocks()), max)
	}

	// The status line's poll draws on its own goroutine in the test
	// driver: held while the test taps and reads the window.
	v.views.fetch.Hold(func() { checkAsked(t, v, ld, indexBytes, chunkBytes, opened) })
}

// checkAsked taps the Topics tab's Count and the Findings tab's Check of
// the remote window v and compares what they show with the local
// document ld.
func checkAsked(t *testing.T, v *bagView, ld *model.Document, indexBytes, chunkBytes int64, opened bag.Transfer) {
	t.Helper()
	// The Topics tab says why its bytes are not there, and counts them
	// when asked: the local file's counts.
	size := human.Size(ld.Size)
	shown := uitest.Shown(v.win)
	if want := "Bytes: not counted: reading them fetches " + size; !strings.Contains(shown, want) {
		t.Fatalf("the Topics tab does not say %q:\n%s", want, shown)
	}
	// Its Bytes cells say not counted, not "…" (being counted).
	tv := v.views.topics.View()
	for _, line := range tv.Lines() {
		if c := tv.LineCell(line, model.ColBytes); c != model.NotCounted {
			t.Fatalf("topic %s: the Bytes cell before Count is %q, want %q", line.Topic.Topic, c, model.NotCounted)
		}
	}
	test.Tap(uitest.FindButton(t, v.win.Content(), "Count"))
	perConn, err := stats.MessageBytes(t.Context(), ld.Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	view := model.NewTopicView(ld.Topics)
	view.SetBytes(perConn)
	shown = uitest.Shown(v.win)
	if strings.Contains(shown, "Bytes: not counted") {
		t.Error("the Topics tab still says its bytes are not counted")
	}
	got := map[string]string{}
	for _, tp := range v.views.topics.View().Rows() {
		got[tp.Topic] = tp.Cell(model.ColBytes)
	}
	for _, tp := range view.Rows() {
		if want := tp.Cell(model.ColBytes); got[tp.Topic] != want {
			t.Errorf("topic %s: the Topics tab has %q bytes, the local file %q", tp.Topic, got[tp.Topic], want)
		}
	}
	counted := bag.TransferOf(v.doc.Storage)
	if counted.Bytes-opened.Bytes < chunkBytes/2 {
		t.Errorf("counting fetched %d bytes, the chunks are %d", counted.Bytes-opened.Bytes, chunkBytes)
	}

	// The Findings tab has not checked the file, says what a check
	// fetches, and checks it when asked, as the local file checks.
	v.views.link.SelectTab("Findings")
	shown = uitest.Shown(v.win)
	if want := "Not checked: this recording is remote, and checking it fetches and decompresses all of it (" + size + ")"; !strings.Contains(shown, want) {
		t.Fatalf("the Findings tab does not say %q:\n%s", want, shown)
	}
	test.Tap(uitest.FindShownButton(t, v.win, "Check every record"))
	rep, err := model.CheckStorage(t.Context(), ld.Storage, nil)
	if err != nil {
		t.Fatal(err)
	}
	shown = uitest.Shown(v.win)
	if strings.Contains(shown, "Not checked") {
		t.Error("the check did not run")
	}
	warnings := 0
	for _, f := range rep.Findings {
		if f.Severity == bag.Warning {
			warnings++
		}
	}
	want := "No errors; " + human.Plural(uint64(warnings), "warning")
	if len(rep.Findings) == 0 {
		want = "No findings: every record of the " + human.Count(ld.Summary.Messages) + " messages checks out."
	}
	if rep.Errors() != 0 || !strings.Contains(shown, want) {
		t.Errorf("the remote check does not say %q (the local check: %d errors):\n%s", want, rep.Errors(), shown)
	}
}

// TestRemoteDb3WindowReadsWhatItShows opens a rosbag2 folder served by
// nginx whose .db3 holds images (rows that spill onto overflow pages)
// and a topic without messages: what opening starts (the message index
// of the timeline, the Records tab's pages, the Plots tab's field sample,
// the Message tab) must fetch about the messages table's own pages (as
// SQLite's dbstat counts them on the local copy) and 24 MiB more, not
// the file: the walk of the index read every page, the page map of the
// Records tab the file again, and the sample of the empty topic the file
// again (issue 25).
func TestRemoteDb3WindowReadsWhatItShows(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	root := t.TempDir()
	dir := filepath.Join(root, "run")
	os.Mkdir(dir, 0o755)
	file := filepath.Join(dir, "run_0.db3")
	db3test.Write(t, file, 60000)
	out, err := exec.Command("/usr/bin/python3", "-c", `import sqlite3, sys
db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
print(db.execute("SELECT count(*) FROM dbstat WHERE name = 'messages' AND pagetype IN ('internal', 'leaf')").fetchone()[0])
lo, hi = db.execute("SELECT min(timestamp), max(timestamp) FROM messages").fetchone()
print(lo, hi)
for name, typ, n in db.execute("SELECT name, type, (SELECT count(*) FROM messages m WHERE m.topic_id = t.id) FROM topics t ORDER BY id"):
    print(name, typ, n)`, file).CombinedOutput()
	if err != nil {
		t.Fatalf("reference: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	tablePages, _ := strconv.ParseInt(lines[0], 10, 64)
	span := strings.Fields(lines[1])
	lo, _ := strconv.ParseInt(span[0], 10, 64)
	hi, _ := strconv.ParseInt(span[1], 10, 64)
	var topics []db3test.Topic
	for _, l := range lines[2:] {
		f := strings.Fields(l)
		n, _ := strconv.Atoi(f[2])
		topics = append(topics, db3test.Topic{Name: f[0], Type: f[1], Messages: n})
	}
	if err := os.WriteFile(filepath.Join(dir, "metadata.yaml"), []byte(db3test.FolderMetadata("run_0.db3", topics, lo, hi)), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	table := tablePages * 4096
	if table <= 0 || table > fi.Size()/3 {
		t.Fatalf("the messages table's pages are %d bytes of the file's %d: the test needs rows on overflow pages", table, fi.Size())
	}
	web := remotetest.Nginx(t, root)
	defer remote.SetDefault(nil)
	remote.SetDefault(remote.NewClient(remote.Options{}))

	c := newTestController(t)
	var v *bagView
	c.onOpened = func(o *bagView) { v = o }
	c.openPath(web.URL+"run/", nil) // synchronous: what opening starts has run
	if v == nil || v.err != nil || v.views == nil {
		t.Fatalf("the window did not open the URL: %+v", v)
	}
	t.Cleanup(func() { v.win.Close() })
	idx := v.views.link.Index()
	if idx == nil {
		t.Fatal("the window has no message index (its timeline needs it)")
	}
	want := 0
	for _, tp := range topics {
		want += tp.Messages
	}
	if idx.Count() != want {
		t.Errorf("the window's index has %d messages, SQLite counts %d", idx.Count(), want)
	}
	v.views.link.SelectTab("Records")
	v.views.link.SelectTab("Plots")
	v.views.fetch.Hold(func() {
		got := bag.TransferOf(v.doc.Storage)
		// The table, and the first messages of each topic read ahead
		// (the Plots tab's field sample, the Message tab).
		bound := table*6/5 + 24<<20
		t.Logf("file %s, the messages table's pages %s; the window fetched %s in %d requests (bound %s)", human.Size(fi.Size()), human.Size(table), human.Size(got.Bytes), got.Requests, human.Size(bound))
		if got.Bytes > bound || bound > fi.Size()*3/4 {
			t.Errorf("the window fetched %d bytes; want at most %d (the table's %d and 24 MiB; the file has %d)", got.Bytes, bound, table, fi.Size())
		}
	})
}
