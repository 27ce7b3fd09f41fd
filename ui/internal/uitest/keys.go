package uitest

import "fyne.io/fyne/v2"

// PressShortcut delivers s as the desktop driver does: to the window's
// menu first, then to the focused widget if it takes shortcuts, else to
// the canvas.
func PressShortcut(w fyne.Window, s fyne.Shortcut) {
	if m := w.MainMenu(); m != nil && menuShortcut(m.Items, s) {
		return
	}
	if f, ok := w.Canvas().Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
		return
	}
	w.Canvas().(fyne.Shortcutable).TypedShortcut(s)
}

func menuShortcut(menus []*fyne.Menu, s fyne.Shortcut) bool {
	for _, m := range menus {
		for _, it := range m.Items {
			if it.Shortcut != nil && it.Shortcut.ShortcutName() == s.ShortcutName() && it.Action != nil {
				it.Action()
				return true
			}
			if it.ChildMenu != nil && menuShortcut([]*fyne.Menu{it.ChildMenu}, s) {
				return true
			}
		}
	}
	return false
}
