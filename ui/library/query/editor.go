package query

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// Editor is the multi-line query entry: Ctrl+Enter (Cmd+Enter) runs the
// query, Esc cancels it; every other key edits as an entry does.
type Editor struct {
	widget.Entry
	run, cancel func()
}

func newEditor(run, cancel func()) *Editor {
	e := &Editor{run: run, cancel: cancel}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapOff
	e.TextStyle = fyne.TextStyle{Monospace: true}
	e.ExtendBaseWidget(e)
	return e
}

// TypedShortcut runs the query on Ctrl+Enter.
func (e *Editor) TypedShortcut(s fyne.Shortcut) {
	if isRun(s) {
		e.run()
		return
	}
	e.Entry.TypedShortcut(s)
}

// TypedKey cancels the query on Esc.
func (e *Editor) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape {
		e.cancel()
		return
	}
	e.Entry.TypedKey(k)
}

// isRun reports whether s is Ctrl+Enter (or Cmd+Enter).
func isRun(s fyne.Shortcut) bool {
	cs, ok := s.(*desktop.CustomShortcut)
	return ok && (cs.KeyName == fyne.KeyReturn || cs.KeyName == fyne.KeyEnter) &&
		cs.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0 && cs.Modifier&(fyne.KeyModifierShift|fyne.KeyModifierAlt) == 0
}
