// Package timeline is the strip above a recording's window's tabs: a
// chunk lane and one density lane per topic over a time axis, the current
// time as a red cursor, the selected range, and the player with its
// transport. A click, a drag of the cursor, a chunk or a playback frame
// moves the window's time through the link, and every view follows.
package timeline

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/stats"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// Timeline geometry, in device-independent pixels.
const (
	tlLabelW   = 170 // lane titles, at least
	tlLaneH    = 20
	tlGap      = 4
	tlAxisH    = 24
	tlRight    = 16 // room for the last tick label
	tlRowH     = 12 // a chunk lane row when chunks overlap
	tlMaxRows  = 3  // rows of the chunk lane; more overlap shares the last
	tlMinGapW  = 8  // narrowest gap marked under a lane: narrower ones show as empty columns
	tlMinSpan  = 1000
	tlPanShare = 0.1 // an arrow key pans by this share of the window
)

// drag modes.
const (
	dragNone = iota
	dragPan
	dragSelect
	dragScrub  // the cursor, grabbed within tlGrab pixels
	dragScroll // the lanes' scroll bar, right of the lanes
)

// tlGrab is how near the cursor a drag must start to move it.
const tlGrab = 5

// View draws a bag's chunk lane and one density lane per topic.
// Scroll zooms about the mouse (over the lane titles it scrolls the
// lanes), dragging pans, shift+drag selects a range, a tap places the
// cursor and a double tap fits the whole bag (or zooms to the range when
// inside it). Keys: + and - zoom, 0 and Home fit, arrows pan, Z zooms to
// the range, Esc clears it. Hovering says what is under the mouse.
type View struct {
	widget.BaseWidget
	tl       *model.Timeline
	t0, t1   int64 // the visible window, nanoseconds
	cursor   int64
	hasCur   bool
	r0, r1   int64
	hasRange bool
	abs      bool            // absolute (UTC) axis labels
	selected map[string]bool // selected topics; nil means all
	shown    int64           // file offset of the chunk the chunk view shows, or -1
	focused  bool

	drag     int
	dragFrom int64
	shift    bool

	// gaps are each topic lane's gaps (intervals longer than GapFactor
	// times its median), marked under the lane; nil until the topic
	// statistics are computed.
	gaps  [][]stats.Gap
	stats []*stats.Topic

	// suspects are the receive times of suspect messages by topic
	// (link.Suspect marks), sorted: their ticks are drawn in the loss's
	// colour.
	suspects map[string][]int64
	// marks are the search hits, events and bookmarks (link.SetMarks).
	marks setMarks

	hover    string
	hoverPos fyne.Position
	r        *timelineRenderer
	axis     *timelineAxis
	yOff     float32 // how far the topic lanes are scrolled up

	laneCache laneCache
	titleW    float32 // the widest topic title, once measured

	// stateGroups are the views' state lanes (link.SetStateLanes) by
	// group, in the order first set; states all of them, in that order,
	// drawn below the topic lanes.
	stateGroups []stateGroup
	states      []model.StateLane
	onStates    func() // the split makes room for new state lanes
	titles      map[titleKey]string

	// OnStatus receives a sentence about what is under the mouse or the
	// cursor.
	OnStatus func(string)
	// OnView is told when the visible window changes.
	OnView func(t0, t1 int64)
	// OnTap is told of a tap on the lanes at t: on a topic lane (topic
	// set), on a chunk (chunk is its file offset, else -1), or elsewhere.
	OnTap func(t int64, topic string, chunk int64)
	// OnRange is told when a range is selected or cleared.
	OnRange func(t0, t1 int64, ok bool)
	// OnTitle is told of a tap on a topic lane's title.
	OnTitle func(topic string)
	// OnScrub is told of the time while the cursor is dragged.
	OnScrub func(t int64)
	// OnPlayPause is told of Space.
	OnPlayPause func()
	// OnOtherKey is told of a key the timeline does not use (F3 steps
	// through the Find bar's hits), and whether Shift is held.
	OnOtherKey func(ev *fyne.KeyEvent, shift bool)
	keyShift   bool // a Shift key is held (a KeyEvent does not say)
}

