package ui

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/software"
	"fyne.io/fyne/v2/widget"
)

// screenshotTimeout bounds how long --screenshot waits for the bag to load.
const screenshotTimeout = 2 * time.Minute

// screenshot opens the bag in a window and, once it has loaded, renders the
// window's content to out and quits. status becomes 0 when the PNG is
// written. A real GL window's Capture is blank under Xvfb, so the content
// is rendered with Fyne's software painter, in the app's real theme.
func (c *controller) screenshot(out, tab string, sample bool, files []string, status *int) {
	*status = 1
	timer := time.AfterFunc(screenshotTimeout, func() {
		fyne.Do(func() {
			fmt.Fprintf(os.Stderr, "bagscope: --screenshot: the bag did not load within %s\n", screenshotTimeout)
			c.app.Quit()
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
			img := renderContent(content, bagWindowSize)
			if err := writePNG(out, img); err != nil {
				fmt.Fprintf(os.Stderr, "bagscope: --screenshot: %v\n", err)
			} else {
				*status = 0
			}
			c.app.Quit()
		}
		if tab == "" {
			capture()
			return
		}
		if !selectTab(v.win.Content(), tab) {
			fmt.Fprintf(os.Stderr, "bagscope: --screenshot: no tab called %q\n", tab)
		}
		// Give the tab's background work (a check, a list) a moment.
		time.AfterFunc(tabSettle, func() { fyne.Do(capture) })
	}
	if sample {
		c.openSample(nil)
	} else {
		c.openPath(files[0], nil)
	}
}

// tabSettle is how long --tab waits for the tab's background work.
const tabSettle = 2 * time.Second

// selectTab selects, in the first tab container under o, the tab whose
// title starts with name.
func selectTab(o fyne.CanvasObject, name string) bool {
	switch t := o.(type) {
	case *container.AppTabs:
		return selectTabNamed(t, name)
	case *fyne.Container:
		for _, c := range t.Objects {
			if selectTab(c, name) {
				return true
			}
		}
	}
	return false
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

// renderContent draws o at size with the software painter, as a window
// would show it.
func renderContent(o fyne.CanvasObject, size fyne.Size) image.Image {
	cv := software.NewCanvas()
	cv.SetContent(o)
	cv.Resize(size)
	return cv.Capture()
}

func writePNG(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
