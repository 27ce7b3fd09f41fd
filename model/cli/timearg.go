package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag"
)

// parseTimeArg reads a --start/--end value: seconds since the epoch
// ("1700000000.5", exact to the nanosecond) or an offset from the bag's
// start ("+12.5"). An empty string gives the zero time (no bound).
func parseTimeArg(s string, bagStart bag.Time) (bag.Time, error) {
	if s == "" {
		return bag.Time{}, nil
	}
	bad := fmt.Errorf("bad time %q: want seconds since the epoch (1700000000.5) or an offset from the bag's start (+12.5)", s)
	rel := strings.HasPrefix(s, "+")
	intPart, frac, _ := strings.Cut(strings.TrimPrefix(s, "+"), ".")
	if intPart == "" && frac == "" {
		return bag.Time{}, bad
	}
	secs := uint64(0)
	if intPart != "" {
		v, err := strconv.ParseUint(intPart, 10, 32)
		if err != nil {
			return bag.Time{}, bad
		}
		secs = v
	}
	var nsecs uint64
	if frac != "" {
		if len(frac) > 9 {
			frac = frac[:9]
		}
		v, err := strconv.ParseUint(frac, 10, 32)
		if err != nil {
			return bag.Time{}, bad
		}
		nsecs = v * uint64(math.Pow10(9-len(frac)))
	}
	ns := int64(secs)*1e9 + int64(nsecs)
	if rel {
		ns += bagStart.Nanos()
	}
	if ns/1e9 > math.MaxUint32 {
		return bag.Time{}, fmt.Errorf("time %q is out of range", s)
	}
	return bag.TimeFromNanos(ns), nil
}
