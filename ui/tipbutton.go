package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// tipButton is a button that says what it does in a status line while the
// mouse is over it (Fyne has no tooltips).
type tipButton struct {
	widget.Button
	tip    string
	status func(string)
}

var _ desktop.Hoverable = (*tipButton)(nil)

func newTipButton(label string, icon fyne.Resource, tip string, status func(string), tapped func()) *tipButton {
	b := &tipButton{tip: tip, status: status}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// MouseIn shows the tip.
func (b *tipButton) MouseIn(ev *desktop.MouseEvent) {
	b.Button.MouseIn(ev)
	b.status(b.tip)
}

// MouseOut clears the tip.
func (b *tipButton) MouseOut() {
	b.Button.MouseOut()
	b.status("")
}
