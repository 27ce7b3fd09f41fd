package ros1

import "github.com/bagscope/bagscope/bag"

// Time is a ROS time: seconds and nanoseconds, each a little-endian uint32
// in the file. It is the seam's time.
type Time = bag.Time

// TimeFromNanos builds a Time from nanoseconds since the epoch; negative
// values clamp to zero.
func TimeFromNanos(ns int64) Time { return bag.TimeFromNanos(ns) }

// ParseTimeBytes reads a time from 8 little-endian bytes.
func parseTime(b []byte) Time {
	return Time{Sec: le32(b), NSec: le32(b[4:])}
}
