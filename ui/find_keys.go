package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

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
)

// withFind calls f with window w's Find bar, once its recording has
// loaded (a recording without messages has none).
func (c *controller) withFind(w fyne.Window, f func(*findbar.Bar)) {
	if v := c.views[w]; v != nil && v.views != nil && v.views.find != nil {
		f(v.views.find)
	}
}

// addFindShortcuts registers the Find bar's keys on w's canvas: Ctrl+F,
// Ctrl+G, Ctrl+Shift+G, and (where no widget has the keyboard) F3,
// Shift+F3 and Escape, which closes the bar.
func (c *controller) addFindShortcuts(w fyne.Window) {
	w.Canvas().AddShortcut(shortcutFind, func(fyne.Shortcut) { c.withFind(w, (*findbar.Bar).Show) })
	w.Canvas().AddShortcut(shortcutFindNext, func(fyne.Shortcut) { c.withFind(w, func(b *findbar.Bar) { b.Step(+1) }) })
	w.Canvas().AddShortcut(shortcutFindPrev, func(fyne.Shortcut) { c.withFind(w, func(b *findbar.Bar) { b.Step(-1) }) })
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
		}
	})
}

// findMenuItems are the Find bar's items of the View menu.
func (c *controller) findMenuItems(w fyne.Window) []*fyne.MenuItem {
	open := fyne.NewMenuItem("Find…", func() { c.withFind(w, (*findbar.Bar).Show) })
	open.Shortcut = shortcutFind
	next := fyne.NewMenuItem("Find Next (F3)", func() { c.withFind(w, func(b *findbar.Bar) { b.Step(+1) }) })
	next.Shortcut = shortcutFindNext
	prev := fyne.NewMenuItem("Find Previous (Shift+F3)", func() { c.withFind(w, func(b *findbar.Bar) { b.Step(-1) }) })
	prev.Shortcut = shortcutFindPrev
	return []*fyne.MenuItem{open, next, prev}
}
