package timeline

import (
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"github.com/bagscope/bagscope/ui/widgets"
)

// NewSplit puts the timeline above the tabs, split by a divider
// the user drags; where it was left is remembered for the next window
// (RememberSplit); by default it leaves the lanes the room they need in a
// window windowH high, below topH of header. On a short window the
// timeline and what is above it take at most ShortShare of the height,
// whatever was remembered, so plots keep their axes. Collapsing the timeline's lanes moves the divider
// up to its toolbar, and showing them again moves it back.
func NewSplit(tp *Pane, tabs fyne.CanvasObject, windowH, topH float32) *container.Split {
	split := container.NewVSplit(tp.content, tabs)
	split.Offset = timelineShare(len(tp.tv.tl.Topics), windowH, topH)
	def := split.Offset
	widgets.RememberSplitWithin(split, "timeline", shareLimit(windowH, topH))
	open := split.Offset
	// State lanes come later (a view reads them): where the divider is
	// still where the topics put it, it moves down to show them too.
	tp.tv.onStates = func() {
		if split.Offset != def || tp.collapsed {
			return
		}
		extra := int(math.Ceil(float64(tp.tv.statesH() / (tlLaneH + tlGap))))
		def = max(def, timelineShare(len(tp.tv.tl.Topics)+extra, windowH, topH))
		split.SetOffset(def)
	}
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

// ShortWindow is the height below which the timeline's share is held to
// ShortShare of the window; ShortShare is that share, header included.
const (
	ShortWindow = 720
	ShortShare  = 0.30
)

// splitBar is the divider under the timeline, with room to spare, which
// counts in ShortShare too.
const splitBar = 16

// minTimelineH is the least the timeline keeps: its toolbar, the chunk
// lane, one topic's lane and the axis.
const minTimelineH = 40 + tlLaneH + tlGap + tlLaneH + tlGap + tlAxisH

// timelineShare is the default share of the height below the header for
// the timeline: room for every lane of n topics, between an eighth and a
// half of a window of height h whose header takes topH, and within
// shareLimit.
func timelineShare(n int, h, topH float32) float64 {
	want := 40 + tlLaneH + tlGap + float32(n)*(tlLaneH+tlGap) + tlAxisH + 8
	return min(0.5, shareLimit(h, topH), max(0.12, float64(want/max(1, h-topH))))
}

// shareLimit is the most of the height below the header the timeline may
// take: half, or on a short window what leaves header and timeline within
// ShortShare of it (never less than minTimelineH).
func shareLimit(h, topH float32) float64 {
	body := max(1, h-topH)
	if h >= ShortWindow {
		return 0.5
	}
	px := max(ShortShare*h-topH-splitBar, minTimelineH)
	return min(0.5, float64(px/body))
}
