package timeline

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// timelineHint is what the status line says when the mouse is elsewhere.
const timelineHint = "Click to move the current time (its message shows everywhere), drag the red cursor to scrub, scroll to zoom, drag to pan, shift+drag or drag the axis to select a range, click a chunk to open it."

// Pane is the timeline above the other views: a toolbar row
// (playback, zoom, range, status), the lanes (scrolling vertically when
// there are many topics) and the time axis. Its lanes can be collapsed
// to leave only the toolbar.
type Pane struct {
	content   *fyne.Container
	tv        *View
	body      *fyne.Container // the lanes and the axis
	bar       *timelineBar
	player    *Player
	transport *transport
	collapse  *widgets.TipButton
	collapsed bool
	// onCollapse is told when the lanes are collapsed or shown again.
	onCollapse func(collapsed bool)
}

// New builds the timeline of d, linked to the other views
// through l.
func New(d *model.Document, l link.Link) *Pane {
	tv := NewView(model.BuildTimeline(d))
	axis := newTimelineAxis(tv)
	tp := &Pane{tv: tv, player: newPlayer(l, tv.tl.Start, tv.tl.End)}
	tp.bar = newTimelineBar(tv)
	tp.transport = newTransport(tp.player, tv.tl.Start, tp.bar.setStatus)
	tp.collapse = widgets.NewTipButton("", theme.MenuDropUpIcon(), "Hide or show the timeline's lanes (Ctrl+T); drag the divider below to resize them", tp.bar.setStatus, tp.ToggleCollapsed)
	tp.collapse.Importance = widget.LowImportance
	tp.bar.left.Objects = append([]fyne.CanvasObject{tp.collapse, tp.transport.content, widget.NewSeparator()}, tp.bar.left.Objects...)
	linkTimeline(tv, tp.bar, l)
	tv.OnPlayPause = tp.player.Toggle
	tp.body = container.NewBorder(nil, axis, nil, nil, tv)
	tp.content = container.NewBorder(tp.bar.content, nil, nil, nil, tp.body)
	return tp
}

// ToggleCollapsed hides the lanes, or shows them again.
func (tp *Pane) ToggleCollapsed() { tp.setCollapsed(!tp.collapsed) }

func (tp *Pane) setCollapsed(c bool) {
	if tp.collapsed == c {
		return
	}
	tp.collapsed = c
	if c {
		tp.body.Hide()
		tp.collapse.SetIcon(theme.MenuDropDownIcon())
	} else {
		tp.body.Show()
		tp.collapse.SetIcon(theme.MenuDropUpIcon())
	}
	tp.content.Refresh()
	if tp.onCollapse != nil {
		tp.onCollapse(c)
	}
}

// timelineBar is the timeline's toolbar row: zoom buttons, the axis
// toggle, the selected range and a status line.
type timelineBar struct {
	tv         *View
	content    *fyne.Container
	status     *widget.Label
	rangeText  *widget.Label
	zoomRange  *widgets.TipButton
	clearRange *widgets.TipButton
	axisMode   *widgets.TipButton
	idle       string // the status when the mouse is elsewhere
	left       *fyne.Container
}

func newTimelineBar(tv *View) *timelineBar {
	b := &timelineBar{tv: tv, idle: timelineHint}
	b.status = widget.NewLabel(timelineHint)
	b.status.Truncation = fyne.TextTruncateEllipsis
	b.rangeText = widget.NewLabel("")
	tip := b.setStatus
	in := widgets.NewTipButton("", theme.ZoomInIcon(), "Zoom in (+, or scroll up over the lanes)", tip, func() { tv.Zoom(0.5) })
	out := widgets.NewTipButton("", theme.ZoomOutIcon(), "Zoom out (-, or scroll down over the lanes)", tip, func() { tv.Zoom(2) })
	fit := widgets.NewTipButton("", theme.ZoomFitIcon(), "Fit the whole bag (0, Home, or double-click)", tip, tv.Fit)
	b.axisMode = widgets.NewTipButton("Rel", nil, "Axis: time from the start (Rel) or UTC wall-clock time (Abs)", tip, b.toggleAxis)
	b.zoomRange = widgets.NewTipButton("Zoom to range", theme.ZoomFitIcon(), "Zoom to the selected range (Z, or double-click inside it)", tip, tv.ZoomToRange)
	b.clearRange = widgets.NewTipButton("", theme.CancelIcon(), "Clear the range (Esc)", tip, func() { tv.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape}) })
	for _, bt := range []*widgets.TipButton{in, out, fit, b.axisMode, b.zoomRange, b.clearRange} {
		bt.Importance = widget.LowImportance
	}
	tv.OnStatus = b.setStatus
	b.left = container.NewHBox(in, out, fit, b.axisMode, widget.NewSeparator(), b.rangeText, b.zoomRange, b.clearRange)
	b.content = container.NewBorder(nil, nil, b.left, nil, b.status)
	b.showRange(0, 0, false)
	return b
}

