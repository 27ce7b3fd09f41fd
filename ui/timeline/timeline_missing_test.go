package timeline

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/ui/internal/uitest"
)

// TestTimelineMissingFileHover removes one file of a real split set: the
// chunk lane names it in a gap, and hovering the gap says what was lost,
// the count the file itself holds (opened alone from the intact set),
// while hovering beside it still describes the chunk there. A missing
// first file is a narrow gap at the lane's start.
func TestTimelineMissingFileHover(t *testing.T) {
	const src = "../../../shared/bags/ros2__rosbag2/rosbag2_py/test/resources/sqlite3/wbag"
	for _, tc := range []struct {
		gone string
		x    func(tv *View) float32 // where the gap is
	}{
		{"wbag_2.db3", func(tv *View) float32 {
			g := tv.tl.Missing[0]
			return (tv.x(g.T0) + tv.x(g.T1)) / 2
		}},
		{"wbag_0.db3", func(tv *View) float32 { return tv.labelW() + 2 }},
	} {
		t.Run(tc.gone, func(t *testing.T) {
			s, err := bag.Open(filepath.Join(src, tc.gone))
			if err != nil {
				t.Skip(err)
			}
			sum, err := s.Summary()
			s.Close()
			if err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("%s is missing: %s messages lost (metadata.yaml counts them)", tc.gone, thousands(sum.Messages))

			tv, status := newTestTimeline(t, copyWithout(t, src, tc.gone))
			if len(tv.tl.Missing) != 1 {
				t.Fatalf("%d missing files on the timeline", len(tv.tl.Missing))
			}
			at := fyne.NewPos(tc.x(tv), tlLaneH/2)
			tv.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: at}})
			if tv.hover != want || *status != want {
				t.Errorf("hovering the gap: tooltip %q, status %q\nwant %q", tv.hover, *status, want)
			}
			if tv.r == nil || !tv.r.tipText.Visible() || tv.r.tipText.Text != want {
				t.Errorf("the tooltip drawn is not %q", want)
			}
			x0, x1 := tv.missingX(tv.tl.Missing[0])
			beside := fyne.NewPos(x1+4, tlLaneH/2)
			if tc.gone == "wbag_2.db3" {
				beside.X = x0 - 4
			}
			tv.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: beside}})
			// Beside it: the file there (a .db3's span is the file's), or a
			// chunk of it.
			if strings.Contains(tv.hover, "missing") || !strings.Contains(tv.hover, "wbag_") {
				t.Errorf("beside the gap: %q", tv.hover)
			}
			if named := drawnText(tv, tc.gone); named != (x1-x0 > 80) {
				t.Errorf("the gap %.0f px wide: its name drawn %v", x1-x0, named)
			}
		})
	}
}

// drawnText reports whether the view draws the text s.
func drawnText(tv *View, s string) bool {
	tv.Refresh()
	for _, o := range uitest.ShownObjects(tv) {
		if tx, ok := o.(*canvas.Text); ok && tx.Visible() && tx.Text == s {
			return true
		}
	}
	return false
}

// copyWithout copies the folder src without the file gone.
func copyWithout(t *testing.T, src, gone string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "wbag")
	if err := os.Mkdir(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.Name() == gone {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// thousands writes n with thousands separators.
func thousands(n uint64) string {
	s := strconv.FormatUint(n, 10)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// TestTimelineMissingFilesAtOnePlace opens a real folder holding only
// the last of its 13 files: the 12 missing all end before it starts, so
// they sit together at the lane's start, and hovering there names the
// first and last and says what they lost together: what metadata.yaml
// counts less what the one file there holds (opened alone).
func TestTimelineMissingFilesAtOnePlace(t *testing.T) {
	const dir = "../../../shared/bags/rosbag-sharing-community__amber/tests/rosbag/soccer_goal"
	meta, err := os.ReadFile(filepath.Join(dir, "metadata.yaml"))
	if err != nil {
		t.Skip(err)
	}
	m := regexp.MustCompile(`(?m)^  message_count: (\d+)`).FindSubmatch(meta)
	if m == nil {
		t.Fatal("no message_count in metadata.yaml")
	}
	total, _ := strconv.ParseUint(string(m[1]), 10, 64)
	s, err := bag.Open(filepath.Join(dir, "soccer_goal_12.mcap"))
	if err != nil {
		t.Fatal(err)
	}
	sum, err := s.Summary()
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("12 files missing (soccer_goal_0.mcap … soccer_goal_11.mcap): %s messages lost (metadata.yaml counts them)", thousands(total-sum.Messages))

	tv, status := newTestTimeline(t, dir)
	tv.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(tv.labelW()+2, tlLaneH/2)}})
	if tv.hover != want || *status != want {
		t.Errorf("hovering the lane's start: tooltip %q, status %q\nwant %q", tv.hover, *status, want)
	}
	if tv.r == nil || tv.r.tipText.Text != want {
		t.Errorf("the tooltip drawn is not the whole text %q", want)
	}
}
