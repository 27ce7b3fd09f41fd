package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"

	"github.com/bagscope/bagscope/ui/internal/uitest"
	"github.com/bagscope/bagscope/ui/library"
)

// TestOpenLibraryFromTheWindow: Ctrl+Shift+O (File › Open Library…) asks
// for a folder; a library window on a folder of real recordings opens the
// one chosen with Enter in a bag window of its own.
func TestOpenLibraryFromTheWindow(t *testing.T) {
	c := newTestController(t)
	old := library.Background
	library.Background = uitest.SyncRun
	t.Cleanup(func() { library.Background = old })
	w := c.newWindow("start")
	w.Resize(fyne.NewSize(1024, 640))
	w.Show()
	uitest.PressShortcut(w, shortcutOpenLibrary)
	if top := w.Canvas().Overlays().Top(); top == nil || !strings.Contains(uitest.ShownLines(w), "Open Library") {
		t.Errorf("Ctrl+Shift+O shows no folder dialog:\n%s", uitest.ShownLines(w))
	}

	dir := t.TempDir()
	src := uitest.SharedBags(t, "cruise-automation__rosbag.js/fixtures/example.bag")
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	bagPath := filepath.Join(dir, "run1", "example.bag")
	if err := os.MkdirAll(filepath.Dir(bagPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bagPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var lw fyne.Window
	v := c.showLibrary(dir, func(_ *library.View, w fyne.Window) { lw = w })
	if lw == nil || v.Rows().Len() != 1 {
		t.Fatalf("the library did not load its one recording (window %v)", lw)
	}
	v.Tap(0, false)
	lw.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if len(c.views) != 1 {
		t.Fatalf("Enter opened %d bag windows, want 1", len(c.views))
	}
	for bw, bv := range c.views {
		if bv.src.path != bagPath || !strings.HasPrefix(bw.Title(), "example.bag") {
			t.Errorf("opened %q in %q, want %s", bv.src.path, bw.Title(), bagPath)
		}
	}
}
