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
	if collecting != nil && s.Trailing != nil {
		collecting.splits[key] = setSplit{s, hi}
	}
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

// SplitSet holds the remembered dividers of one window by key, so that a
// layout can save where they are and put them back.
type SplitSet struct {
	splits map[string]setSplit
}

// setSplit is a divider of a SplitSet, and the most it may start at.
type setSplit struct {
	split *container.Split
	hi    float64
}

// collecting is the set RememberSplit adds to while CollectSplits builds
// a window's views (on the UI goroutine, one window at a time).
var collecting *SplitSet

// CollectSplits calls build, gathering into a new set every divider
// remembered while it runs.
func CollectSplits(build func()) *SplitSet {
	s := &SplitSet{splits: map[string]setSplit{}}
	prev := collecting
	collecting = s
	defer func() { collecting = prev }()
	build()
	return s
}

// Offsets are the dividers' positions by key, each a fraction of its
// split (0 < offset < 1); a divider pushed to an end is left out.
func (s *SplitSet) Offsets() map[string]float64 {
	if s == nil {
		return nil
	}
	out := map[string]float64{}
	for k, sp := range s.splits {
		if off := sp.split.Offset; off > 0 && off < 1 {
			out[k] = off
		}
	}
	return out
}

// SetOffsets moves the dividers named in offsets (keys the window does not
// have, and offsets outside (0, 1), are skipped), each at most as far as
// RememberSplitWithin allows it to start; each is remembered as if the
// user had moved it.
func (s *SplitSet) SetOffsets(offsets map[string]float64) {
	if s == nil {
		return
	}
	for k, off := range offsets {
		if sp, ok := s.splits[k]; ok && off > 0 && off < 1 {
			sp.split.SetOffset(min(off, sp.hi))
		}
	}
}
