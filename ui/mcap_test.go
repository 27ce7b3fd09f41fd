package ui

import (
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	_ "github.com/bagscope/bagscope/bag/mcap" // the window must work for a format other than ROS 1
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// mcapSample is an MCAP file with ROS 2 messages.
const mcapSample = "../../shared/bags/Tiryoh__rosbag-analyzer-web/e2e/fixtures/test_sample.mcap"

// TestNonROS1Window opens an MCAP file in a window: the views that read
// through the storage seam work, and the Records and Chunk views show the
// file's own records.
func TestNonROS1Window(t *testing.T) {
	if _, err := os.Stat(mcapSample); err != nil {
		t.Skip("shared bags missing")
	}
	c := newTestController(t)
	var opened *bagView
	c.onOpened = func(v *bagView) { opened = v }
	c.openPath(mcapSample, nil)
	if opened == nil || opened.err != nil {
		t.Fatalf("not opened: %+v", opened)
	}
	if opened.doc.Bag != nil {
		t.Fatal("an MCAP file opened as a ROS 1 bag")
	}
	w := opened.win
	w.Resize(bagWindowSize)
	got := uitest.Shown(w)
	for _, want := range []string{"test_sample.mcap", "MCAP v", "Topics ("} {
		if !strings.Contains(got, want) {
			t.Errorf("window does not show %q; it shows:\n%.4000s", want, got)
		}
	}
	var tabs *container.AppTabs
	for _, o := range test.LaidOutObjects(w.Content()) {
		if at, ok := o.(*container.AppTabs); ok {
			tabs = at
		}
	}
	if tabs == nil {
		t.Fatal("no tabs")
	}
	// The Records and Chunk tabs read the file's own records through the
	// storage (ui/records/records_test.go tests them closely).
	selectTabNamed(tabs, "Records")
	// (scrolled to the record of the message selected on opening)
	if got := uitest.Shown(w); strings.Contains(got, "not available") || !strings.Contains(got, " record at byte ") {
		t.Errorf("the Records tab does not list the records; the window shows:\n%.4000s", got)
	}
	selectTabNamed(tabs, "Chunk")
	if got := uitest.Shown(w); strings.Contains(got, "not available") {
		t.Errorf("the Chunk tab says it is not available; the window shows:\n%.4000s", got)
	}
	// The Findings tab checks the file through the seam.
	selectTabNamed(tabs, "Findings")
	if got := uitest.Shown(w); strings.Contains(got, "The check could not run") {
		t.Errorf("the check did not run:\n%.4000s", got)
	}

	// A message, selected as --select does, shows in the Message tab, and
	// Prev/Next step through its topic.
	l := opened.link
	topic := opened.doc.Topics[0].Topic
	var warned error
	applySelection(l, selection{topic: topic, sec: 0}, true, func(err error) { warned = err })
	if warned != nil {
		t.Fatal(warned)
	}
	ref, ok := l.Message()
	if !ok {
		t.Fatal("no message selected")
	}
	selectTabNamed(tabs, "Message")
	got = uitest.ShownLines(w) // the position line is a raster
	if !strings.Contains(got, topic) || !strings.Contains(got, "message 1 of") {
		t.Errorf("the Message tab does not show the first message of %s:\n%.6000s", topic, got)
	}
	// Show in Records shows the message's record.
	test.Tap(uitest.FindButton(t, w.Content(), "Show in Records"))
	if got := uitest.Shown(w); !strings.Contains(got, "message record at byte") {
		t.Errorf("Show in Records does not show the message's record:\n%.6000s", got)
	}
	selectTabNamed(tabs, "Message")
	x := l.Index()
	if tm := x.Topic(topic); tm != nil && tm.Len() > 1 {
		test.Tap(uitest.FindButton(t, w.Content(), "Next"))
		if next, _ := l.Message(); next == ref || next != tm.At(1) {
			t.Errorf("Next selected %+v, want %+v", next, tm.At(1))
		}
	}
	selectTabNamed(tabs, "Plots")
	_ = uitest.Shown(w)
	selectTabNamed(tabs, "Topics")
	_ = uitest.Shown(w)
	if n := len(series.Topics(opened.doc.Storage)); n != len(opened.doc.Topics) {
		t.Errorf("%d topics in the storage, %d in the table", n, len(opened.doc.Topics))
	}
}
