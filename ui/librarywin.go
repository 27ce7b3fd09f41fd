package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
	fynetooltip "github.com/dweymouth/fyne-tooltip"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/ui/library"
	"github.com/bagscope/bagscope/ui/library/query"
	"github.com/bagscope/bagscope/ui/widgets"
)

// shortcutOpenLibrary is File › Open Library… (Ctrl+Shift+O).
var shortcutOpenLibrary = &desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}

// openLibrary asks for a folder of recordings, or a catalogue, and shows
// it as a library in its own window.
func (c *controller) openLibrary(w fyne.Window) {
	d := dialog.NewFolderOpen(func(l fyne.ListableURI, err error) {
		if err != nil || l == nil {
			return
		}
		c.showLibrary(l.Path(), nil)
	}, w)
	d.SetConfirmText("Open Library")
	d.Show()
	d.Resize(fyne.NewSize(min(900, w.Canvas().Size().Width*0.9), min(640, w.Canvas().Size().Height*0.9)))
}

// showOpenLibraryURLDialog asks for an S3 prefix (or the URL of one
// recording) and shows it as a library: File › Open Library at URL….
// Credentials come from the standard AWS chain and AWS_ENDPOINT_URL, as
// for File › Open URL….
func (c *controller) showOpenLibraryURLDialog(w fyne.Window) {
	askURL(w, "Open Library at URL", "Open Library", "s3://bucket/fleet/2026/",
		"An S3 prefix, listed with its subfolders (a prefix holding a metadata.yaml is one rosbag2 recording); each recording is read from its index in place.",
		func(url string) { c.showLibrary(url, nil) })
}

// showLibrary opens the library of dir (a folder of recordings, a
// catalogue, or an S3 prefix URL) in a new window; loaded, when set, is called once its rows
// are shown.
func (c *controller) showLibrary(dir string, loaded func(*library.View, fyne.Window)) *library.View {
	if abs, err := filepath.Abs(dir); err == nil && !c.screenshotting && !bag.IsURL(dir) {
		dir = abs
	}
	w := c.newWindow("Library: " + bag.Base(dir) + " — bagscope")
	var v *library.View
	v = library.New(w, dir, library.Actions{
		Open:        func(p string) { c.openPath(p, nil) },
		OpenLibrary: func() { c.openLibrary(w) },
		Compare:     c.openCompared,
	}, func() {
		if loaded != nil {
			loaded(v, w)
		}
	})
	w.Canvas().SetOnTypedKey(v.TypedKey)
	w.Canvas().AddShortcut(query.RunShortcut, func(fyne.Shortcut) {
		v.ShowQuery()
		v.Query().Run()
	})
	setWindowContent(w, v.Content)
	w.Resize(bagWindowSize)
	w.SetOnClosed(func() {
		fynetooltip.DestroyWindowToolTipLayer(w.Canvas())
		v.Close()
	})
	w.Show()
	return v
}

// queryOnLoad is --query: once the library is read, its query box shows
// sql and runs it; then done, when set, is called.
func queryOnLoad(sql string, done func(*library.View, fyne.Window)) func(*library.View, fyne.Window) {
	if sql == "" {
		return done
	}
	return func(v *library.View, w fyne.Window) {
		q := v.Query()
		v.ShowQuery()
		q.Editor().SetText(sql)
		q.OnDone(func() {
			q.OnDone(nil)
			if done != nil {
				done(v, w)
			}
		})
		q.Run()
	}
}

// screenshotLibrary shows the library of dir and, once it is read (and
// sql, when given, has run in its query box), renders the window to out
// and quits (--library --screenshot).
func (c *controller) screenshotLibrary(out, dir, sql string, status *int) {
	*status = 1
	c.screenshotting = true
	c.showLibrary(dir, queryOnLoad(sql, func(_ *library.View, w fyne.Window) {
		capture := func() {
			content := w.Content()
			w.SetContent(widget.NewLabel("")) // an object lives on one canvas at a time
			scale := shotScale(w.Canvas().Scale())
			img := widgets.RenderContentScaled(content, fyne.NewSize(bagWindowSize.Width/scale, bagWindowSize.Height/scale), scale)
			if err := widgets.WritePNG(out, img); err != nil {
				fmt.Fprintf(os.Stderr, "bagscope: --screenshot: %v\n", err)
			} else {
				*status = 0
			}
			c.quitScreenshot(*status)
		}
		time.AfterFunc(settle, func() { fyne.Do(capture) })
	}))
}

// removeLibraryTemporary removes the catalogues the libraries' query
// boxes wrote for folders: Run calls it once the app has quit, which
// closes no window.
func removeLibraryTemporary() { library.RemoveTemporary() }
