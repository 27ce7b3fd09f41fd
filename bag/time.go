package bag

import (
	"fmt"
	"time"
)

// Time is a recording's time: seconds and nanoseconds since the epoch. ROS 1
// stores it as two little-endian uint32; ROS 2 formats store nanoseconds,
// which TimeFromNanos converts.
type Time struct {
	Sec  uint32
	NSec uint32
}

// Key returns a value that orders times as (Sec, NSec) do.
func (t Time) Key() uint64 { return uint64(t.Sec)<<32 | uint64(t.NSec) }

// Before reports whether t is earlier than u.
func (t Time) Before(u Time) bool { return t.Key() < u.Key() }

// IsZero reports whether t is 0.0.
func (t Time) IsZero() bool { return t.Sec == 0 && t.NSec == 0 }

// Seconds returns t as floating-point seconds since the epoch.
func (t Time) Seconds() float64 { return float64(t.Sec) + float64(t.NSec)*1e-9 }

// Nanos returns t as nanoseconds since the epoch.
func (t Time) Nanos() int64 { return int64(t.Sec)*1e9 + int64(t.NSec) }

// Std converts t to a time.Time in UTC.
func (t Time) Std() time.Time { return time.Unix(int64(t.Sec), int64(t.NSec)).UTC() }

// String formats t as seconds with nine decimals, as ROS prints times.
func (t Time) String() string { return fmt.Sprintf("%d.%09d", t.Sec, t.NSec) }

// Sub returns t-u in seconds.
func (t Time) Sub(u Time) float64 { return float64(t.Nanos()-u.Nanos()) * 1e-9 }

// TimeFromNanos builds a Time from nanoseconds since the epoch; negative
// values clamp to zero and values past 2106 to the latest Time.
func TimeFromNanos(ns int64) Time {
	if ns < 0 {
		return Time{}
	}
	if ns/1e9 > int64(^uint32(0)) {
		return Time{Sec: ^uint32(0), NSec: 999999999}
	}
	return Time{Sec: uint32(ns / 1e9), NSec: uint32(ns % 1e9)}
}

// TimeFromUnixNanos builds a Time from an unsigned nanosecond count, as MCAP
// and rosbag2 store times.
func TimeFromUnixNanos(ns uint64) Time {
	if ns > 1<<63-1 {
		return TimeFromNanos(1<<63 - 1)
	}
	return TimeFromNanos(int64(ns))
}
