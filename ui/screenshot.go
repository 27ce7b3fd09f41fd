package ui

import (
	"fmt"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// screenshotTimeout bounds how long --screenshot waits for the bag to load.
const screenshotTimeout = 2 * time.Minute

// screenshot opens the bag in a window and, once it has loaded, renders the
// window's content to out and quits. status becomes 0 when the PNG is
// written. A real GL window's Capture is blank under Xvfb, so the content
// is rendered with Fyne's software painter, in the app's real theme.
func (c *controller) screenshot(out string, sample bool, files []string, status *int) {
	*status = 1
	widgets.RememberSplits = false // the picture shows the defaults, not this user's dividers
	c.screenshotting = true
	timer := time.AfterFunc(screenshotTimeout, func() {
		fyne.Do(func() {
			fmt.Fprintf(os.Stderr, "bagscope: --screenshot: the bag did not load within %s\n", screenshotTimeout)
			c.quitScreenshot(*status)
		})
	})
	c.onOpened = func(v *bagView) {
		c.onOpened = nil
		timer.Stop()
		if v.err != nil {
			fmt.Fprintf(os.Stderr, "bagscope: %s: %v (the screenshot shows the error)\n", v.src.name, v.err)
		}
		capture := func() {
			content := v.win.Content()
			v.win.SetContent(widget.NewLabel("")) // an object lives on one canvas at a time
			// --size is the picture's size in pixels; on a scaled
			// screen (FYNE_SCALE=2) the window is that many pixels and
			// half as many units, and its text is drawn at that scale.
			scale := shotScale(v.win.Canvas().Scale())
			img := widgets.RenderContentScaled(content, fyne.NewSize(bagWindowSize.Width/scale, bagWindowSize.Height/scale), scale)
			if err := widgets.WritePNG(out, img); err != nil {
				fmt.Fprintf(os.Stderr, "bagscope: --screenshot: %v\n", err)
			} else {
				*status = 0
			}
			c.quitScreenshot(*status)
		}
		if v.link == nil {
			capture()
			return
		}
		whenIdle(v.link, capture)
	}
	if sample {
		c.openSample(nil)
	} else {
		c.openPath(files[0], nil)
	}
}

// settle is how long --screenshot lets the views lay out and start their
// background work, and how long they must then stay idle.
const settle = 400 * time.Millisecond

// whenIdle calls f on the UI goroutine once the link's background work
// (indexing, decoding, extracting, checking) has finished, or after the
// screenshot timeout.
func whenIdle(l *link.Hub, f func()) {
	deadline := time.Now().Add(screenshotTimeout)
	idle := 0
	var poll func()
	poll = func() {
		if l.Busy() {
			idle = 0
		} else {
			idle++
		}
		if idle >= 3 || time.Now().After(deadline) {
			f()
			return
		}
		time.AfterFunc(settle/3, func() { fyne.Do(poll) })
	}
	time.AfterFunc(settle, func() { fyne.Do(poll) })
}

// selectTabNamed selects the tab whose title starts with name.
func selectTabNamed(t *container.AppTabs, name string) bool {
	for _, it := range t.Items {
		if strings.HasPrefix(it.Text, name) {
			t.Select(it)
			return true
		}
	}
	return false
}

// quitScreenshot ends a --screenshot run. Fyne 2.8 can hang on quit when a
// lifecycle event is still queued for the main loop that quitting stops
// (seen under the race detector on a loaded machine): the app is asked to
// quit, and the process exits with the status shortly after if it has not.
func (c *controller) quitScreenshot(status int) {
	time.AfterFunc(3*time.Second, func() { os.Exit(status) })
	c.app.Quit()
}

// shotScale is the scale a screenshot is drawn at: the window's, as the
// screen and FYNE_SCALE make it, or 1 when it has none.
func shotScale(s float32) float32 {
	if s <= 0 || s != s {
		return 1
	}
	return s
}
