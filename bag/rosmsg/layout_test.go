package rosmsg_test

import (
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/bag/rosmsg/internal/rosmsgtest"
)

// TestFieldFinderMatchesCursor checks the layout plans (FieldFinder)
// against the plain cursor's walk from the message start
// (Cursor.FieldOffset) for every field of every message type the shared
// recordings hold, nested types where they lie in real messages, on whole
// messages and on messages cut short, asking for the fields in an order
// that makes the finder go on from what it found before and go back.
func TestFieldFinderMatchesCursor(t *testing.T) {
	const perConn = 12 // messages compared per connection
	types, msgs, looks := map[string]bool{}, 0, 0
	rosmsgtest.EachFirstMessages(t, "../../../shared/bags", perConn, func(path string, plan *rosmsg.Plan, m *bag.Message) {
		types[plan.MessageEncoding+" "+plan.Type] = true
		msgs++
		data := m.Data
		cuts := []int{len(data)}
		for _, c := range []int{0, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 257, len(data) / 2, len(data) - 1} {
			if c > 0 && c < len(data) {
				cuts = append(cuts, c)
			}
		}
		for _, c := range cuts {
			cur, off, err := plan.Cursor(data[:c])
			if err != nil {
				continue
			}
			var ff rosmsg.FieldFinder
			looks += compareFields(t, path, plan.Type, &ff, cur, plan.Root, off, 0)
		}
	})
	if len(types) == 0 {
		t.Fatal("no message types compared")
	}
	t.Logf("%d message types, %d messages, %d look-ups", len(types), msgs, looks)
}

// compareFields compares every field offset of the message of plan m at
// start, the last field first and then the rest in order, and goes into
// the nested messages it reaches (the first element of arrays of them).
func compareFields(t *testing.T, path, typ string, ff *rosmsg.FieldFinder, cur rosmsg.Cursor, m *rosmsg.MsgPlan, start, depth int) int {
	t.Helper()
	n := len(m.Fields)
	if n == 0 || depth > 8 {
		return 0
	}
	order := append([]int{n - 1}, make([]int, 0, n)...)
	for k := range n {
		order = append(order, k)
	}
	order = append(order, n/2, n+1, -1)
	looks := 0
	for _, k := range order {
		want, wok := cur.FieldOffset(m, start, k)
		got, gok := ff.FieldOffset(cur, m, start, k)
		looks++
		if got != want || gok != wok {
			t.Fatalf("%s: %s: %s field %d (of %d) at message start %d in %d bytes: finder gives %d, %v; cursor %d, %v",
				path, typ, m.Type, k, n, start, len(cur.Data()), got, gok, want, wok)
		}
		if !wok || k < 0 || k >= n {
			continue
		}
		f := &m.Fields[k]
		if f.Kind != rosmsg.KindMessage {
			continue
		}
		at := want
		if f.Array {
			cnt, first, ok := cur.Array(f, want)
			if !ok || cnt == 0 {
				continue
			}
			at = first
		}
		looks += compareFields(t, path, typ, ff, cur, f.Msg, at, depth+1)
	}
	return looks
}
