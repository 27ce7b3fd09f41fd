package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// TipButton is a button that says what it does in a status line while the
// mouse is over it (Fyne has no tooltips).
type TipButton struct {
	widget.Button
	tip    string
	status func(string)
}

var _ desktop.Hoverable = (*TipButton)(nil)

// NewTipButton returns a button that shows tip in status while the mouse
// is over it.
func NewTipButton(label string, icon fyne.Resource, tip string, status func(string), tapped func()) *TipButton {
	b := &TipButton{tip: tip, status: status}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// MouseIn shows the tip.
func (b *TipButton) MouseIn(ev *desktop.MouseEvent) {
	b.Button.MouseIn(ev)
	b.status(b.tip)
}

// MouseOut clears the tip.
func (b *TipButton) MouseOut() {
	b.Button.MouseOut()
	b.status("")
}
