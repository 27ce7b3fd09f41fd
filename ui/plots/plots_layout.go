package plots

import "fyne.io/fyne/v2"

// evenRows stacks its objects in rows of equal height that fill the
// height given, each at least min tall (inside a scroll container, more
// rows than fit make it scroll) and at least its own minimum height.
type evenRows struct {
	min, gap float32
}

func (l *evenRows) rowMin(objs []fyne.CanvasObject) (w, h float32) {
	h = l.min
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		ms := o.MinSize()
		w = max(w, ms.Width)
		h = max(h, ms.Height)
	}
	return w, h
}

func visibleCount(objs []fyne.CanvasObject) int {
	n := 0
	for _, o := range objs {
		if o.Visible() {
			n++
		}
	}
	return n
}

// MinSize is every row at its least height.
func (l *evenRows) MinSize(objs []fyne.CanvasObject) fyne.Size {
	n := visibleCount(objs)
	if n == 0 {
		return fyne.NewSize(0, 0)
	}
	w, h := l.rowMin(objs)
	return fyne.NewSize(w, float32(n)*h+float32(n-1)*l.gap)
}

// Layout shares the height evenly.
func (l *evenRows) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	n := visibleCount(objs)
	if n == 0 {
		return
	}
	_, least := l.rowMin(objs)
	h := max(least, (size.Height-float32(n-1)*l.gap)/float32(n))
	y := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h + l.gap
	}
}