var (
	_ fyne.Scrollable     = (*View)(nil)
	_ fyne.Draggable      = (*View)(nil)
	_ fyne.Tappable       = (*View)(nil)
	_ fyne.DoubleTappable = (*View)(nil)
	_ fyne.Focusable      = (*View)(nil)
	_ desktop.Hoverable   = (*View)(nil)
	_ desktop.Mouseable   = (*View)(nil)
	_ desktop.Keyable     = (*View)(nil)
)

// NewView shows tl, fitted.
func NewView(tl *model.Timeline) *View {
	v := &View{tl: tl, t0: tl.Start, t1: tl.End, shown: -1}
	v.ExtendBaseWidget(v)
	return v
}

// plotW is the width of the lanes' drawing area.
func (v *View) plotW() float32 { return max(1, v.Size().Width-v.labelW()-tlRight) }

func (v *View) x(t int64) float32 {
	return v.labelW() + float32(float64(t-v.t0)/float64(max(1, v.t1-v.t0)))*v.plotW()
}

func (v *View) timeAt(x float32) int64 {
	f := float64(x-v.labelW()) / float64(v.plotW())
	return v.t0 + int64(math.Round(f*float64(v.t1-v.t0)))
}

// chunkRows is the number of rows the chunk lane draws.
func (v *View) chunkRows() int { return min(tlMaxRows, max(1, v.tl.ChunkRows)) }

// chunkLaneH is the height of the chunk lane: 0 for a recording without
// chunks (a .db3) unless bookmarks are there to show in it, so an empty
// lane takes no room; one row is lower on compact lanes.
func (v *View) chunkLaneH() float32 {
	if v.chunkRows() == 1 && v.hasChunkLane() && v.compact() {
		return tlCompactChunkH
	}
	return v.fullChunkLaneH()
}

// fullChunkLaneH is chunkLaneH when the lanes are not compact.
func (v *View) fullChunkLaneH() float32 {
	if !v.hasChunkLane() {
		return 0
	}
	if v.chunkRows() == 1 {
		return tlLaneH
	}
	return float32(v.chunkRows()) * tlRowH
}

// lanesTop is where the topic lanes start; the chunk lane above them
// stays in place while they scroll.
func (v *View) lanesTop() float32 {
	if !v.hasChunkLane() {
		return 0
	}
	return v.chunkLaneH() + v.gap()
}

// hasChunkLane is whether the lane above the topics is drawn: the
// recording has chunks or a file missing (model.MissingSpan), or
// bookmarks are flagged there.
func (v *View) hasChunkLane() bool {
	return len(v.tl.Chunks) > 0 || len(v.tl.Missing) > 0 || len(v.marks.bookmarks) > 0
}

// laneY is the top of topic lane i, scrolled; for i past the topics, the
// top of state lane i-len(topics) (timeline_states.go), lower.
func (v *View) laneY(i int) float32 {
	n := len(v.tl.Topics)
	if i <= n {
		return v.lanesTop() + float32(i)*(v.laneH()+v.gap()) - v.yOff
	}
	return v.lanesTop() + float32(n)*(v.laneH()+v.gap()) + float32(i-n)*(tlStateH+tlStateGap) - v.yOff
}

// contentH is the height of all lanes, unscrolled.
func (v *View) contentH() float32 {
	return v.laneY(v.nLanes()) + v.yOff
}

// scrollLanes scrolls the topic lanes by dy pixels (positive: down).
func (v *View) scrollLanes(dy float32) {
	off := min(max(0, v.yOff+dy), max(0, v.contentH()-v.Size().Height))
	if off != v.yOff {
		v.yOff = off
		v.BaseWidget.Refresh()
	}
}

// lane returns the lane under y: -1 for the chunk lane, i for topic lane
// i, -3 for a state lane (stateLaneAt says which), -2 outside.
func (v *View) lane(y float32) int {
	if y < 0 {
		return -2
	}
	if v.hasChunkLane() && y < v.chunkLaneH()+v.gap()/2 {
		return -1
	}
	if y > v.Size().Height {
		return -2
	}
	if y+v.gap()/2 >= v.laneY(len(v.tl.Topics)) {
		if v.stateLaneAt(y) < 0 {
			return -2
		}
		return -3
	}
	return int((y + v.yOff - v.lanesTop() + v.gap()/2) / (v.laneH() + v.gap()))
}

