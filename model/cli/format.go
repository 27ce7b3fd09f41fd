package cli

import (
	"fmt"
	"time"

	"github.com/bagscope/bagscope/bag"
)

// humanSize formats n bytes as rosbag does (1024-based, one decimal).
func humanSize(n float64) string {
	units := []string{"B", "KB", "MB", "GB", "TB"}
	i := 0
	for n >= 1024 && i < len(units)-1 {
		n /= 1024
		i++
	}
	return fmt.Sprintf("%.1f %s", n, units[i])
}

// humanDuration formats seconds as rosbag info does: "9.6s", "1:01s (61s)",
// "1:02:03s (3723s)".
func humanDuration(s float64) string {
	if s < 60 && s > -60 {
		return fmt.Sprintf("%.1fs", s)
	}
	total := int64(s + 0.5)
	h, m, sec := total/3600, (total%3600)/60, total%60
	if h > 0 {
		return fmt.Sprintf("%d:%02d:%02ds (%ds)", h, m, sec, total)
	}
	return fmt.Sprintf("%d:%02ds (%ds)", m, sec, total)
}

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
