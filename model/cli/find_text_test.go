package cli

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/bag"
)

// TestHitTextNumbersAsFmt: find writes every hit's time and seconds from
// the start without fmt (appendTime, appendSeconds); they must read as
// bag.Time.String and the fmt formula secondsText had: %d.%09d, the
// fraction's trailing zeros and a bare point dropped.
func TestHitTextNumbersAsFmt(t *testing.T) {
	want := func(ns int64) string {
		sign := ""
		u := uint64(ns)
		if ns < 0 {
			sign, u = "-", -u
		}
		s := fmt.Sprintf("%s%d.%09d", sign, u/1e9, u%1e9)
		return strings.TrimSuffix(strings.TrimRight(s, "0"), ".")
	}
	for _, ns := range []int64{0, 1, 10, 100, 999_999_999, 1e9, 10e9, 1_500_000_000, 1_000_000_001, 123_456_789_012,
		-1, -10, -1e9, -1_500_000_000, -123_456_789_012, math.MaxInt64, math.MinInt64 + 1} {
		if got := secondsText(ns); got != want(ns) {
			t.Errorf("secondsText(%d) = %q, want %q", ns, got, want(ns))
		}
	}
	for _, tm := range []bag.Time{{}, {Sec: 1}, {NSec: 1}, {Sec: 1700000000, NSec: 5}, {Sec: ^uint32(0), NSec: 999_999_999}, {Sec: 12, NSec: 340_000_000}} {
		if got := string(appendTime([]byte("x"), tm)); got != "x"+tm.String() {
			t.Errorf("appendTime(%v) = %q, want %q", tm, got, "x"+tm.String())
		}
	}
}