// chunkAt returns the index of the chunk drawn under p, or -1.
func (v *View) chunkAt(p fyne.Position) int {
	if v.lane(p.Y) != -1 || p.X < v.labelW() {
		return -1
	}
	row := 0
	if v.chunkRows() > 1 {
		row = min(v.chunkRows()-1, max(0, int(p.Y/tlRowH)))
	}
	t := v.timeAt(p.X)
	slack := int64(2 / float64(v.plotW()) * float64(v.t1-v.t0))
	// The narrowest chunk near the mouse, so that thin ones stay pickable.
	best := -1
	for _, i := range v.tl.ChunksAt(t, slack) {
		c := v.tl.Chunks[i]
		if min(c.Row, tlMaxRows-1) != row && v.chunkRows() > 1 {
			continue
		}
		if best < 0 || c.T1-c.T0 < v.tl.Chunks[best].T1-v.tl.Chunks[best].T0 {
			best = i
		}
	}
	return best
}

// topicShown says whether topic passes the topic selection.
func (v *View) topicShown(topic string) bool {
	return v.selected == nil || v.selected[topic]
}

// SetTopics dims the lanes of the topics not selected (none selected:
// all are shown).
func (v *View) SetTopics(topics []string) {
	v.selected = nil
	if len(topics) > 0 {
		v.selected = map[string]bool{}
		for _, t := range topics {
			v.selected[t] = true
		}
	}
	v.Refresh()
}

// SetIndex makes the density lanes exact.
func (v *View) SetIndex(x *model.MessageIndex) {
	v.tl.SetIndex(x)
	v.Refresh()
}

// SetStats marks each topic's gaps on its lane.
func (v *View) SetStats(set *stats.Set) {
	v.gaps = make([][]stats.Gap, len(v.tl.Topics))
	v.stats = make([]*stats.Topic, len(v.tl.Topics))
	for i, lane := range v.tl.Topics {
		if st := set.Topic(lane.Topic); st != nil {
			v.gaps[i], v.stats[i] = st.Gaps, st
		}
	}
	v.Refresh()
}

// gapAt returns the gap of lane i at t, if any.
func (v *View) gapAt(i int, t int64) (stats.Gap, bool) {
	if i >= len(v.gaps) {
		return stats.Gap{}, false
	}
	gs := v.gaps[i]
	k := sort.Search(len(gs), func(k int) bool { return gs[k].End > t })
	if k < len(gs) && gs[k].Start < t {
		return gs[k], true
	}
	return stats.Gap{}, false
}

// SetAbsolute switches the axis between wall-clock time and seconds from
// the start.
func (v *View) SetAbsolute(abs bool) {
	v.abs = abs
	v.Refresh()
}

// SetCursor moves the cursor to t, scrolling the window to show it.
func (v *View) SetCursor(t int64) {
	v.cursor, v.hasCur = t, true
	if t < v.t0 || t > v.t1 {
		w := v.t1 - v.t0
		v.setWindow(t-w/2, t-w/2+w)
		return
	}
	v.Refresh()
}

// SetRange shows the selected range (ok false: none).
func (v *View) SetRange(t0, t1 int64, ok bool) {
	v.r0, v.r1, v.hasRange = t0, t1, ok
	v.Refresh()
}

// ShowChunk highlights the chunk the chunk view shows.
func (v *View) ShowChunk(pos int64) {
	v.shown = pos
	v.Refresh()
}

// Window returns the visible window.
func (v *View) Window() (t0, t1 int64) { return v.t0, v.t1 }

