package series

import (
	"context"
	"slices"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// TestExtractSeriesSelectors extracts /tf paths whose frames come and go (75
// messages: base_link in all, laser in 15) and checks every series against
// the decoded tree, its Missing count, the order of the series, the paths
// that select nothing, and that Locate finds each point's message.
func TestExtractSeriesSelectors(t *testing.T) {
	b := openBag(t, multichunk)
	var cache rosmsg.Cache
	refs := []FieldRef{
		{"/tf", "transforms[*].transform.translation.x"},
		{"/tf", "transforms[laser].transform.rotation.w"},
		{"/imu", "linear_acceleration.x"},
		{"/tf", "transforms[4:].transform.translation.x"},
		{"/scan", "ranges[0:3]"},
	}
	ctx := context.Background()
	set, err := Extract(ctx, b, &cache, Request{Fields: refs}, nil)
	if err != nil {
		t.Fatal(err)
	}
	withIdx, err := Extract(ctx, b, &cache, Request{Fields: refs, KeepIndex: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wantNames := []string{
		"/tf.transforms[child_frame_id=base_link].transform.translation.x",
		"/tf.transforms[child_frame_id=laser].transform.translation.x",
		"/tf.transforms[laser].transform.rotation.w",
		"/imu.linear_acceleration.x",
		"/scan.ranges[0]", "/scan.ranges[1]", "/scan.ranges[2]",
	}
	if got := set.Names(); !slices.Equal(got, wantNames) {
		t.Fatalf("series %q, want %q", got, wantNames)
	}
	if len(set.Empty) != 1 || set.Empty[0] != refs[3] {
		t.Errorf("Empty = %v", set.Empty)
	}
	wantMissing := map[string]int{wantNames[2]: 60}
	for k, s := range set.Series {
		if s.Missing != wantMissing[s.Name] {
			t.Errorf("%s: Missing %d, want %d", s.Name, s.Missing, wantMissing[s.Name])
		}
		if s.Ref.String() != s.Name {
			t.Errorf("%s: Ref %v", s.Name, s.Ref)
		}
		// The series' own path reads the same points.
		var want []point
		switch s.Name {
		case wantNames[0]:
			want = tfFrame(t, b, &cache, "base_link", false)
		case wantNames[1], wantNames[2]:
			want = tfFrame(t, b, &cache, "laser", s.Name == wantNames[2])
		default:
			want = decodeAll(t, b, &cache, s.Ref, ReceiveTime)
		}
		if len(want) != len(s.T) {
			t.Fatalf("%s: %d points, want %d", s.Name, len(s.T), len(want))
		}
		for i := range want {
			if s.T[i] != want[i].t || s.V[i] != want[i].v {
				t.Fatalf("%s point %d: (%d, %v), want %v", s.Name, i, s.T[i], s.V[i], want[i])
			}
		}
		for i := range s.T {
			got, err := s.Locate(ctx, b, i)
			if err != nil {
				t.Fatalf("%s point %d: %v", s.Name, i, err)
			}
			if w := withIdx.Series[k].Loc[i]; got != w {
				t.Fatalf("%s point %d: %+v, want %+v", s.Name, i, got, w)
			}
		}
	}
	if n := len(set.Series[0].T); n != 75 {
		t.Errorf("base_link has %d points, want 75", n)
	}
}

// tfFrame reads /tf's frame's translation.x (or rotation.w) from the tree.
func tfFrame(t *testing.T, b bag.Storage, cache *rosmsg.Cache, frame string, rotW bool) []point {
	it := b.Messages(bag.MessageFilter{Topics: []string{"/tf"}})
	defer it.Close()
	var out []point
	for it.Next() {
		m := it.Message()
		plan, err := cache.Get(m.Conn.Type, m.Conn.MD5Sum, m.Conn.Definition)
		if err != nil {
			t.Fatal(err)
		}
		n, err := plan.Decode(m.Data)
		if err != nil {
			t.Fatal(err)
		}
		tf := n.Field("transforms")
		for i := range tf.Len() {
			e, _ := tf.Elem(i)
			if e.Field("child_frame_id").Text() != frame {
				continue
			}
			v, _ := e.Field("transform").Field("translation").Field("x").Float64()
			if rotW {
				v, _ = e.Field("transform").Field("rotation").Field("w").Float64()
			}
			out = append(out, point{m.Time.Nanos(), v})
		}
	}
	return out
}
