package series

import (
	"context"
	"math"
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
)

// checkReduced checks a reduced series against the whole one read from the
// same messages: it counts every point, keeps only real points in their
// order, and keeps of each bucket the first and last point, the lowest and
// highest value and a gap where the bucket has one.
func checkReduced(t *testing.T, red, whole *Series, maxPoints int) {
	t.Helper()
	if !red.Reduced() {
		t.Fatalf("%s: not reduced (%d points, MaxPoints %d)", red.Name, whole.Len(), maxPoints)
	}
	if red.Points != whole.Len() {
		t.Errorf("%s: Points %d, the whole series has %d", red.Name, red.Points, whole.Len())
	}
	if red.Len() > maxPoints/pointsPerBucket*(pointsPerBucket+1) || red.Len() >= whole.Len() {
		t.Errorf("%s: keeps %d of %d points for MaxPoints %d", red.Name, red.Len(), whole.Len(), maxPoints)
	}
	spec := reduction{t0: red.From, width: red.Bucket, buckets: int64(max(1, maxPoints/pointsPerBucket))}
	type agg struct {
		first, last, lo, hi int // indexes into whole
		gap                 bool
		kept                []int
		keptGap             bool
	}
	buckets := map[int64]*agg{}
	for i := 0; i < whole.Len(); i++ {
		b := spec.bucket(whole.Time(i))
		a := buckets[b]
		if a == nil {
			a = &agg{first: -1, lo: -1, hi: -1}
			buckets[b] = a
		}
		v := whole.V[i]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			a.gap = true
			continue
		}
		if a.first < 0 {
			a.first, a.lo, a.hi = i, i, i
		}
		if v < whole.V[a.lo] {
			a.lo = i
		}
		if v > whole.V[a.hi] {
			a.hi = i
		}
		a.last = i
	}
	// Each kept point is the next matching point of the whole series.
	j := 0
	for i := 0; i < red.Len(); i++ {
		tt, v := red.Time(i), red.V[i]
		for j < whole.Len() && !(whole.Time(j) == tt && (whole.V[j] == v || math.IsNaN(v) && math.IsNaN(whole.V[j]))) {
			j++
		}
		if j == whole.Len() {
			t.Fatalf("%s: kept point %d (%d, %g) is not a point of the series after the previous one", red.Name, i, tt, v)
		}
		a := buckets[spec.bucket(tt)]
		a.kept = append(a.kept, j)
		if math.IsNaN(v) || math.IsInf(v, 0) {
			a.keptGap = true
		}
		j++
	}
	has := func(list []int, i int) bool {
		for _, k := range list {
			if k == i {
				return true
			}
		}
		return false
	}
	for b, a := range buckets {
		if a.gap != a.keptGap {
			t.Errorf("%s: bucket %d has a gap %v, kept one %v", red.Name, b, a.gap, a.keptGap)
		}
		if a.first < 0 {
			continue
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, k := range a.kept {
			if v := whole.V[k]; !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		if !has(a.kept, a.first) || !has(a.kept, a.last) || lo != whole.V[a.lo] || hi != whole.V[a.hi] {
			t.Errorf("%s: bucket %d keeps %v; want the first %d, the last %d, the lowest %g and the highest %g (kept %g..%g)",
				red.Name, b, a.kept, a.first, a.last, whole.V[a.lo], whole.V[a.hi], lo, hi)
		}
	}
}

// TestExtractReduced reads fields of robot.bag whole and reduced to a few
// buckets, over the bag and over a window, and checks the reduction point
// by point against the whole series.
func TestExtractReduced(t *testing.T) {
	b := openBag(t, "../../testdata/robot.bag")
	start, end := timeRange(b)
	mid := bag.TimeFromNanos((start.Nanos() + end.Nanos()) / 2)
	tests := []struct {
		name       string
		fields     []string
		maxPoints  int
		start, end bag.Time
	}{
		{"fixed fields of one topic", []string{"/odom.pose.pose.position.x", "/odom.twist.twist.angular.z"}, 40, bag.Time{}, bag.Time{}},
		{"elements by name", []string{"/joint_states.position[*]"}, 64, bag.Time{}, bag.Time{}},
		{"laser ranges with gaps", []string{"/scan.ranges[*]"}, 16, bag.Time{}, bag.Time{}},
		{"one bucket", []string{"/tf.transforms[0].transform.translation.x"}, 4, bag.Time{}, bag.Time{}},
		{"a window", []string{"/odom.pose.pose.position.y"}, 20, mid, end},
		{"latency", []string{"/odom.@latency"}, 12, bag.Time{}, bag.Time{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var refs []FieldRef
			for _, f := range tc.fields {
				r, err := ParseFieldRef(f, Topics(b))
				if err != nil {
					t.Fatal(err)
				}
				refs = append(refs, r)
			}
			read := func(maxPoints int, compact bool) *Set {
				set, err := Extract(context.Background(), b, &rosmsg.Cache{}, Request{Fields: refs, Start: tc.start, End: tc.end, MaxPoints: maxPoints, Compact: compact}, nil)
				if err != nil {
					t.Fatal(err)
				}
				return set
			}
			whole := read(0, false)
			for _, compact := range []bool{false, true} {
				red := read(tc.maxPoints, compact)
				if len(red.Series) != len(whole.Series) || len(red.Series) == 0 {
					t.Fatalf("%d series reduced, %d whole", len(red.Series), len(whole.Series))
				}
				for i, s := range red.Series {
					if s.Name != whole.Series[i].Name {
						t.Fatalf("series %d: %s reduced, %s whole", i, s.Name, whole.Series[i].Name)
					}
					checkReduced(t, s, whole.Series[i], tc.maxPoints)
				}
			}
		})
	}
}

// TestExtractNotReduced: a series with no more points than MaxPoints, on
// the stamp time base, or listed in Whole is read whole.
func TestExtractNotReduced(t *testing.T) {
	b := openBag(t, "../../testdata/robot.bag")
	ref := FieldRef{Topic: "/odom", Path: "pose.pose.position.x"} // 200 messages
	tests := []struct {
		name string
		req  Request
	}{
		{"under the bound", Request{MaxPoints: 200}},
		{"stamp time base", Request{MaxPoints: 8, Base: HeaderStamp}},
		{"whole", Request{MaxPoints: 8, Whole: []bool{true}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.req.Fields = []FieldRef{ref}
			set, err := Extract(context.Background(), b, &rosmsg.Cache{}, tc.req, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := set.Series[0]
			if s.Reduced() || s.Len() != 200 || s.Points != 200 {
				t.Errorf("reduced %v, %d points kept, Points %d; want all 200", s.Reduced(), s.Len(), s.Points)
			}
		})
	}
}

// TestExtractReducedElements: the 180 ranges of robot.bag's /scan (100
// messages) share MaxPoints 1024, so each keeps at most 1024/32 = 32
// points in 8 buckets (MaxPoints/elements is less than the floor of
// MaxPoints/32), checked against the whole series; with a bound above all
// the points, nothing is reduced.
func TestExtractReducedElements(t *testing.T) {
	b := openBag(t, "../../testdata/robot.bag")
	ref := FieldRef{Topic: "/scan", Path: "ranges[*]"}
	read := func(maxPoints int) *Set {
		set, err := Extract(context.Background(), b, &rosmsg.Cache{}, Request{Fields: []FieldRef{ref}, MaxPoints: maxPoints, Compact: true}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return set
	}
	whole, red := read(0), read(1024)
	if len(whole.Series) != 180 || len(red.Series) != 180 {
		t.Fatalf("%d series whole, %d reduced; want 180", len(whole.Series), len(red.Series))
	}
	kept := 0
	for i, s := range red.Series {
		checkReduced(t, s, whole.Series[i], 32)
		kept += s.Len()
	}
	if kept > 180*(32/pointsPerBucket*(pointsPerBucket+1)+1) {
		t.Errorf("the 180 series keep %d points", kept)
	}
	for _, s := range read(180 * 101).Series {
		if s.Reduced() || s.Len() != 100 {
			t.Fatalf("%s: reduced %v, %d points, under a bound above all 18,000", s.Name, s.Reduced(), s.Len())
		}
	}
}
