package cli

import (
	"fmt"
	"time"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
)

// humanSize is human.Size, in KiB, MiB and GiB: the window says every
// size the same way (rosbag info's own output keeps rosbag's units, see
// rosbagSize).
func humanSize(n float64) string { return human.Size(int64(n)) }

// humanDuration is human.Duration, as rosbag info writes durations: "9.6s",
// "1:01s (61s)", "1hr 2:03s (3723s)", the seconds truncated as its %d
// does. The window's header says the same.
func humanDuration(s float64) string { return human.Duration(s) }

// humanTime formats a ROS time as a date and as seconds.
func humanTime(t bag.Time) string {
	d := time.Unix(int64(t.Sec), int64(t.NSec)).UTC()
	return fmt.Sprintf("%s.%02d UTC (%d.%09d)", d.Format("Jan 02 2006 15:04:05"), t.NSec/1e7, t.Sec, t.NSec)
}

// timeJSON is a time in every command's --json: {"secs", "nsecs"} as ROS
// writes it, and "ns", the nanoseconds since the epoch.
type timeJSON struct {
	Secs  uint32 `json:"secs"`
	NSecs uint32 `json:"nsecs"`
	NS    int64  `json:"ns"`
}

func toTimeJSON(t bag.Time) timeJSON { return timeJSON{t.Sec, t.NSec, t.Nanos()} }
