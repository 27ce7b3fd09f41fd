package uitest

import (
	"image"
	"time"
	_ "unsafe" // for go:linkname

	"fyne.io/fyne/v2"
)

// Fyne's Capture first cleans its object cache (internal/cache.Clean): it
// drops the renderers and canvas entries stamped more than a minute
// before, and the stamp is the clock Fyne read at its previous clean. In a
// test binary nothing else cleans, so in a package whose tests had run
// over a minute without a capture (a long package, a loaded machine) a new
// window's renderers were stamped stale, and its own capture dropped them
// and drew new ones never laid out: TestSensorImageZoomPanReadout failed
// so ("at 1:1 the window does not draw the frame's pixels exactly") and
// passed alone. Capture draws without that clean, whatever the time.
// lastClean is Fyne's own (internal/cache), at the version go.mod pins;
// TestCaptureKeepsTheWindow checks that it is.

//go:linkname fyneLastClean fyne.io/fyne/v2/internal/cache.lastClean
var fyneLastClean time.Time

// Capture returns what c shows, as c.Capture does but without dropping
// what Fyne's cache holds for it: the clean waits 10 s after the last one,
// and Capture says the last one is now. It runs on the test's goroutine,
// as everything the test window draws does.
func Capture(c fyne.Canvas) image.Image {
	fyneLastClean = time.Now()
	return c.Capture()
}