// setWindow shows t0..t1, kept inside the bag and no narrower than a
// microsecond.
func (v *View) setWindow(t0, t1 int64) {
	full := v.tl.End - v.tl.Start
	w := min(max(t1-t0, tlMinSpan), full)
	c := t0 + (t1-t0)/2
	v.t0, v.t1 = c-w/2, c-w/2+w
	v.clamp()
	if v.hover != "" && v.drag == dragNone {
		// What is under the mouse has changed: say so, not what was.
		v.hover = v.describe(v.hoverPos)
	}
	v.Refresh()
	if v.OnView != nil {
		v.OnView(v.t0, v.t1)
	}
}

func (v *View) clamp() {
	w := v.t1 - v.t0
	if v.t0 < v.tl.Start {
		v.t0, v.t1 = v.tl.Start, v.tl.Start+w
	}
	if v.t1 > v.tl.End {
		v.t0, v.t1 = v.tl.End-w, v.tl.End
	}
}

// Refresh redraws the lanes and the axis.
func (v *View) Refresh() {
	v.BaseWidget.Refresh()
	if v.axis != nil {
		v.axis.Refresh()
	}
}

// Scrolled zooms about the mouse; a sideways scroll pans; over the lane
// titles it scrolls the topic lanes. (The view scrolls its lanes itself:
// inside a container.Scroll, a Scrollable widget escapes the clip.)
func (v *View) Scrolled(ev *fyne.ScrollEvent) {
	if ev.Position.X < v.labelW() {
		v.scrollLanes(-ev.Scrolled.DY)
		return
	}
	if ev.Scrolled.DX != 0 && math.Abs(float64(ev.Scrolled.DX)) > math.Abs(float64(ev.Scrolled.DY)) {
		v.pan(-ev.Scrolled.DX)
		return
	}
	v.zoomAt(ev.Position.X, math.Pow(0.85, float64(ev.Scrolled.DY)/10))
}

// zoomAt scales the window by f about the time at x.
func (v *View) zoomAt(x float32, f float64) {
	at := v.timeAt(min(max(x, v.labelW()), v.labelW()+v.plotW()))
	full := v.tl.End - v.tl.Start
	w := min(max(int64(float64(v.t1-v.t0)*f), tlMinSpan), full)
	frac := float64(at-v.t0) / float64(max(1, v.t1-v.t0))
	t0 := at - int64(frac*float64(w))
	v.setWindow(t0, t0+w)
}

// Zoom scales the window by f about its middle (f < 1 zooms in).
func (v *View) Zoom(f float64) { v.zoomAt(v.labelW()+v.plotW()/2, f) }

// Fit shows the whole bag.
func (v *View) Fit() { v.setWindow(v.tl.Start, v.tl.End) }

// ZoomToRange shows the selected range.
func (v *View) ZoomToRange() {
	if v.hasRange {
		v.setWindow(v.r0, v.r1)
	}
}

// pan moves the window by dx pixels (positive: towards the start).
func (v *View) pan(dx float32) {
	dt := int64(float64(dx) / float64(v.plotW()) * float64(v.t1-v.t0))
	v.setWindow(v.t0-dt, v.t1-dt)
}

// MouseDown notes whether shift is held, for a range drag, and takes the
// keyboard focus.
func (v *View) MouseDown(ev *desktop.MouseEvent) {
	v.shift = ev.Modifier&fyne.KeyModifierShift != 0
	v.focus()
}

// MouseUp does nothing more.
func (v *View) MouseUp(*desktop.MouseEvent) {}

// Dragged pans, or with shift held selects a range.
func (v *View) Dragged(ev *fyne.DragEvent) { v.dragged(ev, v.shift) }