// setStatus shows s, or the hint when s is empty.
func (b *timelineBar) setStatus(s string) {
	if s == "" {
		s = b.idle
	}
	b.status.SetText(s)
}

func (b *timelineBar) toggleAxis() {
	b.tv.SetAbsolute(!b.tv.abs)
	b.axisMode.SetText(map[bool]string{false: "Rel", true: "Abs"}[b.tv.abs])
	b.relayout()
	if b.tv.hasRange {
		b.showRange(b.tv.r0, b.tv.r1, true)
	}
}

// showRange shows the selected range and the buttons that act on it.
func (b *timelineBar) showRange(t0, t1 int64, ok bool) {
	if !ok {
		b.rangeText.SetText("No range")
		b.rangeText.Importance = widget.LowImportance
		b.zoomRange.Hide()
		b.clearRange.Hide()
		b.relayout()
		return
	}
	b.rangeText.Importance = widget.MediumImportance
	b.rangeText.SetText(b.tv.rangeText())
	b.zoomRange.Show()
	b.clearRange.Show()
	b.relayout()
}

// relayout lays the row out again after buttons show or hide, or the
// range text changes width.
func (b *timelineBar) relayout() {
	if b.content != nil {
		b.content.Refresh()
	}
}

// linkTimeline keeps the timeline and the other views in step: a tap
// moves the current time there (selecting the message shown at it, on the
// tapped lane's topic when a lane was tapped, or opening the tapped
// chunk), a dragged range becomes the window's range, and the time,
// range, topics and message index of the link show on the timeline.
func linkTimeline(tv *View, bar *timelineBar, l link.Link) {
	tv.OnTap = func(t int64, topic string, chunk int64) {
		if chunk >= 0 && l.Actions().ShowChunk != nil {
			l.SetCursor(t)
			l.Actions().ShowChunk(chunk)
			return
		}
		var topics []string
		if topic != "" {
			topics = []string{topic}
		}
		l.SetTime(t, topics)
		l.WithIndex(func(*model.MessageIndex) {
			if ref, ok := l.Message(); ok {
				bar.setStatus(fmt.Sprintf("At %s: the %s message at %s", tv.timeLabel(t), l.TopicName(ref), tv.timeLabel(ref.T)))
			}
		})
	}
	tv.OnScrub = func(t int64) { l.SetCursor(t) }
	tv.OnRange = l.SetRange
	tv.OnTitle = func(topic string) {
		if ts := l.Topics(); len(ts) == 1 && ts[0] == topic {
			l.SetTopics(nil)
			return
		}
		l.SetTopics([]string{topic})
	}
	l.OnCursor(tv.SetCursor)
	l.OnRange(func(t0, t1 int64, ok bool) {
		tv.SetRange(t0, t1, ok)
		bar.showRange(t0, t1, ok)
	})
	l.OnTopics(tv.SetTopics)
	l.OnChunkShown(tv.ShowChunk)
	l.OnMarks(tv.addMarks)
	l.OnSetMarks(tv.setMarks)
	l.OnStateLanes(tv.SetStateLanes)
	tv.SetTopics(l.Topics())
	if t, ok := l.Cursor(); ok {
		tv.SetCursor(t)
	}
	if t0, t1, ok := l.Range(); ok {
		tv.SetRange(t0, t1, ok)
		bar.showRange(t0, t1, ok)
	}
	l.WithIndex(tv.SetIndex)
	l.WithStats(tv.SetStats)
}
