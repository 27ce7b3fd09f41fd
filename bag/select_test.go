package bag_test

import (
	"slices"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// TestSelect reads through Select's view and checks it gives exactly the
// messages of the recording that both its filter and the read's select,
// and only the connections its filter names.
func TestSelect(t *testing.T) {
	for _, file := range []string{"../testdata/robot.bag", "../testdata/ros2-mixed.mcap"} {
		s, err := bag.OpenFile(file)
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		all := readAll(t, s, bag.MessageFilter{})
		topics := map[string]bool{}
		for _, m := range all {
			topics[m.topic] = true
		}
		if len(topics) < 3 || len(all) < 100 {
			t.Fatalf("%s: want a recording of several topics and many messages, have %d topics and %d messages", file, len(topics), len(all))
		}
		var names []string
		for tp := range topics {
			names = append(names, tp)
		}
		slices.Sort(names)
		keyTime := func(k uint64) bag.Time { return bag.Time{Sec: uint32(k >> 32), NSec: uint32(k)} }
		first, end := keyTime(all[0].time), keyTime(all[len(all)-1].time)
		mid := bag.TimeFromNanos((first.Nanos() + end.Nanos()) / 2)
		quarter := bag.TimeFromNanos((first.Nanos() + mid.Nanos()) / 2)
		want := func(f bag.MessageFilter) []seen {
			var out []seen
			for _, m := range all {
				if (len(f.Topics) == 0 || slices.Contains(f.Topics, m.topic)) && m.time >= f.Start.Key() && (f.End.IsZero() || m.time <= f.End.Key()) {
					out = append(out, m)
				}
			}
			return out
		}
		tests := []struct {
			name      string
			view, get bag.MessageFilter
			expect    bag.MessageFilter // what the two together select
			empty     bool
		}{
			{"zero", bag.MessageFilter{}, bag.MessageFilter{}, bag.MessageFilter{}, false},
			{"one topic", bag.MessageFilter{Topics: names[:1]}, bag.MessageFilter{}, bag.MessageFilter{Topics: names[:1]}, false},
			{"from the middle", bag.MessageFilter{Start: mid}, bag.MessageFilter{}, bag.MessageFilter{Start: mid}, false},
			{"to the middle, two topics", bag.MessageFilter{Topics: names[:2], End: mid}, bag.MessageFilter{}, bag.MessageFilter{Topics: names[:2], End: mid}, false},
			{"topics intersected", bag.MessageFilter{Topics: names[:2]}, bag.MessageFilter{Topics: names[1:]}, bag.MessageFilter{Topics: names[1:2]}, false},
			{"ranges intersected", bag.MessageFilter{End: mid}, bag.MessageFilter{Start: quarter}, bag.MessageFilter{Start: quarter, End: mid}, false},
			{"disjoint topics", bag.MessageFilter{Topics: names[:1]}, bag.MessageFilter{Topics: names[1:2]}, bag.MessageFilter{}, true},
			{"disjoint ranges", bag.MessageFilter{End: first}, bag.MessageFilter{Start: mid}, bag.MessageFilter{}, true},
		}
		for _, tc := range tests {
			t.Run(file+"/"+tc.name, func(t *testing.T) {
				v := bag.Select(s, tc.view)
				got := readAll(t, v, tc.get)
				w := want(tc.expect)
				if tc.empty {
					w = nil
				}
				if len(got) != len(w) || !slices.Equal(got, w) {
					t.Fatalf("read %d messages through the view, want %d", len(got), len(w))
				}
				if !tc.empty && len(w) == 0 {
					t.Fatalf("the case selects nothing: it tests nothing")
				}
				for _, c := range v.Connections() {
					if len(tc.view.Topics) > 0 && !slices.Contains(tc.view.Topics, c.Topic) {
						t.Errorf("the view lists connection %d on %s, which its filter does not name", c.ID, c.Topic)
					}
					if v.Connection(c.ID) != c {
						t.Errorf("Connection(%d) is not the listed connection", c.ID)
					}
				}
				n := 0
				for _, c := range s.Connections() {
					if len(tc.view.Topics) == 0 || slices.Contains(tc.view.Topics, c.Topic) {
						n++
					} else if v.Connection(c.ID) != nil {
						t.Errorf("Connection(%d) on %s: the view gives a connection its filter leaves out", c.ID, c.Topic)
					}
				}
				if len(v.Connections()) != n {
					t.Errorf("the view lists %d connections, want %d", len(v.Connections()), n)
				}
			})
		}
	}
}
