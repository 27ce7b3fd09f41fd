package ui

import (
	"path/filepath"

	"fyne.io/fyne/v2"
	fynetooltip "github.com/dweymouth/fyne-tooltip"

	"github.com/bagscope/bagscope/assets"
	"github.com/bagscope/bagscope/bag"
)

// Default window sizes.
var (
	bagWindowSize   = fyne.NewSize(1280, 800)
	startWindowSize = fyne.NewSize(760, 560)
)

// newWindow creates a window with bagscope's menu, shortcuts and drop
// handling.
func (c *controller) newWindow(title string) fyne.Window {
	w := c.app.NewWindow(title)
	w.SetIcon(iconResource)
	w.SetMainMenu(c.mainMenu(w))
	c.addShortcuts(w)
	w.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) { c.dropped(w, uris) })
	return w
}

// dropped opens the files and folders dropped on window w, each in its
// own window (the start page's window takes the first); dropped on a
// window that shows a recording, they may join it instead (multi.go).
func (c *controller) dropped(w fyne.Window, uris []fyne.URI) {
	if v := c.views[w]; v != nil && v.doc != nil && len(uris) > 0 {
		paths := make([]string, len(uris))
		for i, u := range uris {
			paths[i] = u.Path()
		}
		c.droppedOnRecording(w, v, paths)
		return
	}
	for _, u := range uris {
		c.openPath(u.Path(), w)
	}
}

// showStart shows the start page in a new window.
func (c *controller) showStart() {
	w := c.newWindow("bagscope")
	c.start = w
	setWindowContent(w, newStartPage(c, w))
	w.Resize(startWindowSize)
	w.SetOnClosed(func() {
		fynetooltip.DestroyWindowToolTipLayer(w.Canvas())
		if c.start == w {
			c.start = nil
		}
	})
	w.CenterOnScreen()
	w.Show()
}

// targetWindow returns the window to open a bag in: from picks the start
// page's window when it still shows the start page; otherwise nil, which
// means a new window.
func (c *controller) targetWindow(from fyne.Window) fyne.Window {
	if from != nil && from == c.start {
		c.start = nil
		return from
	}
	return nil
}

// openPath opens the bag at path in a window.
func (c *controller) openPath(path string, from fyne.Window) {
	if bag.IsURL(path) {
		// Read in place; the title names the file, never its query.
		c.openSource(source{path: path, name: bag.Base(path)}, c.targetWindow(from))
		return
	}
	// --screenshot keeps the path as given (a relative name), so the
	// README's pictures show no local folders.
	if abs, err := filepath.Abs(path); err == nil && !c.screenshotting {
		path = abs
	}
	c.openSource(source{path: path, name: recordingName(path)}, c.targetWindow(from))
}

// recordingName is what a window opened on path is called: the file's
// name, or a rosbag2 folder's when path is its metadata.yaml (as the
// desktop's file chooser picks a folder).
func recordingName(path string) string {
	if filepath.Base(path) == "metadata.yaml" {
		return filepath.Base(filepath.Dir(path))
	}
	return filepath.Base(path)
}

// openSample opens the embedded ROS 1 sample bag.
func (c *controller) openSample(from fyne.Window) {
	c.openSource(source{name: assets.SampleName, data: assets.SampleBag}, c.targetWindow(from))
}

// openSample2 opens the embedded ROS 2 sample, an MCAP rosbag2 wrote.
func (c *controller) openSample2(from fyne.Window) {
	c.openSource(source{name: assets.Sample2Name, data: assets.Sample2MCAP}, c.targetWindow(from))
}

func (c *controller) openSource(src source, w fyne.Window) {
	others := c.bagWindows()
	if w == nil {
		w = c.newWindow(src.name + " — bagscope")
	} else {
		w.SetTitle(src.name + " — bagscope")
	}
	w.Resize(bagWindowSize)
	v := newBagView(c, w, src)
	c.views[w] = v
	w.SetCloseIntercept(func() { c.closeWindow(w) })
	w.SetOnClosed(func() {
		fynetooltip.DestroyWindowToolTipLayer(w.Canvas())
		v.close()
		delete(c.views, w)
	})
	setWindowContent(w, v.content)
	w.Show()
	c.place(w, others)
	v.load()
}

// bagWindows are the open bag windows.
func (c *controller) bagWindows() []fyne.Window {
	out := make([]fyne.Window, 0, len(c.views))
	for w := range c.views {
		out = append(out, w)
	}
	return out
}

// closeWindow remembers where bag window w was, then closes it (Ctrl+W,
// the window's close button).
func (c *controller) closeWindow(w fyne.Window) {
	c.remember(w)
	c.keepLayout(c.views[w])
	_, bag := c.views[w]
	last := bag && len(c.views) == 1 && c.start == nil
	w.Close()
	if last && c.lastClosed != nil {
		c.lastClosed()
	}
}

// quitApp remembers where the bag windows were, then quits (Ctrl+Q).
func (c *controller) quitApp() {
	for w, v := range c.views {
		c.remember(w)
		c.keepLayout(v)
	}
	c.quit()
	if c.lastClosed != nil {
		c.lastClosed()
	}
}

// openExtensions are the file endings the Open dialog lists: ROS 1 bags,
// MCAP, rosbag2's .db3 and metadata.yaml, and their FILE-compressed copies.
var openExtensions = []string{".bag", ".active", ".mcap", ".db3", ".yaml", ".zstd"}

// setWindowContent shows o in w with a layer for tooltips above it.
func setWindowContent(w fyne.Window, o fyne.CanvasObject) {
	w.SetContent(fynetooltip.AddWindowToolTipLayer(o, w.Canvas()))
}