// dragged pans or selects; the first event of a drag decides which.
func (v *View) dragged(ev *fyne.DragEvent, selecting bool) {
	if v.drag == dragNone {
		v.drag = dragPan
		from := ev.Position.X - ev.Dragged.DX
		if v.hasCur && !selecting && from >= v.labelW() && abs32(from-v.x(v.cursor)) <= tlGrab {
			v.drag = dragScrub
		}
		if from > v.labelW()+v.plotW()+2 {
			v.drag = dragScroll
		}
		if selecting {
			v.drag = dragSelect
			v.dragFrom = v.clampTime(v.timeAt(ev.Position.X - ev.Dragged.DX))
		}
	}
	if v.drag == dragPan {
		v.scrollLanes(-ev.Dragged.DY)
		v.pan(ev.Dragged.DX)
		return
	}
	if v.drag == dragScroll {
		// The bar stands for all the lanes: a pixel of bar is this
		// many pixels of lanes.
		if h := v.Size().Height - v.lanesTop(); h > 0 {
			v.scrollLanes(ev.Dragged.DY * (v.contentH() - v.lanesTop()) / h)
		}
		return
	}
	if v.drag == dragScrub {
		t := v.clampTime(v.timeAt(ev.Position.X))
		v.cursor = t
		v.status("Time " + v.timeLabel(t))
		v.Refresh()
		if v.OnScrub != nil {
			v.OnScrub(t)
		}
		return
	}
	t := v.clampTime(v.timeAt(ev.Position.X))
	v.r0, v.r1, v.hasRange = min(v.dragFrom, t), max(v.dragFrom, t), true
	v.status("Range " + v.rangeText())
	v.Refresh()
}

func abs32(f float32) float32 { return max(f, -f) }

func (v *View) clampTime(t int64) int64 { return min(max(t, v.tl.Start), v.tl.End) }

// DragEnd selects the dragged range.
func (v *View) DragEnd() {
	if v.drag == dragSelect {
		ok := v.x(v.r1)-v.x(v.r0) >= 2 // a click with a jitter selects nothing
		if !ok {
			v.hasRange = false
			v.Refresh()
		}
		if v.OnRange != nil {
			v.OnRange(v.r0, v.r1, ok)
		}
	}
	v.drag, v.shift = dragNone, false
}

// rangeText describes the selected range.
func (v *View) rangeText() string {
	return fmt.Sprintf("%s .. %s (%s s)", v.timeLabel(v.r0), v.timeLabel(v.r1), widgets.RelSeconds(v.r1-v.r0, 3))
}

// timeLabel is t as the axis shows it, with milliseconds.
func (v *View) timeLabel(t int64) string {
	if v.abs {
		return widgets.TickLabel(t, v.tl.Start, 1e6, true)
	}
	return human.RelTime(t - v.tl.Start)
}

// Tapped places the cursor and says what was tapped.
func (v *View) Tapped(ev *fyne.PointEvent) {
	v.focus()
	if ev.Position.X < v.labelW() {
		if l := v.lane(ev.Position.Y); l >= 0 && v.OnTitle != nil {
			v.OnTitle(v.tl.Topics[l].Topic)
		}
		return
	}
	t := v.clampTime(v.timeAt(ev.Position.X))
	v.cursor, v.hasCur = t, true
	v.status("Cursor at " + widgets.TimeText(t, v.tl.Start))
	v.Refresh()
	if v.OnTap == nil {
		return
	}
	topic, chunk := "", int64(-1)
	if l := v.lane(ev.Position.Y); l >= 0 {
		topic = v.tl.Topics[l].Topic
	} else if c := v.chunkAt(ev.Position); c >= 0 {
		chunk = v.tl.Chunks[c].Pos
	}
	v.OnTap(t, topic, chunk)
}

// DoubleTapped zooms to the range when inside it, else fits the bag.
func (v *View) DoubleTapped(ev *fyne.PointEvent) {
	if t := v.timeAt(ev.Position.X); v.hasRange && t >= v.r0 && t <= v.r1 {
		v.ZoomToRange()
		return
	}
	v.Fit()
}

// focus takes the keyboard focus.
func (v *View) focus() {
	if c := fyne.CurrentApp().Driver().CanvasForObject(v); c != nil && c.Focused() != v {
		c.Focus(v)
	}
}

// FocusGained shows the focus.
func (v *View) FocusGained() { v.focused = true; v.Refresh() }

// FocusLost hides the focus.
func (v *View) FocusLost() { v.focused, v.keyShift = false, false; v.Refresh() }

