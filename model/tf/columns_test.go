package tf

import (
	"math"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// TestColumnsKeepEachBucketsExtremes gathers a made-up series (a sine in
// x, failed lookups in one stretch) with as many buckets as samples, where
// every sample is kept, and with few, where each bucket keeps its first,
// lowest, highest and last x and a failed lookup as a gap, and nothing
// else.
func TestColumnsKeepEachBucketsExtremes(t *testing.T) {
	const n, lo = 1000, int64(1e18)
	samples := make([]Sample, n)
	for i := range samples {
		s := Sample{At: bag.TimeFromNanos(lo + int64(i)*1e6)}
		if i >= 400 && i < 420 {
			s.Err = errNoLookup
		} else {
			s.Transform = Identity
			s.Transform.Translation[0] = math.Sin(float64(i) / 7)
		}
		samples[i] = s
	}
	hi := lo + int64(n-1)*1e6
	for _, buckets := range []int{n, 10} {
		c := NewColumns(lo, hi, buckets)
		for _, s := range samples {
			c.Add(s)
		}
		x := c.Series()[0]
		if c.Samples != n || c.Failed != 20 || x.Name != "x" {
			t.Fatalf("%d buckets: %d samples, %d failed, %q", buckets, c.Samples, c.Failed, x.Name)
		}
		if buckets == n {
			if len(x.T) != n {
				t.Fatalf("%d points of %d", len(x.T), n)
			}
			for i, s := range samples {
				want := s.Transform.Translation[0]
				if x.T[i] != s.At.Nanos() || (s.Err == nil && x.V[i] != want) || (s.Err != nil && !math.IsNaN(x.V[i])) {
					t.Fatalf("point %d: %d %g, the sample %v", i, x.T[i], x.V[i], s)
				}
			}
			continue
		}
		// Each bucket of 100 samples: its extremes are kept, every point
		// is a sample's, and at most 5 points.
		for b := 0; b < 10; b++ {
			t0, t1 := lo+int64(b*100)*1e6, lo+int64(b*100+99)*1e6
			lowest, highest, kept, gaps := math.Inf(1), math.Inf(-1), 0, 0
			for _, s := range samples[b*100 : b*100+100] {
				if s.Err == nil {
					lowest, highest = min(lowest, s.Transform.Translation[0]), max(highest, s.Transform.Translation[0])
				}
			}
			gotLo, gotHi := math.Inf(1), math.Inf(-1)
			for i, at := range x.T {
				if at < t0 || at > t1 {
					continue
				}
				kept++
				s := samples[(at-lo)/1e6]
				if math.IsNaN(x.V[i]) {
					gaps++
					continue
				}
				if s.Err != nil || s.Transform.Translation[0] != x.V[i] {
					t.Fatalf("bucket %d: point %d %g is no sample's", b, at, x.V[i])
				}
				gotLo, gotHi = min(gotLo, x.V[i]), max(gotHi, x.V[i])
			}
			if gotLo != lowest || gotHi != highest || kept > 5 || (b == 4) != (gaps == 1) {
				t.Errorf("bucket %d: %d points, %d gaps, range %g..%g, want %g..%g", b, kept, gaps, gotLo, gotHi, lowest, highest)
			}
		}
	}
}

var errNoLookup = errorString("no lookup")

type errorString string

func (e errorString) Error() string { return string(e) }
