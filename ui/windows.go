package ui

import (
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
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
	w.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) {
		for _, u := range uris {
			c.openPath(u.Path(), w)
		}
	})
	return w
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
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	c.openSource(source{path: path, name: filepath.Base(path)}, c.targetWindow(from))
}

// openSample opens the embedded sample bag.
func (c *controller) openSample(from fyne.Window) {
	c.openSource(source{name: assets.SampleName, data: assets.SampleBag}, c.targetWindow(from))
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
	w.Close()
}

// quitApp remembers where the bag windows were, then quits (Ctrl+Q).
func (c *controller) quitApp() {
	for w := range c.views {
		c.remember(w)
	}
	c.quit()
}

// openExtensions are the file endings the Open dialog lists: ROS 1 bags,
// MCAP, rosbag2's .db3 and metadata.yaml, and their FILE-compressed copies.
var openExtensions = []string{".bag", ".active", ".mcap", ".db3", ".yaml", ".zstd"}

// showFolderDialog asks for a recording folder (a rosbag2 bag, or ROS 1
// split files) to open as one recording.
func (c *controller) showFolderDialog(w fyne.Window) {
	d := dialog.NewFolderOpen(func(l fyne.ListableURI, err error) {
		if err != nil {
			dialog.ShowError(err, w)
			return
		}
		if l != nil {
			c.openPath(l.Path(), w)
		}
	}, w)
	if paths := c.recent.Paths(); len(paths) > 0 {
		if l, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(paths[0]))); err == nil {
			d.SetLocation(l)
		}
	}
	d.Show()
	d.Resize(fyne.NewSize(min(900, w.Canvas().Size().Width*0.9), min(640, w.Canvas().Size().Height*0.9)))
}

// showOpenDialog asks for a recording file to open.
func (c *controller) showOpenDialog(w fyne.Window) {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			dialog.ShowError(err, w)
			return
		}
		if r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		c.openPath(path, w)
	}, w)
	d.SetFilter(storage.NewExtensionFileFilter(openExtensions))
	if paths := c.recent.Paths(); len(paths) > 0 {
		if l, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(paths[0]))); err == nil {
			d.SetLocation(l)
		}
	}
	d.Show() // Resize before Show panics in Fyne 2.8
	d.Resize(fyne.NewSize(min(900, w.Canvas().Size().Width*0.9), min(640, w.Canvas().Size().Height*0.9)))
}

// setWindowContent shows o in w with a layer for tooltips above it.
func setWindowContent(w fyne.Window, o fyne.CanvasObject) {
	w.SetContent(fynetooltip.AddWindowToolTipLayer(o, w.Canvas()))
}
