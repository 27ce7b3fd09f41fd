package diag

import (
	"context"
	"errors"
	"fmt"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/internal/typed"
)

// ErrNoDiagnostics says a recording has no diagnostics topic.
var ErrNoDiagnostics = errors.New("the recording has no diagnostics topic (of type diagnostic_msgs/DiagnosticArray)")

// IsDiagType reports whether typ is diagnostic_msgs/DiagnosticArray (ROS 1
// or ROS 2).
func IsDiagType(typ string) bool {
	return rosmsg.NormalizeROS2Type(typ) == "diagnostic_msgs/msg/DiagnosticArray"
}

// Connections returns the IDs of st's diagnostics connections.
func Connections(st bag.Storage) []uint32 {
	var ids []uint32
	for _, c := range st.Connections() {
		if IsDiagType(c.Type) {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// Topics returns st's diagnostics topics, each once, in connection order.
func Topics(st bag.Storage) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range st.Connections() {
		if IsDiagType(c.Type) && !seen[c.Topic] {
			seen[c.Topic] = true
			out = append(out, c.Topic)
		}
	}
	return out
}

// Options tune ReadHistory and TableAt.
type Options struct {
	// Progress, when set, is told the diagnostics messages read so far of
	// the total the index counts.
	Progress func(done, total int64)
	// Done, when set, is given the finished iterator before it is closed,
	// to ask what the read skipped (bag.DamageAfter).
	Done func(it bag.MessageIter)
}

// Unread counts the messages a read could not decode.
type Unread struct {
	// Messages is the number of diagnostics messages read; Undecodable
	// those that could not be decoded, the first said in First.
	Messages    uint64
	Undecodable int
	First       string
}

func (u *Unread) undecodable(m *bag.Message, err error) {
	u.Undecodable++
	if u.Undecodable == 1 {
		u.First = fmt.Sprintf("%s at %s: %v", m.Conn.Topic, m.Time, err)
	}
}

// each reads every diagnostics message of st within f's times (its Conns
// are set here) and gives each status to visit, in receive order. A read
// that stops (cancelled, or on damage) returns its error; what was read
// before was visited.
func each(ctx context.Context, st bag.Storage, f bag.MessageFilter, opt Options, u *Unread, visit func(m *bag.Message, s Status)) error {
	ids := Connections(st)
	if len(ids) == 0 {
		return ErrNoDiagnostics
	}
	f.Conns = ids
	return typed.Each(ctx, st, f, typed.Reader{Progress: opt.Progress, Done: opt.Done,
		Undecodable: func(m *bag.Message, err error) {
			u.Messages++
			u.undecodable(m, err)
		},
		Visit: func(m *bag.Message, n *rosmsg.Node) {
			u.Messages++
			arr := n.Field("status")
			if arr == nil || !arr.Array {
				u.undecodable(m, errors.New("no status array: not a diagnostic_msgs/DiagnosticArray"))
				return
			}
			var stamp bag.Time
			if h := n.Field("header"); h != nil {
				stamp, _ = typed.StampOf(h.Field("stamp"))
			}
			for i := 0; i < arr.Len(); i++ {
				e, ok := arr.Elem(i)
				if !ok {
					break
				}
				s, err := decodeStatus(&e)
				if err != nil {
					u.undecodable(m, err)
					break
				}
				s.Topic, s.Received, s.Stamp, s.Suspect = m.Conn.Topic, m.Time, stamp, m.Suspect
				visit(m, s)
			}
		}})
}

// decodeStatus reads one diagnostic_msgs/DiagnosticStatus.
func decodeStatus(e *rosmsg.Node) (Status, error) {
	var s Status
	lv, name := e.Field("level"), e.Field("name")
	if lv == nil || name == nil {
		return s, errors.New("a status without level or name: not a diagnostic_msgs/DiagnosticStatus")
	}
	s.Level, s.Name = Level(uint8(lv.Uint())), name.Text()
	if f := e.Field("message"); f != nil {
		s.Message = f.Text()
	}
	if f := e.Field("hardware_id"); f != nil {
		s.HardwareID = f.Text()
	}
	if vs := e.Field("values"); vs != nil && vs.Array {
		for i := 0; i < vs.Len(); i++ {
			kv, ok := vs.Elem(i)
			if !ok {
				break
			}
			k, v := kv.Field("key"), kv.Field("value")
			if k == nil || v == nil {
				return s, errors.New("a value without key or value: not a diagnostic_msgs/KeyValue")
			}
			s.Values = append(s.Values, KeyValue{k.Text(), v.Text()})
		}
	}
	return s, nil
}

// recordingEnd is st's last receive time, nanoseconds.
func recordingEnd(st bag.Storage) int64 {
	_, end := model.TimeRange(st)
	return end.Nanos()
}
