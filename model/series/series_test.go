package series

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

func TestParseFieldRef(t *testing.T) {
	topics := []string{"/imu", "/imu/data", "/tf", "/scan", "rosout", "/a.b", "/a"}
	tests := []struct {
		in      string
		want    FieldRef
		wantErr error
	}{
		{"/imu.linear_acceleration.x", FieldRef{"/imu", "linear_acceleration.x"}, nil},
		{"/imu/data.linear_acceleration.x", FieldRef{"/imu/data", "linear_acceleration.x"}, nil},
		{"/tf.transforms[0].transform.translation.y", FieldRef{"/tf", "transforms[0].transform.translation.y"}, nil},
		{"/scan.ranges[100]", FieldRef{"/scan", "ranges[100]"}, nil},
		{"scan.ranges[100]", FieldRef{"/scan", "ranges[100]"}, nil},
		{"rosout.level", FieldRef{"rosout", "level"}, nil},
		{"/rosout.level", FieldRef{"rosout", "level"}, nil},
		{"/a.b.c", FieldRef{"/a.b", "c"}, nil},
		{"/a.x", FieldRef{"/a", "x"}, nil},
		{"/imu.@latency", FieldRef{"/imu", LatencyPath}, nil},
		{"/nope.x", FieldRef{}, ErrUnknownTopic},
		{"/imu", FieldRef{}, ErrUnknownField},
		{"/imu.", FieldRef{}, ErrUnknownField},
		{"", FieldRef{}, ErrUnknownTopic},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseFieldRef(tc.in, topics)
			if !errors.Is(err, tc.wantErr) || got != tc.want {
				t.Fatalf("got %+v, %v; want %+v, %v", got, err, tc.want, tc.wantErr)
			}
		})
	}
}

func TestCompleteField(t *testing.T) {
	b := openBag(t, multichunk)
	var cache rosmsg.Cache
	tests := []struct {
		prefix  string
		first   []string // the completions must start with these
		has     []string
		hasNone []string
	}{
		{prefix: "", first: []string{"/chatter", "/imu", "/odom", "/scan", "/tf"}},
		{prefix: "/i", first: []string{"/imu"}},
		{prefix: "/imu", first: []string{"/imu", "/imu.header.seq"}},
		{prefix: "im", first: []string{"/imu"}},
		{prefix: "/imu.linear_acc", first: []string{"/imu.linear_acceleration.x", "/imu.linear_acceleration.y", "/imu.linear_acceleration.z"}},
		{prefix: "/scan.ranges[1", first: []string{"/scan.ranges[1]"}},
		{prefix: "/imu.orientation_covariance[", has: []string{"/imu.orientation_covariance[0]", "/imu.orientation_covariance[8]"}},
		{prefix: "/tf.transforms[3].transform.rot", first: []string{"/tf.transforms[3].transform.rotation.x"}},
		{prefix: "/imu.@", first: []string{"/imu.@latency"}},
		{prefix: "/tf.", hasNone: []string{"/tf.@latency"}},
		{prefix: "/x", first: nil},
	}
	for _, tc := range tests {
		t.Run(tc.prefix, func(t *testing.T) {
			got := CompleteField(b, &cache, tc.prefix, 0)
			if len(got) < len(tc.first) || !slices.Equal(got[:len(tc.first)], tc.first) {
				t.Fatalf("got %.10q, want it to start with %q", got, tc.first)
			}
			if tc.first == nil && tc.has == nil && tc.hasNone == nil && len(got) != 0 {
				t.Fatalf("got %q, want nothing", got)
			}
			for _, h := range tc.has {
				if !slices.Contains(got, h) {
					t.Errorf("missing %q in %.20q", h, got)
				}
			}
			for _, h := range tc.hasNone {
				if slices.Contains(got, h) {
					t.Errorf("unexpected %q", h)
				}
			}
			for _, c := range got {
				if strings.Contains(c, ".") {
					if _, err := ResolveField(b, &cache, c); err != nil && !strings.HasSuffix(c, "[") {
						t.Errorf("completion %q does not resolve: %v", c, err)
					}
				}
			}
		})
	}
	if got := CompleteField(b, &cache, "/imu.", 3); len(got) != 3 {
		t.Errorf("limit 3 gave %d", len(got))
	}
}

