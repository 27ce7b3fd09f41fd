package series

import (
	"context"
	"math"
	"testing"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// TestExtractSeriesCompact checks a compact extraction against the plain
// one it replaces: the same series, every time and value bit pattern, the
// same missing counts, and Locate finding the same messages; times in C
// only, values sized no larger.
func TestExtractSeriesCompact(t *testing.T) {
	tests := []struct {
		name  string
		bag   string
		refs  []FieldRef
		stamp bool // the topics have a header.stamp
	}{
		{"fixed fields and latency", multichunk, []FieldRef{{"/imu", "linear_acceleration.x"}, {"/scan", "ranges[5]"}, {"/imu", LatencyPath}, {"/odom", "twist.twist.angular.z"}}, true},
		{"elements of [*]", multichunk, []FieldRef{{"/scan", "ranges[*]"}}, true},
		{"elements of [*], no stamp", multichunk, []FieldRef{{"/tf", "transforms[*].transform.translation.x"}}, false},
		{"two connections, one topic", "../../testdata/two-conns-one-topic.bag", []FieldRef{{"/chatter", "data"}}, false},
	}
	ctx := context.Background()
	for _, tt := range tests {
		b := openBag(t, tt.bag)
		var cache rosmsg.Cache
		for _, base := range []TimeBase{ReceiveTime, HeaderStamp} {
			if base == HeaderStamp && !tt.stamp {
				continue
			}
			t.Run(tt.name+"/"+base.String(), func(t *testing.T) {
				plain, err := Extract(ctx, b, &cache, Request{Fields: tt.refs, Base: base, KeepIndex: true}, nil)
				if err != nil {
					t.Fatal(err)
				}
				comp, err := Extract(ctx, b, &cache, Request{Fields: tt.refs, Base: base, Compact: true}, nil)
				if err != nil {
					t.Fatal(err)
				}
				if len(comp.Series) != len(plain.Series) {
					t.Fatalf("%d series, want %d", len(comp.Series), len(plain.Series))
				}
				for k, p := range plain.Series {
					c := comp.Series[k]
					if c.Name != p.Name || c.Missing != p.Missing {
						t.Fatalf("series %d: %s missing %d, want %s missing %d", k, c.Name, c.Missing, p.Name, p.Missing)
					}
					if c.T != nil || c.C == nil || c.tb != nil {
						t.Fatalf("%s: T %v, C %v: want times in C only", c.Name, c.T != nil, c.C != nil)
					}
					if c.Len() != len(p.T) || len(c.V) != len(p.V) || cap(c.V) > cap(p.V) {
						t.Fatalf("%s: %d points (V %d, cap %d), want %d", c.Name, c.Len(), len(c.V), cap(c.V), len(p.T))
					}
					for i := range p.T {
						if c.Time(i) != p.T[i] || math.Float64bits(c.V[i]) != math.Float64bits(p.V[i]) {
							t.Fatalf("%s point %d: (%d, %v), want (%d, %v)", c.Name, i, c.Time(i), c.V[i], p.T[i], p.V[i])
						}
					}
					for i := 0; i < len(p.T); i += 1 + len(p.T)/20 {
						got, err := c.Locate(ctx, b, i)
						if err != nil {
							t.Fatalf("%s point %d: %v", c.Name, i, err)
						}
						if want := p.Loc[i]; got != want {
							t.Fatalf("%s point %d: Locate %+v, want %+v", c.Name, i, got, want)
						}
					}
				}
			})
		}
	}
}
