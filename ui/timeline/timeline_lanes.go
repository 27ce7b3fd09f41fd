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

// laneH is the height of a topic lane: tlLaneH, or taller up to
// tlMaxLaneH when every lane fits in the pane with room to spare (the
// user enlarged it, or a big screen).
func (v *View) laneH() float32 {
	n := float32(max(1, len(v.tl.Topics)))
	h := (v.Size().Height-v.chunkLaneH()-tlGap-v.statesH())/n - tlGap
	return min(tlMaxLaneH, max(tlLaneH, float32(math.Floor(float64(h)))))
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
	topic string
	w     float32
}

// fittedTitle is fitLaneTitle(topic, w, 12), remembered: the lanes are
// drawn every frame while playing.
func (v *View) fittedTitle(topic string, w float32) string {
	k := titleKey{topic, w}
	if s, ok := v.titles[k]; ok {
		return s
	}
	if v.titles == nil || len(v.titles) > 4*v.nLanes() {
		v.titles = map[titleKey]string{}
	}
	s := fitLaneTitle(topic, w, 12)
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
