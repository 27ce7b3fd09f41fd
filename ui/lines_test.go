package ui

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/widgets"
)

// shownLines is the window's markup followed by the texts of the line
// labels on screen: a LineLabel is a raster, so the markup has no text.
func shownLines(w fyne.Window) string {
	var b strings.Builder
	b.WriteString(shown(w))
	for _, o := range test.LaidOutObjects(w.Content()) {
		var l *widgets.LineLabel
		switch o := o.(type) {
		case *widgets.LineLabel:
			l = o
		case *widgets.TipLine:
			l = &o.LineLabel
		}
		if l != nil && l.Visible() && l.Text != "" {
			b.WriteString("\n" + l.Text)
		}
	}
	return b.String()
}

// assertHexLines compares the lines a hex view paints with a golden file
// in testdata (rewritten with -update): the markup files show the view's
// text only as a raster.
func assertHexLines(t *testing.T, name string, h *widgets.HexView) {
	t.Helper()
	path := filepath.Join("testdata", name)
	got := strings.Join(hexLines(h), "\n") + "\n"
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

// hexLines returns the lines of text a hex view paints, in order: the
// header, then each row as offset, hex bytes and ASCII.
func hexLines(h *widgets.HexView) []string {
	return test.WidgetRenderer(h).(interface{ DrawnLines() []string }).DrawnLines()
}

// hexSpans, hexStart, hexSize and hexReader return what a hex view shows.
func hexSpans(h *widgets.HexView) []model.Span { _, _, _, spans := h.Data(); return spans }

func hexStart(h *widgets.HexView) int64 { _, start, _, _ := h.Data(); return start }

func hexSize(h *widgets.HexView) int64 { _, _, size, _ := h.Data(); return size }

func hexReader(h *widgets.HexView) io.ReaderAt { r, _, _, _ := h.Data(); return r }

// TestShownLines: shownLines reads the text of a line label, which the
// markup lacks.
func TestShownLines(t *testing.T) {
	test.NewTempApp(t)
	l := widgets.NewTipLine("message 6 of 2,000 on /imu  ·  +0.050 s", fyne.TextStyle{})
	w := test.NewTempWindow(t, l)
	w.Resize(fyne.NewSize(600, 60))
	if !strings.Contains(shownLines(w), "message 6 of 2,000") {
		t.Errorf("shownLines misses the label's text")
	}
}
