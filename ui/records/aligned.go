package records

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
)

// A record of an added recording (File › Add Recording…, its topics
// under B:) shows its file's bytes, so its times are its own; beside each
// time field a row gives that time on the window's timeline (its own plus
// the recording's offset), as the Message tab shows a message's both.

// OnTimeline names the row under a time field that gives the time on the
// window's timeline (the name column is narrow: the arrow says which field
// it is of).
const OnTimeline = "↳ on timeline"

// alignedFields returns fields with, after each time field (a ROS 1
// "time", an MCAP "timestamp"), the time on the window's timeline: own
// plus shift, of the recording prefix ("B:").
func alignedFields(fields []bag.RecordField, prefix string, shift int64) []bag.RecordField {
	out := make([]bag.RecordField, 0, len(fields)+2)
	for _, f := range fields {
		out = append(out, f)
		own, ok := fieldTime(f)
		if !ok {
			continue
		}
		t := bag.TimeFromNanos(own + shift)
		out = append(out, bag.RecordField{
			Name:  OnTimeline,
			Value: fmt.Sprintf("%s (%s UTC): %s's own %+.3f s", t, human.Time(t), strings.TrimSuffix(prefix, ":"), float64(shift)/1e9),
			Start: f.Start, End: f.End, Prefix: f.Prefix,
		})
	}
	return out
}

// fieldTime reads a time field's value as the listers write it: ROS 1's
// "SEC.NSEC (date)", MCAP's "NANOS (SEC.NSEC)".
func fieldTime(f bag.RecordField) (int64, bool) {
	if f.Type != "time" && f.Type != "timestamp" {
		return 0, false
	}
	v, _, _ := strings.Cut(f.Value, " ")
	if sec, nsec, dotted := strings.Cut(v, "."); dotted {
		s, err1 := strconv.ParseInt(sec, 10, 64)
		n, err2 := strconv.ParseInt(nsec, 10, 64)
		if err1 != nil || err2 != nil || len(nsec) != 9 {
			return 0, false
		}
		return s*1_000_000_000 + n, true
	}
	n, err := strconv.ParseUint(v, 10, 64)
	if err != nil || n > 1<<63-1 {
		return 0, false
	}
	return int64(n), true
}
