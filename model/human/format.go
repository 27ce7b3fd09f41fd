// Package human writes counts, byte sizes, times, durations and summaries
// as people read them: "12,345", "1.4 MiB", "+4.989 s", "3 closed chunks".
package human

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
)

// Size formats a byte count for people, in binary units named as such
// (IEC): "1.4 MiB" is 1.4 × 1024² bytes. The window and the commands say
// every size with it; only the outputs that mimic rosbag's and ros2 bag's
// own (rosbag info's "KB" of 1024 bytes) keep their tool's units.
func Size(n int64) string {
	const unit = 1024
	if n < unit && n > -unit {
		return fmt.Sprintf("%d B", n)
	}
	f := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		f /= unit
		if math.Abs(f) < unit-0.5 || u == "TiB" { // 1023.7 KiB is 1.0 MiB
			if math.Abs(f) < 9.95 {
				return fmt.Sprintf("%.1f %s", f, u)
			}
			return fmt.Sprintf("%.0f %s", f, u)
		}
	}
	return ""
}

// Count formats a count with thousands separators: "12,345".
func Count(n uint64) string {
	s := strconv.FormatUint(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// Frequency formats messages per second; 0 shows as a dash.
func Frequency(hz float64) string {
	switch {
	case hz == 0 || math.IsNaN(hz):
		return "–"
	case hz >= 1:
		return fmt.Sprintf("%.1f", hz)
	default:
		return fmt.Sprintf("%.2f", hz)
	}
}

// Duration formats seconds as `rosbag info` does: "12.3s" under a minute,
// else "3:25s (205s)" or "1hr 2:05s (3725s)", truncating the seconds as
// its %d does (137.9 s is "2:17s (137s)", not 2:18).
func Duration(sec float64) string {
	if sec < 60 {
		return fmt.Sprintf("%.1fs", sec)
	}
	total := int64(sec) // Python's %d truncates
	h, m, s := total/3600, total/60%60, total%60
	if h > 0 {
		return fmt.Sprintf("%dhr %d:%02ds (%ds)", h, m, s, total)
	}
	return fmt.Sprintf("%d:%02ds (%ds)", m, s, total)
}

// Span formats a length of time in days, hours, minutes and seconds,
// leaving out the parts that are zero: "45 min", "2 h 30 min", "1 d 6 h",
// "1 min 30 s"; a negative one starts with "-", zero is "0 s". Axes label
// their ticks with it once the step is a minute or more, so a 6-day
// recording is read in days and hours, not in tens of thousands of
// seconds. Fractions of a second show as far as they go ("1 min 1.5 s").
func Span(ns int64) string {
	if ns == 0 {
		return "0 s"
	}
	sign := ""
	if ns < 0 {
		sign, ns = "-", -ns
	}
	const sec, mn, hr, day = int64(1e9), 60 * int64(1e9), 3600 * int64(1e9), 86400 * int64(1e9)
	var parts []string
	if d := ns / day; d > 0 {
		parts = append(parts, strconv.FormatInt(d, 10)+" d")
	}
	if h := ns % day / hr; h > 0 {
		parts = append(parts, strconv.FormatInt(h, 10)+" h")
	}
	if m := ns % hr / mn; m > 0 {
		parts = append(parts, strconv.FormatInt(m, 10)+" min")
	}
	if rest := ns % mn; rest > 0 {
		if rest%sec == 0 {
			parts = append(parts, strconv.FormatInt(rest/sec, 10)+" s")
		} else {
			parts = append(parts, strings.TrimRight(strings.TrimRight(Seconds(rest, 9), "0"), ".")+" s")
		}
	}
	return sign + strings.Join(parts, " ")
}

// Seconds formats ns as seconds with d decimals, truncated toward zero as
// the timeline's axis and `rosbag info` do: Seconds(4_989_999_999, 3) is
// "4.989". Every relative time goes through it, so one message never
// shows as both 4.989 and 4.990.
func Seconds(ns int64, d int) string {
	neg := ns < 0
	if neg {
		ns = -ns
	}
	s := strconv.FormatInt(ns/1e9, 10)
	if d > 0 {
		s += "." + fmt.Sprintf("%09d", ns%1e9)[:min(d, 9)]
	}
	if neg && strings.Trim(s, "0.") != "" {
		s = "-" + s
	}
	return s
}

// RelTime formats a time relative to the recording's start (ns after
// it) with milliseconds: "+4.989 s".
func RelTime(ns int64) string { return RelTimeN(ns, 3) }

// RelTimeN is RelTime with d decimals: RelTimeN(ns, 6) is "+4.989123 s".
func RelTimeN(ns int64, d int) string {
	s := Seconds(ns, d)
	if s[0] != '-' {
		s = "+" + s
	}
	return s + " s"
}

// Plural counts n of noun, with thousands separators and the noun's
// plural when n is not 1: "1 message", "2,345 messages", "0 series".
// Nouns of several words pluralise the last: "3 closed chunks".
func Plural(n uint64, noun string) string {
	if n != 1 && !strings.HasSuffix(noun, "s") {
		noun += "s"
	}
	return Count(n) + " " + noun
}

// Time formats a ROS time as a UTC date and time with milliseconds:
// "2023-11-14 22:13:20.123".
func Time(t bag.Time) string {
	return t.Std().Format("2006-01-02 15:04:05.000")
}

// Compression describes the chunks' compression: "lz4 (47 chunks, 38%)".
// The percentage is compressed size over uncompressed size.
func Compression(s *bag.Summary) string {
	if s.Chunks == 0 {
		return "no chunks"
	}
	names := s.CompressionNames()
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s ×%d", n, s.Compression[n])
	}
	out := strings.Join(parts, ", ")
	if s.UncompressedBytes > 0 && s.CompressedBytes != s.UncompressedBytes {
		out += fmt.Sprintf(" (%.0f%% of %s)", 100*float64(s.CompressedBytes)/float64(s.UncompressedBytes), Size(int64(s.UncompressedBytes)))
	}
	return out
}

// ScanSummary describes in one line how a bag that could not be read
// through its index was read instead: how far the scan parsed, its closed
// chunks and the open chunk's salvaged messages. r.Reason says why. What
// was lost (the bytes unreadable, the messages) is not said here: the
// damage's headline says it once, in the words every command uses.
func ScanSummary(r *ros1.ScanReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Read without its index: parsed to byte %s of %s, %s",
		Count(uint64(r.ParsedTo)), Count(uint64(r.Size)), Plural(uint64(r.ClosedChunks), "closed chunk"))
	if r.Open != nil {
		fmt.Fprintf(&b, ", the open chunk with %s salvaged", Plural(uint64(r.Open.Messages), "message"))
	}
	b.WriteString(".")
	return b.String()
}

// FixHint says how to save an indexed copy of a scanned bag.
const FixHint = "To save an indexed copy with every message that could be read: bagscope fix FILE OUT.bag"
