package expr

import (
	"fmt"
	"math"
	"testing"
)

// TestTimeTextAsFmt: a time or duration value's text (written for every
// find hit, without fmt) is seconds, a point and nine digits of
// nanoseconds, the nanoseconds in [0, 1e9) as %d.%09d writes them.
func TestTimeTextAsFmt(t *testing.T) {
	for _, ns := range []int64{0, 1, 5, 999_999_999, 1e9, 1_700_000_000_000_000_007, -1, -1e9, -1_500_000_000, math.MaxInt64, math.MinInt64} {
		s, n := ns/1e9, ns%1e9
		if n < 0 {
			s, n = s-1, n+1e9
		}
		want := fmt.Sprintf("%d.%09d", s, n)
		for _, k := range []ValueKind{Time, Duration} {
			if got := (Value{Kind: k, Int: ns}).String(); got != want {
				t.Errorf("%v %d: %q, want %q", k, ns, got, want)
			}
		}
	}
}
