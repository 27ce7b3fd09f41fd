package services

import (
	"errors"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/msgref"
)

// goal returns the goal id of action ai, creating it; nil when it is not
// kept (beyond MaxGoals).
func (b *builder) goal(ai int, id UUID) *Goal {
	i, ok := b.goals[id]
	if !ok {
		i = -1
		b.r.Actions[ai].Goals++
		if len(b.r.Goals) < goalCap {
			i = len(b.r.Goals)
			b.r.Goals = append(b.r.Goals, Goal{Action: ai, ID: id})
		} else {
			b.r.GoalsLeftOut++
		}
		b.goals[id] = i
	}
	if i < 0 {
		return nil
	}
	return &b.r.Goals[i]
}

// goalID reads a unique_identifier_msgs/UUID.
func goalID(n *rosmsg.Node) (UUID, bool) {
	if n == nil {
		return UUID{}, false
	}
	id, ok := bytes16(n.Field("uuid"))
	return id, ok
}

// actionEvent adds an event of an action's service (send_goal,
// get_result, cancel_goal) to its goal. body is the event's request or
// response.
func (b *builder) actionEvent(ar actionRef, kind EventType, p *pending, ref msgref.Ref, body *rosmsg.Node) {
	if kind.isRequest() {
		var id UUID
		var ok bool
		switch ar.part {
		case SendGoal, GetResult:
			id, ok = goalID(body.Field("goal_id"))
		case CancelGoal:
			if gi := body.Field("goal_info"); gi != nil {
				id, ok = goalID(gi.Field("goal_id"))
			}
		}
		if !ok || id == (UUID{}) { // a zero id cancels every goal
			return
		}
		p.goal, p.hasGoal = id, true
		g := b.goal(ar.action, id)
		if g == nil {
			return
		}
		switch ar.part {
		case SendGoal:
			if g.Sent == 0 {
				g.Sent, g.SentRef = ref.T, ref
				if gn := body.Field("goal"); gn != nil {
					g.Request = summary(gn)
				}
			}
		case CancelGoal:
			if g.CancelAt == 0 {
				g.CancelAt = ref.T
			}
		}
		return
	}
	if !p.hasGoal {
		return // the request was not recorded: the goal is unknown
	}
	g := b.goal(ar.action, p.goal)
	if g == nil {
		return
	}
	switch ar.part {
	case SendGoal:
		if acc := body.Field("accepted"); acc != nil && !g.Responded {
			g.Responded, g.Accepted, g.RespondedAt = true, acc.Bool(), ref.T
		}
	case GetResult:
		if st := body.Field("status"); st != nil && !g.HasResult {
			g.HasResult, g.ResultStatus, g.ResultAt = true, GoalStatus(st.Int()), ref.T
			if rn := body.Field("result"); rn != nil {
				g.Result = summary(rn)
			}
		}
	}
}

// feedback counts a feedback message of action ai.
func (b *builder) feedback(ai int, m *bag.Message, n *rosmsg.Node) error {
	id, ok := goalID(n.Field("goal_id"))
	if !ok {
		return errors.New("not an action feedback message: no goal_id")
	}
	g := b.goal(ai, id)
	if g == nil {
		return nil
	}
	t := m.Time.Nanos()
	if g.Feedback == 0 {
		g.FirstFeedback = t
	}
	g.Feedback++
	g.LastFeedback = t
	return nil
}

// status adds the transitions an action_msgs/GoalStatusArray of action ai
// shows.
func (b *builder) status(ai int, m *bag.Message, n *rosmsg.Node) error {
	list := n.Field("status_list")
	if list == nil {
		return errors.New("not an action_msgs/GoalStatusArray: no status_list")
	}
	ref := refOf(m)
	for i := range list.Len() {
		e, ok := list.Elem(i)
		if !ok {
			return errors.New("status_list element unreadable")
		}
		gi, st := e.Field("goal_info"), e.Field("status")
		if gi == nil || st == nil {
			return errors.New("not an action_msgs/GoalStatus")
		}
		id, ok := goalID(gi.Field("goal_id"))
		if !ok {
			return errors.New("goal_info without a goal_id")
		}
		g := b.goal(ai, id)
		if g == nil {
			continue
		}
		s := GoalStatus(st.Int())
		if g.hasStatus && g.lastStatus == s {
			continue
		}
		g.hasStatus, g.lastStatus = true, s
		if len(g.Transitions) >= maxTransitions {
			g.TransitionsLeftOut++
			continue
		}
		g.Transitions = append(g.Transitions, Transition{T: ref.T, Status: s, Ref: ref})
	}
	return nil
}
