package timeline

import (
	"fmt"
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/ui/widgets"
)

// stateGroup is one view's state lanes (link.SetStateLanes).
type stateGroup struct {
	name  string
	lanes []model.StateLane
}

// SetStateLanes replaces group's state lanes (nil removes them): lanes of
// intervals coloured by state, drawn below the topic lanes in the order
// their groups were first set.
func (v *View) SetStateLanes(group string, lanes []model.StateLane) {
	found := false
	for i := range v.stateGroups {
		if v.stateGroups[i].name == group {
			v.stateGroups[i].lanes, found = lanes, true
		}
	}
	if !found {
		v.stateGroups = append(v.stateGroups, stateGroup{group, lanes})
	}
	v.states = v.states[:0]
	for _, g := range v.stateGroups {
		v.states = append(v.states, g.lanes...)
	}
	v.titleW, v.titles = 0, nil // the titles are measured again
	v.scrollLanes(0)
	v.Refresh()
	if v.onStates != nil {
		v.onStates()
	}
}

// StateLanes are the state lanes drawn, in order.
func (v *View) StateLanes() []model.StateLane { return v.states }

// nLanes is the number of lanes below the chunk lane: the topics', then
// the state lanes.
func (v *View) nLanes() int { return len(v.tl.Topics) + len(v.states) }

// State lanes are thinner than topic lanes, so that many statuses fit
// below the topics.
const (
	tlStateH   = 14
	tlStateGap = 2
)

// statesH is the height of the state lanes.
func (v *View) statesH() float32 { return float32(len(v.states)) * (tlStateH + tlStateGap) }

// stateLaneAt is the index in v.states of the state lane under y, or -1.
func (v *View) stateLaneAt(y float32) int {
	top := v.laneY(len(v.tl.Topics))
	if y+tlStateGap/2 < top {
		return -1
	}
	j := int((y - top + tlStateGap/2) / (tlStateH + tlStateGap))
	if j >= len(v.states) {
		return -1
	}
	return j
}

// stateText says what state lane j holds at t.
func (v *View) stateText(j int, t int64) string {
	if j < 0 || j >= len(v.states) {
		return ""
	}
	l := v.states[j]
	s, ok := l.At(t)
	if !ok {
		return fmt.Sprintf("%s: no state at %s", l.Name, v.timeLabel(t))
	}
	return fmt.Sprintf("%s: %s, %s .. %s (%s s)", l.Name, s.Text, v.timeLabel(s.Start), v.timeLabel(s.End), widgets.RelSeconds(s.End-s.Start, 3))
}

// ToneColor is the colour the timeline draws a state tone in, in
// widget w's theme: the theme's success, warning and error colours for
// good, warning and bad states, its primary colour for active ones, and
// greys for stale and neutral ones. Views use it to colour the same
// states alike.
func ToneColor(w fyne.Widget, tone model.StateTone) color.Color {
	th := theme.CurrentForWidget(w)
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	c := func(n fyne.ThemeColorName) color.Color { return th.Color(n, variant) }
	switch tone {
	case model.ToneGood:
		return c(theme.ColorNameSuccess)
	case model.ToneActive:
		return c(theme.ColorNamePrimary)
	case model.ToneStale:
		return widgets.WithAlpha(c(theme.ColorNamePlaceHolder), 200)
	case model.ToneWarn:
		return c(theme.ColorNameWarning)
	case model.ToneBad:
		return c(theme.ColorNameError)
	case model.ToneNeutral:
		return widgets.WithAlpha(c(theme.ColorNameForeground), 110)
	}
	return color.Transparent
}

// stateLanes draws the state lanes below the topic lanes: each a title
// and, per pixel column, the highest tone of the spans there
// (model.StateLane.Columns).
func (r *timelineRenderer) stateLanes(col timelineColors, text func(s string, x, y float32, c color.Color, sz float32, bold bool)) {
	v := r.v
	lw, lh, pw := v.labelW(), float32(tlStateH), v.plotW()
	cols := max(1, int(pw))
	colW := pw / float32(cols)
	for j, lane := range v.states {
		y := v.laneY(len(v.tl.Topics) + j)
		if y+lh < v.lanesTop() || y > v.Size().Height {
			continue
		}
		r.lanes.Rect(lw, y, pw, lh, col.laneBG)
		text(v.fittedTitle(lane.Name, lw-10, 11), 4, y+(lh-14)/2, col.fg, 11, false)
		tones := lane.Columns(v.t0, v.t1, cols)
		for k := 0; k < len(tones); {
			e := k + 1
			for e < len(tones) && tones[e] == tones[k] {
				e++
			}
			if tones[k] != model.ToneNone {
				r.lanes.Rect(lw+float32(k)*colW, y+1, float32(e-k)*colW, lh-2, ToneColor(v, tones[k]))
			}
			k = e
		}
	}
}
