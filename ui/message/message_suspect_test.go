package message

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/db3/db3test"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/link"
)

// TestMessagePanelMarksSuspects: a message read from a damaged unit (a
// .db3 page whose bytes no longer add up) is shown with its mark and
// why, never as a good one; a good message of the same recording has no
// mark. Which messages are suspect is what the recording's own read of
// every message says (bag.Message.Suspect).
func TestMessagePanelMarksSuspects(t *testing.T) {
	healthy, err := os.ReadFile("../../../shared/bags/facontidavide__PlotJuggler/datasamples/rosbag2_test/rosbag2_test_0.db3")
	if err != nil {
		t.Skipf("the shared recordings are needed: %v", err)
	}
	data, page := db3test.UnsoundLeaf(healthy)
	if page == 0 {
		t.Fatal("the recording has no table leaf page")
	}
	path := filepath.Join(t.TempDir(), "damaged.db3")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	uitest.NewApp(t)
	d, err := model.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	var suspect, good *msgref.Ref
	why := ""
	it := d.Storage.Messages(bag.MessageFilter{})
	for it.Next() {
		m := it.Message()
		ref := msgref.Ref{T: m.Time.Nanos(), Loc: msgref.Loc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}}
		switch {
		case m.Suspect != "" && suspect == nil:
			suspect, why = &ref, m.Suspect
		case m.Suspect == "" && good == nil:
			good = &ref
		}
	}
	it.Close()
	if suspect == nil || good == nil {
		t.Fatalf("page %d damaged: a suspect message %v, a good one %v", page, suspect != nil, good != nil)
	}
	l := link.NewHub(d, link.Background)
	t.Cleanup(l.Close)
	p := newMessageView(l)
	w := test.NewTempWindow(t, p.content)
	w.Resize(fyne.NewSize(1100, 620))

	l.SelectMessage(*suspect)
	if p.msg == nil || p.msg.Suspect == "" {
		t.Fatalf("the suspect message was read as good: %+v", p.msg)
	}
	if got := uitest.ShownLines(w); p.problem.Hidden || !strings.Contains(got, "Suspect message") || !strings.Contains(p.problem.Text, why) {
		t.Errorf("the suspect message is shown without its mark (%q):\n%s", why, got)
	}
	l.SelectMessage(*good)
	if p.msg == nil || p.msg.Suspect != "" || !p.problem.Hidden && strings.Contains(p.problem.Text, "Suspect") {
		t.Errorf("a good message is marked: %q", p.problem.Text)
	}
}

// TestMessagePanelMarksDamagedChunk: a message recovered whole from a
// damaged chunk (test_truncated.bag's chunk, cut by the end of the file)
// is not suspect, but it is never shown as good: the Message view says
// which chunk and what damage, and marks its tick on the timeline (a
// link.Suspect mark at its time) without waiting for a read of every
// message.
func TestMessagePanelMarksDamagedChunk(t *testing.T) {
	path := "../../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_truncated.bag"
	if _, err := os.Stat(path); err != nil {
		t.Skipf("the shared recordings are needed: %v", err)
	}
	uitest.NewApp(t)
	d, err := model.Open(context.Background(), path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	var refs []msgref.Ref
	it := d.Storage.Messages(bag.MessageFilter{})
	for it.Next() {
		m := it.Message()
		if m.Suspect != "" {
			t.Fatalf("a message of the cut chunk is suspect: %q", m.Suspect)
		}
		refs = append(refs, msgref.Ref{T: m.Time.Nanos(), Loc: msgref.Loc{ChunkPos: m.Loc.Block, Offset: m.Loc.Offset, Conn: m.Conn.ID}})
	}
	it.Close()
	if len(refs) != 3 {
		t.Fatalf("%d messages read, want the 3 the cut chunk holds", len(refs))
	}
	l := link.NewHub(d, link.Background)
	t.Cleanup(l.Close)
	var marks []link.Mark
	l.OnMarks(func(ms []link.Mark) { marks = append(marks, ms...) })
	p := newMessageView(l)
	w := test.NewTempWindow(t, p.content)
	w.Resize(fyne.NewSize(1100, 620))
	for _, ref := range refs {
		l.SelectMessage(ref)
		if p.msg == nil || p.msg.Damaged == "" {
			t.Fatalf("the message at %+v is read without its damaged chunk: %+v", ref.Loc, p.msg)
		}
		if got := uitest.ShownLines(w); p.problem.Hidden || !strings.Contains(got, "From a damaged chunk") || !strings.Contains(p.problem.Text, "chunk at 4117") {
			t.Errorf("the message at %+v is shown without its mark:\n%s", ref.Loc, got)
		}
	}
	ticked := 0
	for _, m := range marks {
		if m.Kind == link.Suspect && m.Topic == "/rosout_agg" {
			ticked++
		}
	}
	if ticked != len(refs) {
		t.Errorf("%d ticks marked for %d messages shown from the damaged chunk", ticked, len(refs))
	}
}
