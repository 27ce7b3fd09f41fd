package timeline

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/bagscope/bagscope/ui/widgets"
)

// NewSplit puts the timeline above the tabs, split by a divider
// the user drags; where it was left is remembered for the next window
// (RememberSplit); by default it leaves the lanes the room they need in a
// window windowH high. Collapsing the timeline's lanes moves the divider
// up to its toolbar, and showing them again moves it back.
func NewSplit(tp *Pane, tabs fyne.CanvasObject, windowH float32) *container.Split {
	split := container.NewVSplit(tp.content, tabs)
	split.Offset = timelineShare(len(tp.tv.tl.Topics), windowH)
	widgets.RememberSplit(split, "timeline")
	open := split.Offset
	tp.onCollapse = func(collapsed bool) {
		if collapsed {
			open = split.Offset
			split.SetOffset(0)
			return
		}
		split.SetOffset(open)
	}
	return split
}

// timelineShare is the default share of the height for the timeline: room
// for every lane of n topics, between an eighth and a half of a window of
// height h (the header takes about 130 pixels of it).
func timelineShare(n int, h float32) float64 {
	want := 40 + tlLaneH + tlGap + float32(n)*(tlLaneH+tlGap) + tlAxisH + 8
	return min(0.5, max(0.12, float64(want/max(1, h-130))))
}
