package diag

import (
	"fmt"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model"
)

// Level is a status's level, diagnostic_msgs/DiagnosticStatus's byte.
type Level uint8

// The levels diagnostic_msgs defines.
const (
	OK    Level = 0
	Warn  Level = 1
	Error Level = 2
	Stale Level = 3
)

// String is the level as rqt_robot_monitor names it: OK, WARN, ERROR,
// STALE, or "LEVEL n" for a byte no level has.
func (l Level) String() string {
	switch l {
	case OK:
		return "OK"
	case Warn:
		return "WARN"
	case Error:
		return "ERROR"
	case Stale:
		return "STALE"
	}
	return fmt.Sprintf("LEVEL %d", uint8(l))
}

// Tone is the level's colour class on the timeline.
func (l Level) Tone() model.StateTone {
	switch l {
	case OK:
		return model.ToneGood
	case Warn:
		return model.ToneWarn
	case Error:
		return model.ToneBad
	case Stale:
		return model.ToneStale
	}
	return model.ToneNeutral
}

// ParseLevel reads a level's name (OK, WARN, ERROR, STALE, any case) or
// byte (0..3).
func ParseLevel(s string) (Level, bool) {
	for l := OK; l <= Stale; l++ {
		if equalFold(s, l.String()) || s == fmt.Sprint(uint8(l)) {
			return l, true
		}
	}
	return 0, false
}

func equalFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		x, y := a[i], b[i]
		if 'a' <= x && x <= 'z' {
			x -= 'a' - 'A'
		}
		if x != y {
			return false
		}
	}
	return true
}

// KeyValue is one of a status's values.
type KeyValue struct{ Key, Value string }

// Key identifies a status: its topic and name.
type Key struct{ Topic, Name string }

// Status is one report of a status, as a diagnostic_msgs/DiagnosticStatus
// gives it, with the message it came in.
type Status struct {
	Topic      string
	Name       string
	HardwareID string
	Level      Level
	Message    string
	Values     []KeyValue
	// Received is the message's receive time, Stamp its header.stamp.
	Received, Stamp bag.Time
	// Suspect, when set, says the message comes from a damaged unit.
	Suspect string
}

// Key is the status's key.
func (s *Status) Key() Key { return Key{s.Topic, s.Name} }