// TestExtractSeriesMatchesIterator compares extraction with decoding every
// message through Plan.Decode, on both time bases, and checks the 16-byte
// budget (columns sized exactly from the index).
func TestExtractSeriesMatchesIterator(t *testing.T) {
	b := openBag(t, multichunk)
	var cache rosmsg.Cache
	refs := []FieldRef{{"/imu", "linear_acceleration.x"}, {"/scan", "ranges[5]"}, {"/imu", LatencyPath}, {"/odom", "twist.twist.angular.z"}}
	for _, base := range []TimeBase{ReceiveTime, HeaderStamp} {
		t.Run(base.String(), func(t *testing.T) {
			set, err := Extract(context.Background(), b, &cache, Request{Fields: refs, Base: base}, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range set.Series {
				if cap(s.T) != len(s.T) || cap(s.V) != len(s.V) {
					t.Errorf("%s: cap %d/%d for %d points", s.Name, cap(s.T), cap(s.V), len(s.T))
				}
				want := decodeAll(t, b, &cache, s.Ref, base)
				if len(want) != len(s.T) {
					t.Fatalf("%s: %d points, want %d", s.Name, len(s.T), len(want))
				}
				for i, w := range want {
					if s.T[i] != w.t || math.Float64bits(s.V[i]) != math.Float64bits(w.v) {
						t.Fatalf("%s point %d: (%d, %v), want (%d, %v)", s.Name, i, s.T[i], s.V[i], w.t, w.v)
					}
				}
			}
		})
	}
}

type point struct {
	t int64
	v float64
}

// decodeAll reads ref the slow way: Plan.Decode and the node tree.
func decodeAll(t *testing.T, b bag.Storage, cache *rosmsg.Cache, ref FieldRef, base TimeBase) []point {
	it := b.Messages(bag.MessageFilter{Topics: []string{ref.Topic}})
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
		stamp := n.Field("header").Field("stamp").Time()
		st := int64(stamp.Sec)*1e9 + int64(stamp.Nsec)
		var v float64
		if ref.IsLatency() {
			v = float64(st-m.Time.Nanos()) / 1e9
		} else {
			node := n
			for _, part := range strings.Split(ref.Path, ".") {
				name, idx, ok := strings.Cut(part, "[")
				node = node.Field(name)
				if ok {
					var i int
					fmt.Sscanf(idx, "%d]", &i)
					e, _ := node.Elem(i)
					node = &e
				}
			}
			v, _ = node.Float64()
		}
		tt := m.Time.Nanos()
		if base == HeaderStamp {
			tt = st
		}
		out = append(out, point{tt, v})
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	slices.SortStableFunc(out, func(a, b point) int {
		if a.t < b.t {
			return -1
		}
		if a.t > b.t {
			return 1
		}
		return 0
	})
	return out
}

func TestExtractSeriesProgressAndCancel(t *testing.T) {
	b := openBag(t, multichunk)
	var cache rosmsg.Cache
	req := Request{Fields: []FieldRef{{"/imu", "linear_acceleration.x"}}}
	var last [2]int64
	set, err := Extract(context.Background(), b, &cache, req, func(done, total int64, stage string) {
		last = [2]int64{done, total}
	})
	if err != nil {
		t.Fatal(err)
	}
	if last != [2]int64{150, 150} || set.Messages != 150 {
		t.Errorf("final progress %v, messages %d; want 150 of 150", last, set.Messages)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// The cancel check runs every 1024 messages: use a bag with more.
	big := "../../../shared/bags/cra-ros-pkg__robot_localization/test/test2.bag"
	bb, err := ros1.OpenOrScan(big)
	if err != nil {
		t.Skip(err)
	}
	defer bb.Close()
	_, err = Extract(ctx, ros1.NewStore(bb), &cache, Request{Fields: []FieldRef{{"/imu/data", "linear_acceleration.x"}}}, nil)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// TestLocate checks that every point finds its own message again, with and
// without the kept index, on both time bases, including equal times.
func TestLocate(t *testing.T) {
	for _, path := range []string{multichunk, "../../testdata/two-conns-one-topic.bag"} {
		b := openBag(t, path)
		var cache rosmsg.Cache
		refs := []FieldRef{{"/imu", "angular_velocity.y"}, {"/tf", "transforms[0].transform.translation.x"}}
		if strings.Contains(path, "two-conns") {
			refs = []FieldRef{{"/chatter", "data"}}
		}
		for _, base := range []TimeBase{ReceiveTime, HeaderStamp} {
			if base == HeaderStamp && refs[0].Topic != "/imu" {
				continue
			}
			if base == HeaderStamp {
				refs = refs[:1]
			}
			t.Run(fmt.Sprintf("%s/%s", path, base), func(t *testing.T) {
				ctx := context.Background()
				withIdx, err := Extract(ctx, b, &cache, Request{Fields: refs, Base: base, KeepIndex: true}, nil)
				if err != nil {
					t.Fatal(err)
				}
				without, err := Extract(ctx, b, &cache, Request{Fields: refs, Base: base}, nil)
				if err != nil {
					t.Fatal(err)
				}
				for k, s := range without.Series {
					if s.Loc != nil {
						t.Fatal("Loc kept without KeepIndex")
					}
					for i := range s.T {
						got, err := s.Locate(ctx, b, i)
						if err != nil {
							t.Fatalf("%s point %d: %v", s.Name, i, err)
						}
						if want := withIdx.Series[k].Loc[i]; got != want {
							t.Fatalf("%s point %d: %+v, want %+v", s.Name, i, got, want)
						}
					}
				}
			})
		}
	}
}
