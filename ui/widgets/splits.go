package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// Dividers the user drags stay where they were left, per user: a split
// remembered under a key takes its offset from the preferences when it is
// made and writes it back whenever the divider moves.

// prefSplitPrefix starts the preference key of a remembered divider.
const prefSplitPrefix = "split."

// RememberSplits is false where the layout must not depend on the user
// (--screenshot).
var RememberSplits = true

// RememberSplit gives s the offset the user last left under key (or keeps
// s.Offset, the default) and saves its offset each time it moves. Call it
// once s has both its sides.
func RememberSplit(s *container.Split, key string) *container.Split {
	return RememberSplitWithin(s, key, 1)
}

// RememberSplitWithin is RememberSplit for a divider that starts at most
// at hi however far the user last moved it (a short window keeps room
// for the other side); what was remembered is kept until the user moves
// the divider again.
func RememberSplitWithin(s *container.Split, key string, hi float64) *container.Split {
	if !RememberSplits || fyne.CurrentApp() == nil || s.Trailing == nil {
		return s
	}
	p := fyne.CurrentApp().Preferences()
	if off := p.FloatWithFallback(prefSplitPrefix+key, -1); off > 0 && off < 1 {
		s.Offset = min(off, hi)
	}
	w := &offsetWatch{split: s, last: s.Offset, moved: func(off float64) {
		if off > 0 && off < 1 {
			p.SetFloat(prefSplitPrefix+key, off)
		}
	}}
	s.Trailing = &fyne.Container{Layout: w, Objects: []fyne.CanvasObject{s.Trailing}}
	return s
}

// offsetWatch lays out the trailing side of a split and tells moved when
// the divider has moved: container.Split says nothing when dragged, but
// lays its sides out again.
type offsetWatch struct {
	split *container.Split
	last  float64
	moved func(off float64)
}

// Layout fills the side and notices a new offset.
func (w *offsetWatch) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
	if w.split.Offset != w.last {
		w.last = w.split.Offset
		w.moved(w.last)
	}
}

// MinSize is the side's.
func (w *offsetWatch) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s
}
