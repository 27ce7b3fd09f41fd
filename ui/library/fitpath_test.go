package library

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// TestFitPath: a path too wide for its cell loses its middle, keeps its
// start and, while there is room, its whole file name, and fits.
func TestFitPath(t *testing.T) {
	test.NewTempApp(t)
	const size = 14
	path := "@a1dae364/rosbag2_tests/resources/reindex_test_bags/message_compression/message_compression_0.db3"
	width := func(s string) float32 { return fyne.MeasureText(s, size, fyne.TextStyle{}).Width }
	for _, tc := range []struct {
		name     string
		w        float32
		whole    bool // the path is left whole
		fileName bool // the file name is kept whole
	}{
		{"wide enough", width(path) + 1, true, true},
		{"not laid out yet", 0, true, true},
		{"two thirds", width(path) * 2 / 3, false, true},
		{"a third", width(path) / 3, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fitPath(path, tc.w, size)
			if (got == path) != tc.whole {
				t.Fatalf("%q: whole %v, want %v", got, got == path, tc.whole)
			}
			if tc.whole {
				return
			}
			if width(got) > tc.w || !strings.Contains(got, "…") || !strings.HasPrefix(got, "@a1") {
				t.Errorf("%q: %.0f px for %.0f, or no ellipsis, or not its start", got, width(got), tc.w)
			}
			if strings.HasSuffix(got, "/message_compression_0.db3") != tc.fileName {
				t.Errorf("%q: file name kept %v, want %v", got, !tc.fileName, tc.fileName)
			}
			head, tail, _ := strings.Cut(got, "…")
			if len([]rune(tail)) < 2*len([]rune(head)) {
				t.Errorf("%q: keeps %d runes of the end, %d of the start; want twice as many of the end", got, len([]rune(tail)), len([]rune(head)))
			}
		})
	}
}
