package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// TestReadLossBanner opens an MCAP whose chunk is damaged but whose summary
// is whole: the file opens through its index, and once counting the topics'
// bytes has read every message, the window's banner says what was skipped,
// with the offset first, and offers the findings. Its words are those `bagscope
// verify` prints for the same copy: of the chunk's 10,000 messages, 3,549
// were read (suspect: the CRC fails) and 6,451 lost.
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
	for _, want := range []string{"At offset 61: 6,451 messages lost", "3,549 messages recovered", "Show findings"} {
		if !strings.Contains(got, want) {
			t.Errorf("the window does not show %q; it shows:\n%.3000s", want, got)
		}
	}
}
