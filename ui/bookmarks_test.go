package ui

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	lib "github.com/foxglove/mcap/go/mcap"

	"github.com/bagscope/bagscope/model/cli"
	"github.com/bagscope/bagscope/model/marks"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// marksCommand runs `bagscope marks ARGS…` in-process.
func marksCommand(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := cli.Run(append([]string{"marks"}, args...), &out, &errb); code != 0 {
		t.Fatalf("bagscope marks %v: exit %d: %s", args, code, errb.String())
	}
	return out.String()
}

// addBookmark presses Ctrl+B in k's window, fills the dialog's name and
// note and presses Add.
func addBookmark(t *testing.T, k *keysWindow, name, note string) {
	t.Helper()
	uitest.PressShortcut(k.w, shortcutBookmark)
	top := k.w.Canvas().Overlays().Top()
	if top == nil || !uitest.ContainsText(uitest.ShownObjects(top), "Add Bookmark") {
		t.Fatal("Ctrl+B showed no Add Bookmark dialog")
	}
	var entries []*widget.Entry
	var add *widget.Button
	for _, o := range uitest.ShownObjects(top) {
		switch o := o.(type) {
		case *widget.Entry:
			entries = append(entries, o)
		case *widget.Button:
			if o.Text == "Add" {
				add = o
			}
		}
	}
	if len(entries) != 2 || add == nil {
		t.Fatalf("the dialog has %d entries and Add %v", len(entries), add != nil)
	}
	if k.w.Canvas().Focused() != entries[0] {
		t.Errorf("the name does not have the keyboard: %T does", k.w.Canvas().Focused())
	}
	entries[0].SetText(name)
	entries[1].SetText(note)
	test.Tap(add)
}

// TestBookmarksRoundTripThroughSidecar adds bookmarks in the window at
// the current time (Ctrl+B), and checks them in the sidecar beside the
// recording (which is not written), on the timeline, after reopening,
// and in the CSV the window saves against `bagscope marks --csv`.
func TestBookmarksRoundTripThroughSidecar(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	dir := t.TempDir()
	rec := filepath.Join(dir, "robot run.bag")
	data, err := os.ReadFile("../testdata/robot.bag")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(rec, data, 0o644); err != nil {
		t.Fatal(err)
	}
	c := newTestController(t)
	k := openKeysWindow(t, c, rec)
	l := k.v.link
	start := k.v.doc.Summary.Start.Nanos()
	t1, t2 := start+1_250_000_000, start+333_000_000
	l.SetCursor(t1)
	addBookmark(t, k, "wheel slip", "left wheel, \"again\"\nsee /odom")
	l.SetCursor(t2)
	addBookmark(t, k, "", "")

	side := rec + marks.SidecarSuffix
	bm, err := marks.Load(rec)
	if err != nil || bm.Path != side || len(bm.List) != 2 {
		t.Fatalf("the sidecar %s holds %+v (%v)", bm.Path, bm.List, err)
	}
	if b := bm.List[1]; b.Time.Nanos() != t1 || b.Name != "wheel slip" || b.Note != "left wheel, \"again\"\nsee /odom" {
		t.Errorf("the sidecar's second bookmark is %+v", b)
	}
	if b := bm.List[0]; b.Time.Nanos() != t2 || b.Name != "bookmark at "+b.Time.String() {
		t.Errorf("the unnamed bookmark is %+v", b)
	}
	if got, _ := os.ReadFile(rec); sha256.Sum256(got) != sha256.Sum256(data) {
		t.Fatal("the recording was written")
	}
	checkTimeline := func(k *keysWindow) {
		t.Helper()
		ms := k.v.views.timeline.View().Bookmarks()
		if len(ms) != 2 || ms[0].T != t2 || ms[1].T != t1 || ms[1].Text != "wheel slip\nleft wheel, \"again\"\nsee /odom" {
			t.Errorf("the timeline shows %+v", ms)
		}
	}
	checkTimeline(k)
	var got bytes.Buffer
	if err := k.v.views.marks.WriteBookmarksCSV(&got); err != nil {
		t.Fatal(err)
	}
	if want := marksCommand(t, "--csv", rec); got.String() != want {
		t.Errorf("the window's CSV:\n%s\nmarks --csv:\n%s", got.String(), want)
	}
	k.w.Close()

	// Reopened, the window reads them back.
	k2 := openKeysWindow(t, c, rec)
	defer k2.w.Close()
	checkTimeline(k2)
}