// TypedRune zooms: + or = in, - out, 0 fit, z to the range.
func (v *View) TypedRune(r rune) {
	switch r {
	case '+', '=':
		v.Zoom(0.5)
	case '-', '_':
		v.Zoom(2)
	case '0':
		v.Fit()
	case 'z', 'Z':
		v.ZoomToRange()
	}
}

// TypedKey pans with the arrows, goes to the start on Home and to the end
// on End at the same zoom, clears the range on Esc, and plays or pauses
// on Space.
func (v *View) TypedKey(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyLeft:
		v.pan(v.plotW() * tlPanShare)
	case fyne.KeyRight:
		v.pan(-v.plotW() * tlPanShare)
	case fyne.KeyHome:
		w := v.t1 - v.t0
		v.setWindow(v.tl.Start, v.tl.Start+w)
	case fyne.KeyEnd:
		w := v.t1 - v.t0
		v.setWindow(v.tl.End-w, v.tl.End)
	case fyne.KeySpace:
		if v.OnPlayPause != nil {
			v.OnPlayPause()
		}
	case fyne.KeyEscape:
		if v.hasRange {
			v.hasRange = false
			v.Refresh()
			if v.OnRange != nil {
				v.OnRange(0, 0, false)
			}
		}
	default:
		if v.OnOtherKey != nil {
			v.OnOtherKey(ev, v.keyShift)
		}
	}
}

// KeyDown notes Shift, for Shift+F3.
func (v *View) KeyDown(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		v.keyShift = true
	}
}

// KeyUp notes Shift's release.
func (v *View) KeyUp(ev *fyne.KeyEvent) {
	if ev.Name == desktop.KeyShiftLeft || ev.Name == desktop.KeyShiftRight {
		v.keyShift = false
	}
}

// MouseIn and MouseMoved describe what is under the mouse.
func (v *View) MouseIn(ev *desktop.MouseEvent) { v.MouseMoved(ev) }

// MouseMoved describes the chunk or topic density under the mouse, in the
// status and in a tooltip beside the mouse.
func (v *View) MouseMoved(ev *desktop.MouseEvent) {
	s := v.describe(ev.Position)
	v.status(s)
	v.setHover(s, ev.Position)
}

// MouseOut clears the status and the tooltip.
func (v *View) MouseOut() {
	v.status("")
	v.setHover("", fyne.Position{})
}

func (v *View) setHover(s string, p fyne.Position) {
	if s == v.hover && p == v.hoverPos {
		return
	}
	v.hover, v.hoverPos = s, p
	if v.r != nil {
		v.r.layoutTip()
	}
}

func (v *View) status(s string) {
	if v.OnStatus != nil {
		v.OnStatus(s)
	}
}

// describe says what is at p.
func (v *View) describe(p fyne.Position) string {
	if p.X < v.labelW() {
		if l := v.lane(p.Y); l >= 0 {
			return v.tl.Topics[l].Topic + ": click to show only this topic in every view, again to show all"
		}
		if j := v.stateLaneAt(p.Y); j >= 0 {
			return v.states[j].Name + ": its state over time, coloured by level; hover over it for each state"
		}
		return ""
	}
	if p.X > v.labelW()+v.plotW() {
		if v.contentH() > v.Size().Height {
			return "Drag to scroll the lanes"
		}
		return ""
	}
	if v.hasCur && abs32(p.X-v.x(v.cursor)) <= tlGrab && v.lane(p.Y) != -2 {
		return "The current time, " + v.timeLabel(v.cursor) + ": drag it to move every view through time, Space plays"
	}
	if s := v.markText(p); s != "" {
		return s
	}
	t := v.timeAt(p.X)
	switch l := v.lane(p.Y); {
	case l == -1:
		if gs := v.missingAt(p); len(gs) > 0 {
			return model.MissingText(gs)
		}
		if c := v.chunkAt(p); c >= 0 {
			return v.chunkText(v.tl.Chunks[c])
		}
		return "No chunk at " + widgets.TimeText(t, v.tl.Start)
	case l == -3:
		return v.stateText(v.stateLaneAt(p.Y), t)
	case l >= 0:
		// The column under the mouse, and the lane's scale.
		d := v.laneDrawing(l)
		lane := v.tl.Topics[l].Topic
		if g, ok := v.gapAt(l, t); ok {
			return fmt.Sprintf("%s: no message for %s, %s .. %s (a gap: more than %d× the median interval, %s)", lane,
				stats.Interval(g.End-g.Start), v.timeLabel(g.Start), v.timeLabel(g.End), stats.GapFactor, stats.Interval(v.stats[l].MedianInterval))
		}
		n := len(d.Heights)
		k := min(n-1, max(0, int((p.X-v.labelW())/v.plotW()*float32(n))))
		a, b := model.BinEdge(v.t0, v.t1, k, n), model.BinEdge(v.t0, v.t1, k+1, n)
		c := v.tl.Counts(l, a, b, 1)[0]
		if !v.tl.Exact() {
			return fmt.Sprintf("%s at %s: about %s in this pixel (%s; estimated from the chunk index until the message index is read)", lane, widgets.TimeText(t, v.tl.Start), human.Plural(uint64(c+0.5), "message"), d.Scale(true))
		}
		return fmt.Sprintf("%s: %s in %s .. %s; full height: %s", lane, human.Plural(uint64(c), "message"), v.timeLabel(a), v.timeLabel(b), d.Scale(true))
	}
	return widgets.TimeText(t, v.tl.Start)
}

