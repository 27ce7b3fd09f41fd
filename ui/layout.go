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

// tightVBox stacks objects vertically at their minimum heights, full
// width, with no padding between them; pull overlaps each object with the
// one before by that much (captionPull brings a label's caption closer to
// its value).
type tightVBox struct{ pull float32 }

func (l tightVBox) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
	}
	return s.SubtractWidthHeight(0, l.pull*float32(max(len(objs)-1, 0)))
}

func (l tightVBox) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objs {
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h - l.pull
	}
}

// captionPull is how much of a label's inner padding a caption stack
// removes.
const captionPull = 10
