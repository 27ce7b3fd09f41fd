package timeline

import (
	"math"

	"fyne.io/fyne/v2"

	"github.com/bagscope/bagscope/model"
)

// tlScaleSize is the text size of a lane's scale, beside its title.
const tlScaleSize = 10

// laneCache holds the lanes' drawings for one window and width, so that
// moving the cursor (30 times a second while playing) redraws without
// counting again.
type laneCache struct {
	t0, t1 int64
	cols   int
	h      float32
	exact  bool
	lanes  []*model.LaneDrawing
}

// laneDrawing is how topic lane i draws the visible window, one column a
// pixel.
func (v *View) laneDrawing(i int) model.LaneDrawing {
	cols := max(1, int(v.plotW()))
	c := &v.laneCache
	if c.t0 != v.t0 || c.t1 != v.t1 || c.cols != cols || c.h != v.laneH() || c.exact != v.tl.Exact() || len(c.lanes) != len(v.tl.Topics) {
		*c = laneCache{t0: v.t0, t1: v.t1, cols: cols, h: v.laneH(), exact: v.tl.Exact(), lanes: make([]*model.LaneDrawing, len(v.tl.Topics))}
	}
	if c.lanes[i] == nil {
		d := v.tl.LaneFor(i, v.t0, v.t1, cols, v.laneH()-2)
		c.lanes[i] = &d
	}
	return *c.lanes[i]
}

// tlMaxLaneH is the tallest a topic lane grows when the pane has room.
const tlMaxLaneH = 40

// Compact lanes: when the topic lanes at tlLaneH do not all fit (a short
// window, 1024x640, leaves the lanes about 60 px), they shrink towards
// tlCompactLaneH, with tlCompactGap between them and the chunk lane
// tlCompactChunkH high, so that several topics show at once; the rest
// scroll.
const (
	tlCompactLaneH  = 10
	tlCompactGap    = 2
	tlCompactChunkH = 12
)

// compact says whether the lanes are drawn compact: the view is shorter
// than its lanes at their usual height.
func (v *View) compact() bool {
	h := v.Size().Height
	if h <= 0 || len(v.tl.Topics) < 2 {
		return false
	}
	want := float32(len(v.tl.Topics))*(tlLaneH+tlGap) + v.statesH()
	if v.hasChunkLane() {
		want += v.fullChunkLaneH() + tlGap
	}
	return h < want
}

// gap is the room between two lanes.
func (v *View) gap() float32 {
	if v.compact() {
		return tlCompactGap
	}
	return tlGap
}

// laneH is the height of a topic lane: tlLaneH, or taller up to
// tlMaxLaneH when every lane fits in the pane with room to spare (the
// user enlarged it, or a big screen), or shorter down to tlCompactLaneH
// when they do not fit at tlLaneH (compact: those shown share the room).
func (v *View) laneH() float32 {
	n := float32(max(1, len(v.tl.Topics)))
	g := v.gap()
	room := v.Size().Height - v.chunkLaneH() - g - v.statesH()
	if v.compact() {
		// As many lanes as fit at tlCompactLaneH (at most all of them),
		// grown to share the room, so that the last one shown is not cut.
		k := float32(min(n, max(1, float32(math.Floor(float64((room+g)/(tlCompactLaneH+g)))))))
		return min(tlMaxLaneH, max(tlCompactLaneH, float32(math.Floor(float64((room+g)/k-g)))))
	}
	h := float32(math.Floor(float64(room/n - g)))
	return min(tlMaxLaneH, max(tlLaneH, h))
}

// titleSize is the text size of the lanes' titles: smaller on compact
// lanes, so a title stays within its lane and gap.
func (v *View) titleSize() float32 {
	if v.laneH() < 16 {
		return 10
	}
	return 12
}

// LanesVisible is the number of topic lanes drawn whole in the view, as
// scrolled.
func (v *View) LanesVisible() int {
	n := 0
	for i := range v.tl.Topics {
		if y := v.laneY(i); y >= v.lanesTop()-0.5 && y+v.laneH() <= v.Size().Height+0.5 {
			n++
		}
	}
	return n
}

// laneScaleLabel is the short scale beside a lane's title: "1/tick",
// "max 2.2/px"; the tooltip says it in full, with the rate.
func laneScaleLabel(d model.LaneDrawing) string {
	switch {
	case d.Messages == 0:
		return ""
	case d.Ticks:
		return "1/tick"
	}
	return d.Scale(false)
}

// labelW is the width of the lane titles: the longest topic with room for
// its scale, within a third of the view and no less than tlLabelW.
func (v *View) labelW() float32 {
	if v.titleW == 0 {
		v.titleW = 1
		for _, lane := range v.tl.Topics {
			v.titleW = max(v.titleW, fyne.MeasureText(lane.Topic, 12, fyne.TextStyle{}).Width)
		}
		for _, lane := range v.states {
			v.titleW = max(v.titleW, fyne.MeasureText(lane.Name, 12, fyne.TextStyle{}).Width)
		}
	}
	scaleW := fyne.MeasureText("max 88.8/px", tlScaleSize, fyne.TextStyle{}).Width
	return min(max(tlLabelW, v.titleW+scaleW+20), max(tlLabelW, v.Size().Width/3))
}

// titleKey is a lane title fitted to a width.
type titleKey struct {
	topic   string
	w, size float32
}

// fittedTitle is fitLaneTitle(topic, w, size), remembered: the lanes are
// drawn every frame while playing.
func (v *View) fittedTitle(topic string, w, size float32) string {
	k := titleKey{topic, w, size}
	if s, ok := v.titles[k]; ok {
		return s
	}
	if v.titles == nil || len(v.titles) > 4*v.nLanes() {
		v.titles = map[titleKey]string{}
	}
	s := fitLaneTitle(topic, w, size)
	v.titles[k] = s
	return s
}

// fitLaneTitle shortens s with an ellipsis in the middle (topics differ at both
// ends: /robot1/…/points) until it fits w at size.
func fitLaneTitle(s string, w float32, size float32) string {
	if fyne.MeasureText(s, size, fyne.TextStyle{}).Width <= w {
		return s
	}
	r := []rune(s)
	for keep := len(r) - 1; keep > 1; keep-- {
		head := (keep + 1) / 2
		t := string(r[:head]) + "…" + string(r[len(r)-(keep-head):])
		if fyne.MeasureText(t, size, fyne.TextStyle{}).Width <= w {
			return t
		}
	}
	return "…"
}
