package servicesview

import (
	"fmt"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/services"
	"github.com/bagscope/bagscope/model/stats"
)

// toneOf is a goal's colour on the timeline: succeeded good, canceled
// warning, aborted bad, open (still running when the recording ends)
// active, rejected and unknown neutral.
func toneOf(g *services.Goal) model.StateTone {
	switch g.State() {
	case "succeeded":
		return model.ToneGood
	case "canceled", "canceling":
		return model.ToneWarn
	case "aborted":
		return model.ToneBad
	case "open", "executing", "accepted":
		return model.ToneActive
	}
	return model.ToneNeutral
}

// Lanes are the goals' lifetimes as timeline state lanes: each action's
// goals packed into as few lanes as do not overlap (at most
// maxLanesPerAction; more overlapping goals share the last), an open
// goal lasting to end.
func Lanes(rep *services.Report, end int64) []model.StateLane {
	var out []model.StateLane
	for ai, a := range rep.Actions {
		var lanes []model.StateLane
		var ends []int64
		for i := range rep.Goals {
			g := &rep.Goals[i]
			if g.Action != ai {
				continue
			}
			s := g.Start()
			e, ok := g.End()
			state := g.State()
			if !ok {
				e = max(end, s+1)
			}
			if e <= s {
				e = s + 1 // an instant (a rejection in the same nanosecond) still shows
			}
			text := fmt.Sprintf("goal %s %s", g.ID.String()[:8], state)
			if ok {
				text += " after " + stats.Interval(e-s)
			}
			if g.Feedback > 0 {
				text += fmt.Sprintf(", %d feedback", g.Feedback)
			}
			span := model.StateSpan{Start: s, End: e, Tone: toneOf(g), Text: text}
			k := -1
			for j, le := range ends {
				if le <= s {
					k = j
					break
				}
			}
			if k < 0 && len(lanes) < maxLanesPerAction {
				name := a.Name + " goals"
				if len(lanes) > 0 {
					name = fmt.Sprintf("%s goals (%d)", a.Name, len(lanes)+1)
				}
				lanes = append(lanes, model.StateLane{Name: name})
				ends = append(ends, 0)
				k = len(lanes) - 1
			}
			if k < 0 {
				k = len(lanes) - 1
			}
			lanes[k].Spans = append(lanes[k].Spans, span)
			ends[k] = max(ends[k], e)
		}
		for i := range lanes {
			lanes[i].Normalize()
		}
		out = append(out, lanes...)
	}
	return out
}
