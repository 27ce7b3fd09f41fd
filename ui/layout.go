package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// centered lays out one object centred in the space, no wider than max:
// text that wraps gets a readable line length on a wide window.
type centered struct{ max float32 }

func (l centered) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	s.Width = min(s.Width, l.max)
	return s
}

func (l centered) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	w := min(size.Width, l.max)
	for _, o := range objs {
		// Resize to the width first so that wrapped text reports its height.
		o.Resize(fyne.NewSize(w, o.MinSize().Height))
		h := min(o.MinSize().Height, size.Height)
		o.Resize(fyne.NewSize(w, h))
		o.Move(fyne.NewPos((size.Width-w)/2, (size.Height-h)/2))
	}
}

// newCentered wraps o in a centered layout at most max wide.
func newCentered(max float32, o fyne.CanvasObject) *fyne.Container {
	return &fyne.Container{Layout: centered{max}, Objects: []fyne.CanvasObject{o}}
}

// gap is empty vertical space of height h.
func gap(h float32) fyne.CanvasObject {
	r := canvas.NewRectangle(nil)
	r.SetMinSize(fyne.NewSize(0, h))
	return r
}