// TestEventsOnTheirLanes: the foxglove.Event messages of an MCAP show on
// their topic's lane with their spans and labels, and save as CSV as
// `bagscope marks --events --csv` writes them.
func TestEventsOnTheirLanes(t *testing.T) {
	var buf bytes.Buffer
	mw, err := lib.NewWriter(&buf, &lib.WriterOptions{Chunked: true, ChunkSize: 1 << 10})
	if err != nil {
		t.Fatal(err)
	}
	mw.WriteHeader(&lib.Header{})
	mw.WriteSchema(&lib.Schema{ID: 1, Name: "foxglove.Event", Encoding: "jsonschema", Data: []byte("{}")})
	mw.WriteSchema(&lib.Schema{ID: 2, Name: "Speed", Encoding: "jsonschema", Data: []byte("{}")})
	mw.WriteChannel(&lib.Channel{ID: 1, SchemaID: 1, Topic: "/events", MessageEncoding: "json"})
	mw.WriteChannel(&lib.Channel{ID: 2, SchemaID: 2, Topic: "/speed", MessageEncoding: "json"})
	const t0 = 1700000000e9
	for i := range 100 {
		mw.WriteMessage(&lib.Message{ChannelID: 2, Sequence: uint32(i), LogTime: t0 + uint64(i)*1e8, PublishTime: t0 + uint64(i)*1e8, Data: []byte(`{"v": 1}`)})
	}
	for i, ev := range []string{
		`{"start_time": {"sec": 1700000001, "nsec": 0}, "end_time": {"sec": 1700000003, "nsec": 500000000}, "metadata": [{"key": "name", "value": "docking"}]}`,
		`{"start_time": {"sec": 1700000006, "nsec": 250}, "metadata": [{"key": "label", "value": "bump"}, {"key": "severity", "value": "high"}]}`,
	} {
		mw.WriteMessage(&lib.Message{ChannelID: 1, Sequence: uint32(i), LogTime: t0 + uint64(i+1)*3e9, PublishTime: t0 + uint64(i+1)*3e9, Data: []byte(ev)})
	}
	if err := mw.Close(); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "events.mcap")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	c := newTestController(t)
	k := openKeysWindow(t, c, path)
	defer k.w.Close()
	evs := k.v.views.timeline.View().Events("/events")
	if len(evs) != 2 || evs[0].Text != "docking" || evs[0].T != 1700000001e9 || evs[0].End != 1700000003_500000000 ||
		evs[1].Text != "bump" || evs[1].T != 1700000006_000000250 || evs[1].End != evs[1].T {
		t.Fatalf("the /events lane shows %+v", evs)
	}
	if n := len(k.v.views.timeline.View().Events("/speed")); n != 0 {
		t.Errorf("the /speed lane shows %d events", n)
	}
	var got bytes.Buffer
	if err := k.v.views.marks.WriteEventsCSV(&got); err != nil {
		t.Fatal(err)
	}
	if want := marksCommand(t, "--events", "--csv", path); got.String() != want {
		t.Errorf("the window's events CSV:\n%s\nmarks --events --csv:\n%s", got.String(), want)
	}
	// The tooltip over the event's start names it.
	tv := k.v.views.timeline.View()
	tv.Resize(fyne.NewSize(900, 200))
	if s := tv.MarkText(evs[1].T, "/events"); s == "" || !bytes.Contains([]byte(s), []byte(`Event "bump"`)) {
		t.Errorf("the tooltip at the bump says %q", s)
	}
}
