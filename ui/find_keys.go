package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/bagscope/bagscope/ui/bookmarks"
	"github.com/bagscope/bagscope/ui/cut"
	"github.com/bagscope/bagscope/ui/diffview"
	findbar "github.com/bagscope/bagscope/ui/find"
)

// The Find bar's keys. F3 and Shift+F3 reach the window only as typed
// keys (Fyne makes no shortcut of a key without Ctrl or Alt), so they
// work in the bar's entry and where no widget has the keyboard; Ctrl+G
// and Ctrl+Shift+G, menu shortcuts, work from any view.
var (
	shortcutFind     = &desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutFindNext = &desktop.CustomShortcut{KeyName: fyne.KeyG, Modifier: fyne.KeyModifierShortcutDefault}
	shortcutFindPrev = &desktop.CustomShortcut{KeyName: fyne.KeyG, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
	// shortcutSaveCut saves the selected topics and range as a new
	// recording.
	shortcutSaveCut = &desktop.CustomShortcut{KeyName: fyne.KeyE, Modifier: fyne.KeyModifierShortcutDefault}
	// shortcutBookmark adds a bookmark at the current time.
	shortcutBookmark = &desktop.CustomShortcut{KeyName: fyne.KeyB, Modifier: fyne.KeyModifierShortcutDefault}
)

// withMarks calls f with window w's bookmarks and events, once its
// recording has loaded.
func (c *controller) withMarks(w fyne.Window, f func(*bookmarks.Marks)) {
	if v := c.views[w]; v != nil && v.views != nil && v.views.marks != nil {
		f(v.views.marks)
	}
}

// withFind calls f with window w's Find bar, once its recording has
// loaded (a recording without messages has none).
func (c *controller) withFind(w fyne.Window, f func(*findbar.Bar)) {
	if v := c.views[w]; v != nil && v.views != nil && v.views.find != nil {
		f(v.views.find)
	}
}

// addFindShortcuts registers the Find bar's keys on w's canvas: Ctrl+F,
// Ctrl+G, Ctrl+Shift+G, and (where no widget has the keyboard) F3,
// Shift+F3 and Escape, which closes the bar (and on the TF and 3D tabs
// stops the transform history's read, on the Diff tab the comparison).
func (c *controller) addFindShortcuts(w fyne.Window) {
	w.Canvas().AddShortcut(shortcutFind, func(fyne.Shortcut) { c.withFind(w, (*findbar.Bar).Show) })
	w.Canvas().AddShortcut(shortcutFindNext, func(fyne.Shortcut) { c.withFind(w, func(b *findbar.Bar) { b.Step(+1) }) })
	w.Canvas().AddShortcut(shortcutFindPrev, func(fyne.Shortcut) { c.withFind(w, func(b *findbar.Bar) { b.Step(-1) }) })
	w.Canvas().AddShortcut(shortcutSaveCut, func(fyne.Shortcut) { c.saveCut(w) })
	w.Canvas().AddShortcut(shortcutBookmark, func(fyne.Shortcut) { c.withMarks(w, (*bookmarks.Marks).AddDialog) })
	shift := false
	if dc, ok := w.Canvas().(desktop.Canvas); ok {
		dc.SetOnKeyDown(func(ev *fyne.KeyEvent) {
			if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
				shift = true
			}
		})
		dc.SetOnKeyUp(func(ev *fyne.KeyEvent) {
			if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
				shift = false
			}
		})
	}
	c.onTypedKey(w, func(ev *fyne.KeyEvent) {
		switch ev.Name {
		case fyne.KeyF3:
			c.withFind(w, func(b *findbar.Bar) { b.Step(findbar.StepOf(shift)) })
		case fyne.KeyEscape:
			c.withFind(w, (*findbar.Bar).Hide)
			c.stopTFHistory(w)
			c.stopComparison(w)
		}
	})
}

// stopTFHistory stops the transform history's read (Escape) while the
// TF or 3D tab, which show its progress, is the one shown.
func (c *controller) stopTFHistory(w fyne.Window) {
	v := c.views[w]
	if v == nil || v.views == nil || v.views.tabs == nil || v.views.link == nil {
		return
	}
	if sel := v.views.tabs.Selected(); sel != nil && (sel.Text == "TF" || sel.Text == "3D") {
		v.views.link.StopTFHistory()
	}
}

// stopComparison cancels the comparison running in the Diff tab
// (Escape) while that tab is the one shown, as its Cancel button does.
func (c *controller) stopComparison(w fyne.Window) {
	v := c.views[w]
	if v == nil || v.views == nil || v.views.tabs == nil || v.views.diff == nil {
		return
	}
	if sel := v.views.tabs.Selected(); sel != nil && strings.HasPrefix(sel.Text, diffview.Title) && v.views.diff.State().Running {
		v.views.diff.Cancel()
	}
}

// findMenu is a bag window's Find menu: the Find bar, bookmarks, and
// the hits, bookmarks and events saved as CSV.
func (c *controller) findMenu(w fyne.Window) *fyne.Menu {
	open := fyne.NewMenuItem("Find…", func() { c.withFind(w, (*findbar.Bar).Show) })
	open.Shortcut = shortcutFind
	next := fyne.NewMenuItem("Find Next (F3)", func() { c.withFind(w, func(b *findbar.Bar) { b.Step(+1) }) })
	next.Shortcut = shortcutFindNext
	prev := fyne.NewMenuItem("Find Previous (Shift+F3)", func() { c.withFind(w, func(b *findbar.Bar) { b.Step(-1) }) })
	prev.Shortcut = shortcutFindPrev
	add := fyne.NewMenuItem("Add Bookmark…", func() { c.withMarks(w, (*bookmarks.Marks).AddDialog) })
	add.Shortcut = shortcutBookmark
	hits := fyne.NewMenuItem("Save Hits as CSV…", func() { c.withFind(w, (*findbar.Bar).ExportCSV) })
	bms := fyne.NewMenuItem("Save Bookmarks as CSV…", func() { c.withMarks(w, (*bookmarks.Marks).ExportBookmarksDialog) })
	evs := fyne.NewMenuItem("Save Events as CSV…", func() { c.withMarks(w, (*bookmarks.Marks).ExportEventsDialog) })
	return fyne.NewMenu("Find", open, next, prev, fyne.NewMenuItemSeparator(), add, fyne.NewMenuItemSeparator(), hits, bms, evs)
}

// saveCut asks where to save window w's selected topics and range as a
// new recording (File > Save Range/Topics As…), once it has loaded.
func (c *controller) saveCut(w fyne.Window) {
	if v := c.views[w]; v != nil && v.link != nil && v.doc != nil && len(v.doc.Topics) > 0 {
		cut.Show(v.link, w)
	}
}
