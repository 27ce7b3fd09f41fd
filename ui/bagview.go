package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/fetch"
	"github.com/bagscope/bagscope/ui/link"
)

// source says where a bag comes from: a file, or bytes in memory.
type source struct {
	path string // "" for data
	name string
	data []byte
}

// bagView is the content of a bag window: a loading panel while the bag
// opens in the background, then the bag's panels or an error.
type bagView struct {
	c       *controller
	win     fyne.Window
	src     source
	content *fyne.Container // a stack holding the current state's panel

	cancel context.CancelFunc
	doc    *model.Document
	err    error
	// link connects the document's views; nil until the bag has loaded.
	link *link.Hub
	// views are the document's views the window drives; nil until the bag
	// has loaded.
	views  *docViews
	closed bool
	// allowScan is set once the user confirmed reading a remote file
	// without a usable index whole.
	allowScan bool
	// compare is the recording the Diff tab compares with once loaded
	// (the library's Compare); "" for none.
	compare string
	// members are the recordings the window shows together (File › Add
	// Recording…), the first being the one opened; nil for one. doc is
	// then their combination (multi.go).
	members []model.Member
	// reAdd are the added recordings a reload opens again with the
	// window's own, with their prefixes and offsets (multi.go).
	reAdd []addedRec
}

func newBagView(c *controller, w fyne.Window, src source) *bagView {
	return &bagView{c: c, win: w, src: src, content: container.NewStack()}
}

// load opens the bag in the background, showing progress meanwhile.
func (v *bagView) load() {
	ctx, cancel := context.WithCancel(context.Background())
	v.cancel = cancel
	lp := newLoadingPanel(v.src.name, cancel)
	v.show(lp.content)
	markTiming("window made")
	progress := throttle(func(done, total int64, stage string) {
		fyne.Do(func() { lp.set(done, total, stage) })
	})
	v.c.async(func() {
		var doc *model.Document
		var err error
		if v.src.data != nil {
			doc, err = model.OpenBytes(ctx, v.src.name, v.src.data, progress)
		} else {
			doc, err = model.OpenWith(ctx, v.src.path, progress, model.OpenOptions{AllowRemoteScan: v.allowScan})
		}
		markTiming("recording opened")
		fyne.Do(func() { v.loaded(doc, err) })
	})
}

// loaded shows the opened document or the error.
func (v *bagView) loaded(doc *model.Document, err error) {
	if v.closed {
		if doc != nil {
			doc.Close()
		}
		return
	}
	v.doc, v.err = doc, err
	var scan *bag.ScanConsentError
	switch {
	case errors.Is(err, context.Canceled):
		v.show(newCancelledPanel(v))
	case errors.As(err, &scan) && !v.allowScan:
		// A remote file without a usable index is read whole only once
		// the user agrees, knowing its size.
		v.show(fetch.NewScanConfirm(v.src.name, scan, func() {
			v.allowScan = true
			v.load()
		}, func() { v.show(newCancelledPanel(v)) }).Root)
	case err != nil:
		v.show(newErrorPanel(v, err))
	default:
		if v.src.path != "" {
			// A URL is kept redacted: a presigned URL's signature never
			// reaches the preferences (reopening it says it expired).
			v.c.recent.Add(bag.Shown(v.src.path))
			v.c.refreshMenus()
		}
		if v.members == nil && (len(v.reAdd) > 0 || len(v.c.adds) > 0) {
			// --add, or the recordings a reload keeps: those to show
			// with it (multi.go), then what the command line asks of
			// the window.
			adds := v.reAdd
			if adds == nil {
				adds = make([]addedRec, len(v.c.adds))
				for i, p := range v.c.adds {
					adds[i] = addedRec{path: p}
				}
			}
			v.reAdd = nil
			v.openAdds(doc, adds)
			return
		}
		v.present(doc)
	}
	if v.c.onOpened != nil {
		v.c.onOpened(v)
	}
}

