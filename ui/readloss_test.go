package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// TestReadLossBanner opens an MCAP whose chunk is damaged but whose summary
// is whole: the file opens through its index, and once counting the topics'
// bytes has read every message, the window's banner says what was skipped,
// with the offset first, and offers the findings. Its words are those
// every command (verify, check, info --read-all) prints for the same
// copy: of the chunk's 10,000 messages, 3,549 were read, every one
// suspect (the CRC fails: each may not be the message recorded), so
// 6,451 to 10,000 were lost.
func TestReadLossBanner(t *testing.T) {
	data, err := os.ReadFile("../testdata/ros2-mixed.mcap")
	if err != nil {
		t.Fatal(err)
	}
	data[200000] ^= 0xff // inside the zstd chunk's data
	p := filepath.Join(t.TempDir(), "damaged.mcap")
	os.WriteFile(p, data, 0o644)
	c := newTestController(t)
	var opened *bagView
	c.onOpened = func(v *bagView) { opened = v }
	c.openPath(p, nil)
	if opened == nil || opened.err != nil {
		t.Fatalf("not opened: %+v", opened)
	}
	w := opened.win
	w.Resize(bagWindowSize)
	got := uitest.Shown(w)
	for _, want := range []string{"At offset 61: 6,451 to 10,000 messages lost", "3,549 messages recovered", "Show findings"} {
		if !strings.Contains(got, want) {
			t.Errorf("the window does not show %q; it shows:\n%.3000s", want, got)
		}
	}
	// The line's end, cut at this width, says the suspects as verify does.
	headline := ""
	for _, o := range uitest.ShownObjects(w.Content()) {
		if l, ok := o.(*widget.Label); ok && strings.HasPrefix(l.Text, "At offset 61:") {
			headline = l.Text
		}
	}
	if !strings.Contains(headline, "; 3,549 suspect messages") {
		t.Errorf("the banner's line is %q, without the suspect messages", headline)
	}
}
