package uitest

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/widgets"
)

// HexLines returns the lines of text a hex view paints, in order: the
// header, then each row as offset, hex bytes and ASCII.
func HexLines(h *widgets.HexView) []string {
	return test.WidgetRenderer(h).(interface{ DrawnLines() []string }).DrawnLines()
}

// AssertHexLines compares the lines a hex view paints with a golden file
// in testdata (rewritten with -update): the markup files show the view's
// text only as a raster.
func AssertHexLines(t *testing.T, name string, h *widgets.HexView) {
	t.Helper()
	path := filepath.Join("testdata", name)
	got := strings.Join(HexLines(h), "\n") + "\n"
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("hex view lines differ from %s:\n%s", path, got)
	}
}

// HexSpans, HexStart, HexSize and HexReader return what a hex view shows.
func HexSpans(h *widgets.HexView) []model.Span { _, _, _, spans := h.Data(); return spans }

// HexStart returns the first offset a hex view shows.
func HexStart(h *widgets.HexView) int64 { _, start, _, _ := h.Data(); return start }

// HexSize returns how many bytes a hex view shows.
func HexSize(h *widgets.HexView) int64 { _, _, size, _ := h.Data(); return size }

// HexReader returns what a hex view reads.
func HexReader(h *widgets.HexView) io.ReaderAt { r, _, _, _ := h.Data(); return r }
