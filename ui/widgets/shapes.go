package widgets

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
)

// Shapes hands out the rectangles and texts of a renderer that redraws its
// picture from scratch on every layout and refresh (the timeline, its axis,
// a plot's axes), reusing the previous drawing's objects instead of
// allocating new ones. Fyne keeps every object it has walked in its canvas
// cache for a minute (internal/cache, ValidDuration), so a renderer that
// made a thousand fresh rectangles per layout grew the heap by tens of
// megabytes a minute while the window was busy: 80 MB of rectangles after
// scrolling the Records tab of a 1 GB bag. With Shapes the cache holds at
// most the largest drawing's objects.
type Shapes struct {
	rects  []*canvas.Rectangle
	texts  []*canvas.Text
	nr, nt int
}

// Reset starts a new drawing: every object is free again.
func (s *Shapes) Reset() { s.nr, s.nt = 0, 0 }

// Rect returns a plain rectangle of colour c at x, y, w wide and h high.
func (s *Shapes) Rect(x, y, w, h float32, c color.Color) *canvas.Rectangle {
	if s.nr == len(s.rects) {
		s.rects = append(s.rects, &canvas.Rectangle{})
	}
	rc := s.rects[s.nr]
	s.nr++
	*rc = canvas.Rectangle{FillColor: c}
	rc.Move(fyne.NewPos(x, y))
	rc.Resize(fyne.NewSize(w, h))
	return rc
}

// Text returns a Text of colour c and size sz, not yet placed.
func (s *Shapes) Text(str string, c color.Color, sz float32) *canvas.Text {
	if s.nt == len(s.texts) {
		s.texts = append(s.texts, &canvas.Text{})
	}
	t := s.texts[s.nt]
	s.nt++
	*t = canvas.Text{Text: str, Color: c, TextSize: sz}
	return t
}
