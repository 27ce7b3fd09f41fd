package widgets

import (
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// StartOnShow shows content and calls start the first time it is laid
// out while visible, so that a tab's background work starts only when the
// tab is opened.
type StartOnShow struct {
	widget.BaseWidget
	content fyne.CanvasObject
	start   func()
	once    sync.Once
}

// NewStartOnShow shows content and calls start once it is first shown.
func NewStartOnShow(content fyne.CanvasObject, start func()) *StartOnShow {
	s := &StartOnShow{content: content, start: start}
	s.ExtendBaseWidget(s)
	return s
}

// CreateRenderer shows the content.
func (s *StartOnShow) CreateRenderer() fyne.WidgetRenderer {
	return &startOnShowRenderer{s: s}
}

type startOnShowRenderer struct{ s *StartOnShow }

func (r *startOnShowRenderer) maybeStart() {
	if r.s.Visible() && !r.s.Size().IsZero() {
		r.s.once.Do(r.s.start)
	}
}

func (r *startOnShowRenderer) Layout(size fyne.Size) {
	r.s.content.Resize(size)
	r.maybeStart()
}

func (r *startOnShowRenderer) MinSize() fyne.Size { return r.s.content.MinSize() }

func (r *startOnShowRenderer) Refresh() {
	r.s.content.Refresh()
	r.maybeStart()
}

func (r *startOnShowRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.s.content} }

func (r *startOnShowRenderer) Destroy() {}
