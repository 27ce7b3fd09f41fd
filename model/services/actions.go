package services

import (
	"encoding/hex"
	"strings"

	"github.com/bagscope/bagscope/model/msgref"
)

// Where an action's services and topics live under its name.
const (
	actionInfix    = "/_action/"
	SendGoal       = "send_goal"
	GetResult      = "get_result"
	CancelGoal     = "cancel_goal"
	FeedbackTopic  = "feedback"
	StatusTopic    = "status"
	actionSendGoal = actionInfix + SendGoal
)

// actionPart splits a service or topic name of an action's
// ("/fibonacci/_action/send_goal") into the action ("/fibonacci") and the
// part ("send_goal"); ok is false for other names.
func actionPart(name string) (action, part string, ok bool) {
	i := strings.LastIndex(name, actionInfix)
	if i < 0 {
		return "", "", false
	}
	part = name[i+len(actionInfix):]
	switch part {
	case SendGoal, GetResult, CancelGoal, FeedbackTopic, StatusTopic:
		return name[:i], part, true
	}
	return "", "", false
}

// IsActionTopic says whether topic is an action's feedback or status
// topic.
func IsActionTopic(topic string) bool {
	_, part, ok := actionPart(topic)
	return ok && (part == FeedbackTopic || part == StatusTopic)
}

// GoalStatus is action_msgs/GoalStatus's status.
type GoalStatus int8

// The goal statuses of action_msgs/GoalStatus.
const (
	StatusUnknown GoalStatus = iota
	StatusAccepted
	StatusExecuting
	StatusCanceling
	StatusSucceeded
	StatusCanceled
	StatusAborted
)

// String is the status's name, as action_msgs spells it after STATUS_.
func (s GoalStatus) String() string {
	switch s {
	case StatusAccepted:
		return "ACCEPTED"
	case StatusExecuting:
		return "EXECUTING"
	case StatusCanceling:
		return "CANCELING"
	case StatusSucceeded:
		return "SUCCEEDED"
	case StatusCanceled:
		return "CANCELED"
	case StatusAborted:
		return "ABORTED"
	}
	return "UNKNOWN"
}

// Terminal says whether a goal ends in status s.
func (s GoalStatus) Terminal() bool {
	return s == StatusSucceeded || s == StatusCanceled || s == StatusAborted
}

// UUID is a goal's goal_id.
type UUID [16]byte

// String is the UUID in its canonical form.
func (u UUID) String() string {
	h := hex.EncodeToString(u[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// Transition is a goal's status changing, as the status topic says it.
type Transition struct {
	T      int64 // receive time of the status message
	Status GoalStatus
	Ref    msgref.Ref
}

// Goal is what an action's services and topics say of one goal.
type Goal struct {
	// Action indexes Report.Actions.
	Action int
	ID     UUID
	// Sent is the receive time of the goal's first send_goal request
	// event (0 when none was recorded), Request its goal summarized.
	Sent    int64
	SentRef msgref.Ref
	Request string
	// Responded says a send_goal response was recorded, Accepted what it
	// said, at RespondedAt.
	Responded, Accepted bool
	RespondedAt         int64
	// Feedback counts the feedback messages, from FirstFeedback to
	// LastFeedback.
	Feedback                    int
	FirstFeedback, LastFeedback int64
	// Transitions are the status changes the status topic shows, at
	// most maxTransitions (then TransitionsLeftOut counts the rest).
	Transitions        []Transition
	TransitionsLeftOut int
	// CancelAt is the first cancel_goal request naming the goal.
	CancelAt int64
	// HasResult says a get_result response was recorded: its status,
	// time and result summarized.
	HasResult    bool
	ResultStatus GoalStatus
	ResultAt     int64
	Result       string
	// lastStatus is the status the status topic last gave.
	lastStatus GoalStatus
	hasStatus  bool
}

// Start is the first time the recording mentions the goal.
func (g *Goal) Start() int64 {
	t := int64(0)
	for _, c := range []int64{g.Sent, g.RespondedAt, g.FirstFeedback, g.CancelAt, g.ResultAt} {
		if c != 0 && (t == 0 || c < t) {
			t = c
		}
	}
	if len(g.Transitions) > 0 && (t == 0 || g.Transitions[0].T < t) {
		t = g.Transitions[0].T
	}
	return t
}

// End is when the goal ended: its first terminal status, else its
// result, else its rejection; ok is false for a goal still open when the
// recording ends.
func (g *Goal) End() (t int64, ok bool) {
	for _, tr := range g.Transitions {
		if tr.Status.Terminal() {
			return tr.T, true
		}
	}
	if g.HasResult {
		return g.ResultAt, true
	}
	if g.Responded && !g.Accepted {
		return g.RespondedAt, true
	}
	return 0, false
}

// Final is the goal's last known status: its result's, else the last
// transition's; a rejected goal has none (StatusUnknown).
func (g *Goal) Final() GoalStatus {
	if g.HasResult && g.ResultStatus != StatusUnknown {
		return g.ResultStatus
	}
	if n := len(g.Transitions); n > 0 {
		return g.Transitions[n-1].Status
	}
	if g.Responded && g.Accepted {
		return StatusAccepted
	}
	return StatusUnknown
}

// State is the goal's state in words: "rejected", "open" (no end
// recorded) or its final status in lower case.
func (g *Goal) State() string {
	if g.Responded && !g.Accepted {
		return "rejected"
	}
	if _, ok := g.End(); !ok {
		return "open"
	}
	return strings.ToLower(g.Final().String())
}

// Action is one action's goals, counted.
type Action struct {
	Name string
	// Goals counts its goals (kept or not), Open those without an end.
	Goals, Open int
	// States counts the goals by State.
	States map[string]int
}