// chunkText describes a chunk for the status line and tooltip.
func (v *View) chunkText(c model.ChunkSpan) string {
	place := c.Place
	if place == "" {
		place = fmt.Sprintf("chunk at %d", c.Pos)
	}
	s := fmt.Sprintf("%s: %s, %s .. %s, %s", place, human.Plural(c.Messages, "message"),
		v.timeLabel(c.T0), v.timeLabel(c.T1), compressionText(c))
	over := 0
	for _, o := range v.tl.Chunks {
		if o.Pos != c.Pos && o.T0 < c.T1 && o.T1 > c.T0 {
			over++
		}
	}
	if over > 0 {
		s += ", overlaps " + human.Plural(uint64(over), "other "+strings.TrimSuffix(v.tl.LaneUnit(), "s")) + " in time"
	}
	if c.Damaged != "" {
		s += " — DAMAGED: " + c.Damaged
	} else if c.Note != "" {
		s += " — damage that lost no message: " + c.Note
	}
	return s + ". Click to open it in the Chunk tab."
}

func compressionText(c model.ChunkSpan) string {
	if c.Compression == "" || c.Compression == "none" {
		return "uncompressed"
	}
	return fmt.Sprintf("%s to %.0f%%", c.Compression, c.Ratio*100)
}

// MinSize fits the chunk lane and one topic lane; more lanes scroll.
func (v *View) MinSize() fyne.Size {
	top := float32(0)
	if v.hasChunkLane() {
		top = v.fullChunkLaneH() + tlGap
	}
	return fyne.NewSize(v.labelW()+200, top+min(1, float32(len(v.tl.Topics)))*(tlLaneH+tlGap))
}

// Resize keeps the lanes' scroll inside the new height.
func (v *View) Resize(s fyne.Size) {
	v.BaseWidget.Resize(s)
	v.scrollLanes(0)
	if v.axis != nil {
		v.axis.Refresh()
	}
}

// addMarks draws the marks the views put on the timeline (link.AddMarks):
// a Damage mark draws the chunk holding it as damaged, a Note mark in the
// note colour.
func (v *View) addMarks(marks []link.Mark) {
	for _, m := range marks {
		switch m.Kind {
		case link.Damage:
			v.tl.MarkDamaged(m.Offset, m.Offset, m.Text)
		case link.Note:
			v.tl.MarkNote(m.Offset, m.Offset, m.Text)
		case link.Suspect:
			if v.suspects == nil {
				v.suspects = map[string][]int64{}
			}
			v.suspects[m.Topic] = append(v.suspects[m.Topic], m.T)
		}
	}
	for topic, ts := range v.suspects {
		slices.Sort(ts)
		// A message marked again (shown again, then read in full) keeps
		// one tick.
		v.suspects[topic] = slices.Compact(ts)
	}
	v.Refresh()
}
