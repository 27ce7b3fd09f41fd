package rosmsg_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
)

// sharedRecordings lists the recordings under ../shared/bags as this
// folder reaches them: ROS 1 bags, MCAP files and rosbag2 folders.
func sharedRecordings(t *testing.T) []string {
	t.Helper()
	dir := "../../../shared/bags"
	var out []string
	filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		switch {
		case err != nil:
		case e.IsDir():
			if _, err := os.Stat(filepath.Join(p, "metadata.yaml")); err == nil {
				out = append(out, p)
				return filepath.SkipDir
			}
		case strings.HasSuffix(p, ".bag") || strings.HasSuffix(p, ".mcap"):
			out = append(out, p)
		}
		return nil
	})
	if len(out) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatalf("no recordings under %s (CI needs ../shared)", dir)
		}
		t.Skipf("skipping (CI never skips this): no recordings under %s", dir)
	}
	return out
}

// TestFieldFinderMatchesCursor checks the layout plans (FieldFinder)
// against the plain cursor's walk from the message start
// (Cursor.FieldOffset) for every field of every message type the shared
// recordings hold, nested types where they lie in real messages, on whole
// messages and on messages cut short, asking for the fields in an order
// that makes the finder go on from what it found before and go back.
func TestFieldFinderMatchesCursor(t *testing.T) {
	const perConn = 12 // messages compared per connection
	types, msgs, looks := map[string]bool{}, 0, 0
	for _, path := range sharedRecordings(t) {
		s, err := model.OpenStorage(path)
		if err != nil {
			continue // damaged on purpose: the bag tests say how
		}
		var cache rosmsg.Cache
		seen := map[uint32]int{}
		it := s.Messages(bag.MessageFilter{})
		for it.Next() {
			m := it.Message()
			if seen[m.Conn.ID] >= perConn {
				continue
			}
			seen[m.Conn.ID]++
			plan, err := cache.GetSchema(m.Conn.SchemaEncoding, m.Conn.Encoding, m.Conn.Type, m.Conn.Definition)
			if err != nil {
				continue
			}
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
		}
		it.Close()
		s.Close()
	}
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
