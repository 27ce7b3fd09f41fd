package widgets

import (
	"image/color"

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

// NewCentered wraps o in a centered layout at most max wide.
func NewCentered(max float32, o fyne.CanvasObject) *fyne.Container {
	return &fyne.Container{Layout: centered{max}, Objects: []fyne.CanvasObject{o}}
}

// Gap is empty vertical space of height h.
func Gap(h float32) fyne.CanvasObject {
	r := canvas.NewRectangle(color.Transparent) // nil crashes the software painter (--screenshot)
	r.SetMinSize(fyne.NewSize(0, h))
	return r
}

// TightVBox stacks objects vertically at their minimum heights, full
// width, with no padding between them; pull overlaps each object with the
// one before by that much (CaptionPull brings a label's caption closer to
// its value).
type TightVBox struct{ Pull float32 }

// MinSize is the widest object and the heights summed, less the pulls.
func (l TightVBox) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
	}
	return s.SubtractWidthHeight(0, l.Pull*float32(max(len(objs)-1, 0)))
}

// Layout stacks the objects top down.
func (l TightVBox) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objs {
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h - l.Pull
	}
}

// CaptionPull is how much of a label's inner padding a caption stack
// removes.
const CaptionPull = 10