// present shows the opened document and applies what the command line
// asks of the window (--plot, --find, --tab, --range, --select).
func (v *bagView) present(doc *model.Document) {
	dv := v.showDoc(doc)
	markTiming("topics shown")
	v.c.wireDiff(v, dv)
	v.c.restoreLayout(dv)
	if len(v.c.plots) > 0 && dv.plots != nil {
		dv.plots.PlotPaths(v.c.plots)
	}
	if v.c.find != "" && dv.find != nil {
		dv.find.SearchFor(v.c.find)
	}
	if c := v.c; c.tab != "" && !dv.link.SelectTab(c.tab) {
		fmt.Fprintf(os.Stderr, "bagscope: no tab called %q\n", c.tab)
	}
	if r := v.c.rng; r != nil {
		applyRange(dv.link, *r)
	}
	if sel := v.c.sel; sel != nil {
		applySelection(dv.link, *sel, strings.HasPrefix(v.c.tab, "Records"), func(err error) { fmt.Fprintf(os.Stderr, "bagscope: %s: %v\n", v.src.name, err) })
	}
}

// showDoc shows doc's panel and views in the window.
func (v *bagView) showDoc(doc *model.Document) *docViews {
	winH := v.win.Canvas().Size().Height
	if winH <= 0 {
		winH = bagWindowSize.Height
	}
	if v.c.screenshotting {
		// The picture is drawn at --size pixels, which on a scaled
		// screen are fewer units (screenshot.go).
		winH = bagWindowSize.Height / shotScale(v.win.Canvas().Scale())
	}
	content, dv := newDocumentPanel(doc, v.win, winH, func() { v.c.addDefinitionFolder(v.win) })
	v.link, v.views = dv.link, dv
	v.show(content)
	return dv
}

func (v *bagView) show(o fyne.CanvasObject) {
	v.content.Objects = []fyne.CanvasObject{o}
	v.content.Refresh()
}

// close stops loading and closes the document, when the window closes.
func (v *bagView) close() {
	v.closed = true
	if v.cancel != nil {
		v.cancel()
	}
	if v.link != nil {
		v.link.Close()
	}
	v.waitFetch()
	if v.doc != nil {
		v.doc.Close()
		v.doc = nil
	}
}

// waitFetch waits for the remote status line's poll to stop, once the
// link's context has ended.
func (v *bagView) waitFetch() {
	if v.views != nil && v.views.fetch != nil {
		v.views.fetch.Wait()
	}
}

// reload opens the recording again in the same window, as closing and
// opening it would: a definition folder added since decodes it.
func (v *bagView) reload() {
	if v.cancel != nil {
		v.cancel()
	}
	if v.link != nil {
		v.link.Close()
		v.waitFetch()
		v.link, v.views = nil, nil
	}
	// The added recordings are opened again after the window's own,
	// each under its prefix at its offset.
	v.reAdd = nil
	for _, m := range v.members[min(1, len(v.members)):] {
		v.reAdd = append(v.reAdd, addedRec{path: m.Doc.Path, prefix: m.Prefix, offset: m.Offset, keep: true})
	}
	if v.doc != nil {
		v.doc.Close()
		v.doc = nil
	}
	v.members = nil // the added recordings are closed with the combination
	v.load()
}

// throttle passes progress on at most every 50 ms, and always the end of a
// stage, one call at a time: progress comes from several goroutines (a
// remote file's reads report from their own), and under the test driver
// fyne.Do runs f on the caller's goroutine.
func throttle(f model.ProgressFunc) model.ProgressFunc {
	var mu sync.Mutex
	var last time.Time
	var lastStage string
	return func(done, total int64, stage string) {
		mu.Lock()
		defer mu.Unlock()
		now := time.Now()
		if stage != lastStage || done == total || now.Sub(last) >= 50*time.Millisecond {
			last, lastStage = now, stage
			f(done, total, stage)
		}
	}
}
