package find

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// exprEntry is the bar's one-line entry: Enter searches, F3 and Shift+F3
// step through the hits, Escape closes the bar. It checks the expression
// as it is typed.
type exprEntry struct {
	widget.Entry
	b     *Bar
	shift bool // a Shift key is held (a KeyEvent does not say)
}

var _ desktop.Keyable = (*exprEntry)(nil)

func newExprEntry(b *Bar) *exprEntry {
	e := &exprEntry{b: b}
	e.ExtendBaseWidget(e)
	e.OnChanged = b.check
	return e
}

// TypedKey handles Enter, F3 and Escape; the rest edits the text.
func (e *exprEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		e.b.Search(e.Text)
	case fyne.KeyF3:
		e.b.Step(StepOf(e.shift))
	case fyne.KeyEscape:
		if e.b.running {
			e.b.Cancel()
			return
		}
		e.b.Hide()
	default:
		e.Entry.TypedKey(k)
	}
}

// KeyDown notes Shift, for Shift+F3.
func (e *exprEntry) KeyDown(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = true
	}
	e.Entry.KeyDown(k)
}

// KeyUp notes Shift's release.
func (e *exprEntry) KeyUp(k *fyne.KeyEvent) {
	if k.Name == desktop.KeyShiftLeft || k.Name == desktop.KeyShiftRight {
		e.shift = false
	}
	e.Entry.KeyUp(k)
}

// FocusLost forgets Shift: its release may go elsewhere.
func (e *exprEntry) FocusLost() {
	e.shift = false
	e.Entry.FocusLost()
}

// StepOf is F3's step: -1 with Shift held, else +1.
func StepOf(shift bool) int {
	if shift {
		return -1
	}
	return +1
}
