package uitest

import (
	"sync/atomic"
	"testing"
	"time"
	_ "unsafe" // for go:linkname

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// fyneCachedNow is the clock Fyne's cache stamps what it holds with
// (internal/cache.cachedNow), read at its last clean.
//
//go:linkname fyneCachedNow fyne.io/fyne/v2/internal/cache.cachedNow
var fyneCachedNow atomic.Int64

// TestCaptureKeepsTheWindow shows a window whose renderers Fyne stamped
// with a clock two minutes old, as in a test binary that went that long
// without a capture: Fyne's own Capture drops them (the window is drawn
// by new renderers, never laid out), Capture keeps them. It also checks
// that the linked variables are Fyne's: a clean sets lastClean.
func TestCaptureKeepsTheWindow(t *testing.T) {
	test.NewTempApp(t)
	stale := func() (fyne.Window, *widget.Label) {
		fyneCachedNow.Store(time.Now().Add(-2 * time.Minute).UnixNano())
		fyneLastClean = time.Time{}
		l := widget.NewLabel("stamped two minutes ago")
		w := test.NewTempWindow(t, l)
		w.Resize(fyne.NewSize(300, 100))
		return w, l
	}

	w, l := stale()
	r := test.WidgetRenderer(l)
	w.Canvas().Capture()
	if fyneLastClean.IsZero() {
		t.Fatal("Fyne's capture did not set fyneLastClean: the linked variable is not Fyne's cache.lastClean")
	}
	if test.WidgetRenderer(l) == r {
		t.Fatal("Fyne's capture kept a renderer stamped two minutes ago: fyneCachedNow is not Fyne's cache clock, or Fyne no longer drops them")
	}

	w, l = stale()
	r = test.WidgetRenderer(l)
	Capture(w.Canvas())
	if test.WidgetRenderer(l) != r {
		t.Error("Capture dropped the window's renderer, stamped two minutes ago")
	}
}
