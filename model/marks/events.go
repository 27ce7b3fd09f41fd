package marks

import (
	"context"
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
)

// maxEvents bounds the events read from a recording (more are counted).
const maxEvents = 100000

// Event is one event a recording carries: a foxglove_msgs/Event (ROS 1 or
// ROS 2) or foxglove.Event (JSON) message.
type Event struct {
	Topic string
	// Time is the message's log time; Start and End the event's span.
	Time, Start, End bag.Time
	// Label is the metadata value of "label", "name", "type" or "event",
	// else the topic.
	Label    string
	Metadata [][2]string
	Loc      bag.Loc
}

// IsEventType reports whether a connection's type is an event type.
func IsEventType(typ string) bool {
	switch typ {
	case "foxglove_msgs/Event", "foxglove_msgs/msg/Event", "foxglove.Event":
		return true
	}
	return false
}

// EventTopics lists the topics of s whose type is an event type.
func EventTopics(s bag.Storage) []string {
	seen := map[string]bool{}
	var out []string
	for _, c := range s.Connections() {
		if IsEventType(c.Type) && !seen[c.Topic] {
			seen[c.Topic] = true
			out = append(out, c.Topic)
		}
	}
	sort.Strings(out)
	return out
}

// ReadEvents reads the events of s's event topics in log time order: at
// most 100000 (dropped counts the rest). Messages that do not decode as
// events are left out.
func ReadEvents(ctx context.Context, s bag.Storage) (events []Event, dropped int, err error) {
	var ids []uint32
	for _, c := range s.Connections() {
		if IsEventType(c.Type) {
			ids = append(ids, c.ID)
		}
	}
	if len(ids) == 0 {
		return nil, 0, nil
	}
	var cache rosmsg.Cache
	it := s.Messages(bag.MessageFilter{Conns: ids})
	defer it.Close()
	for n := 0; it.Next(); n++ {
		if n&1023 == 0 {
			if err := ctx.Err(); err != nil {
				return events, dropped, err
			}
		}
		m := it.Message()
		ev, ok := decodeEvent(&cache, m)
		if !ok {
			continue
		}
		if len(events) >= maxEvents {
			dropped++
			continue
		}
		events = append(events, ev)
	}
	return events, dropped, it.Err()
}

func decodeEvent(cache *rosmsg.Cache, m *bag.Message) (Event, bool) {
	ev := Event{Topic: m.Conn.Topic, Time: m.Time, Loc: m.Loc}
	if m.Conn.Encoding == "json" {
		type stamp struct {
			Sec  int64 `json:"sec"`
			Nsec int64 `json:"nsec"`
		}
		var j struct {
			Start    stamp                         `json:"start_time"`
			EndTime  *stamp                        `json:"end_time"`
			Metadata []struct{ Key, Value string } `json:"metadata"`
		}
		if err := json.Unmarshal(m.Data, &j); err != nil {
			return ev, false
		}
		ev.Start = bag.TimeFromNanos(j.Start.Sec*1e9 + j.Start.Nsec)
		ev.End = ev.Start
		if j.EndTime != nil {
			ev.End = bag.TimeFromNanos(j.EndTime.Sec*1e9 + j.EndTime.Nsec)
		}
		for _, kv := range j.Metadata {
			ev.Metadata = append(ev.Metadata, [2]string{kv.Key, kv.Value})
		}
	} else {
		plan, err := model.PlanFor(cache, m.Conn)
		if err != nil {
			return ev, false
		}
		root, err := plan.Decode(m.Data)
		if root == nil || err != nil && !errors.Is(err, rosmsg.ErrTrailingBytes) {
			return ev, false
		}
		var ok bool
		if ev.Start, ok = nodeTime(root.Field("start_time")); !ok {
			return ev, false
		}
		if ev.End, ok = nodeTime(root.Field("end_time")); !ok {
			ev.End = ev.Start
		}
		if md := root.Field("metadata"); md != nil {
			for i := range md.Children {
				kv := &md.Children[i]
				k, v := kv.Field("key"), kv.Field("value")
				if k != nil && v != nil {
					ev.Metadata = append(ev.Metadata, [2]string{k.Text(), v.Text()})
				}
			}
		}
	}
	ev.Label = ev.Topic
	for _, want := range []string{"label", "name", "type", "event"} {
		for _, kv := range ev.Metadata {
			if strings.EqualFold(kv[0], want) && kv[1] != "" {
				ev.Label = kv[1]
				return ev, true
			}
		}
	}
	return ev, true
}

// nodeTime reads a ROS 1 time or a ROS 2 builtin_interfaces/Time node.
func nodeTime(n *rosmsg.Node) (bag.Time, bool) {
	if n == nil {
		return bag.Time{}, false
	}
	if n.Kind == rosmsg.KindTime {
		t := n.Time()
		return bag.Time{Sec: t.Sec, NSec: t.Nsec}, true
	}
	sec, nsec := n.Field("sec"), n.Field("nanosec")
	if sec == nil || nsec == nil {
		return bag.Time{}, false
	}
	return bag.TimeFromNanos(sec.Int()*1e9 + int64(nsec.Uint())), true
}
