package cli

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
	"github.com/bagscope/bagscope/model/stats"
)

// rosbagRow is one "field: value" row of `rosbag info`.
type rosbagRow struct{ field, value string }

// printRosbagInfo prints a ROS 1 bag's summary byte for byte as Debian's
// `rosbag info` (rosbag 1.15, Bag.__str__) does: its rows, its rounding
// (a truncated duration, sizes from KB, local times with two decimals),
// its compression ratio and rates, its padding; with set (--freq), each
// topic's rate. Start and end are the earliest and latest chunk times,
// where rosbag takes the first and last chunk's (the same for bags whose
// chunks are in time order). A bag read by scanning (rosbag refuses it)
// gets "indexed: no" and what the scan found after the compression rows.
func printRosbagInfo(w io.Writer, b bag.Storage, s *bag.Summary, set *stats.Set) {
	var rows []rosbagRow
	add := func(f, format string, args ...any) { rows = append(rows, rosbagRow{f, fmt.Sprintf(format, args...)}) }
	add("path", "%s", s.Path)
	add("version", "%s", s.Version)
	if s.Messages == 0 && s.Chunks == 0 {
		add("size", "%s", rosbagSize(float64(s.Size)))
	} else {
		start, end := rosbagSeconds(s.Start), rosbagSeconds(s.End)
		dur := end - start
		add("duration", "%s", rosbagDuration(dur))
		add("start", "%s (%.2f)", rosbagTime(start), start)
		add("end", "%s (%.2f)", rosbagTime(end), end)
		add("size", "%s", rosbagSize(float64(s.Size)))
		add("messages", "%d", s.Messages)
		rows = append(rows, rosbagCompression(b, s, dur)...)
	}
	if sc := b.FileInfo().Scanned; sc != nil {
		add("indexed", "no")
		rows = append(rows, scanRows(sc, s.Size)...)
	}
	if st, ok := fetched(); ok {
		// A remote bag: what reading it fetched (rosbag has no such row).
		add("fetched", "%s", fetchedText(st))
	}
	// Types: each type once (its first connection's md5sum), sorted.
	var types []bag.TypeSummary
	seen := map[string]bool{}
	width := 0
	for _, c := range b.Connections() {
		if !seen[c.Type] {
			seen[c.Type] = true
			types = append(types, bag.TypeSummary{Type: c.Type, MD5Sum: c.MD5Sum})
			width = max(width, len(c.Type))
		}
	}
	sort.Slice(types, func(i, j int) bool {
		if types[i].Type != types[j].Type {
			return types[i].Type < types[j].Type
		}
		return types[i].MD5Sum < types[j].MD5Sum
	})
	for i, t := range types {
		rows = append(rows, rosbagRow{label(i, "types"), fmt.Sprintf("%-*s [%s]", width, t.Type, t.MD5Sum)})
	}
	tw, cw := 0, 0
	for _, t := range s.Topics {
		tw = max(tw, len(t.Topic))
		cw = max(cw, len(fmt.Sprint(t.Messages)))
	}
	rates := rateColumn(s, set)
	for i, t := range s.Topics {
		unit := "msg "
		if t.Messages > 1 {
			unit = "msgs"
		}
		rate, ok := rates[t.Topic]
		if !ok {
			rate = "   "
		}
		v := fmt.Sprintf("%-*s   %*d %s%s : %-*s", tw, t.Topic, cw, t.Messages, unit, rate, width, t.Type)
		if n := len(t.Connections); n > 1 {
			v += fmt.Sprintf(" (%d connections)", n)
		}
		rows = append(rows, rosbagRow{label(i, "topics"), v})
	}
	first := 0
	for _, r := range rows {
		first = max(first, len(r.field))
	}
	first++
	var out strings.Builder
	for _, r := range rows {
		f := r.field
		if f != "" {
			f += ":"
		}
		fmt.Fprintf(&out, "%-*s %s\n", first, f, r.value)
	}
	fmt.Fprintln(w, strings.TrimRight(out.String(), " \n\t"))
}

// label is name for the first row of a list, "" for the others.
func label(i int, name string) string {
	if i == 0 {
		return name
	}
	return ""
}

// rosbagCompression is rosbag's compression rows: each compression with its
// chunk count (and ratio), most chunks first; with compressed chunks, the
// totals and their rates over the duration.
func rosbagCompression(b bag.Storage, s *bag.Summary, dur float64) []rosbagRow {
	if s.Chunks == 0 {
		return []rosbagRow{{"compression", "none"}}
	}
	type sizes struct{ compressed, uncompressed float64 }
	per := map[string]*sizes{}
	if rs, ok := bag.Underlying(b).(*ros1.Store); ok {
		for _, ci := range rs.Bag.ChunkInfos {
			if ch, err := rs.Bag.ChunkHeader(ci); err == nil {
				if per[ch.Compression] == nil {
					per[ch.Compression] = &sizes{}
				}
				per[ch.Compression].compressed += float64(ch.DataLen)
				per[ch.Compression].uncompressed += float64(ch.Size)
			}
		}
	}
	names := make([]string, 0, len(s.Compression))
	for n := range s.Compression {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := s.Compression[names[i]], s.Compression[names[j]]
		return a > b || a == b && names[i] > names[j]
	})
	var parts []string
	compressed := false
	for _, n := range names {
		if n == "none" {
			parts = append(parts, fmt.Sprintf("%s [%d/%d chunks]", n, s.Compression[n], s.Chunks))
			continue
		}
		compressed = true
		frac := math.NaN()
		if p := per[n]; p != nil && p.uncompressed > 0 {
			frac = 100 * p.compressed / p.uncompressed
		}
		parts = append(parts, fmt.Sprintf("%s [%d/%d chunks; %.2f%%]", n, s.Compression[n], s.Chunks, frac))
	}
	rows := []rosbagRow{{"compression", strings.Join(parts, ", ")}}
	if !compressed {
		return rows
	}
	u, c := float64(s.UncompressedBytes), float64(s.CompressedBytes)
	us, cs := rosbagSize(u), rosbagSize(c)
	sw := max(len(us), len(cs))
	if dur > 0 {
		ur, cr := rosbagSize(u/dur), rosbagSize(c/dur)
		rw := max(len(ur), len(cr))
		return append(rows,
			rosbagRow{"uncompressed", fmt.Sprintf("%*s @ %*s/s", sw, us, rw, ur)},
			rosbagRow{"compressed", fmt.Sprintf("%*s @ %*s/s (%.2f%%)", sw, cs, rw, cr, 100*c/u)})
	}
	return append(rows,
		rosbagRow{"uncompressed", fmt.Sprintf("%*s", sw, us)},
		rosbagRow{"compressed", fmt.Sprintf("%*s", sw, cs)})
}

// parsedWords says how far a scan got in one file, in that file's own
// offsets: "parsed to byte 5000 of 6000", or for a file of a folder
// "wbag_1.db3: parsed to byte 12288 of 90112".
func parsedWords(e bag.ScannedFile) string {
	s := fmt.Sprintf("parsed to byte %d of %d", e.ParsedTo, e.Size)
	if e.File != "" {
		s = e.File + ": " + s
	}
	return s
}

// knownLostWords says the messages a scan knows were lost, a floor, in
// the units the format lost them in: "at least 158 messages lost in
// unreadable pages" for a .db3 (which has no chunks), "... chunks" for a
// ROS 1 bag or an MCAP file. The lost ranges, said after, bound them.
func knownLostWords(r *bag.ScanInfo) string {
	var units []string
	for _, s := range r.Skipped {
		if u := string(s.Unit); u != "" && !slices.Contains(units, u+"s") {
			units = append(units, u+"s")
		}
	}
	if len(units) == 0 {
		units = []string{"parts of the file"}
	}
	return fmt.Sprintf("at least %d messages lost in unreadable %s", r.LostMessages, strings.Join(units, " and "))
}

// scanRows says what scanning an unindexed or damaged file found.
func scanRows(r *bag.ScanInfo, size int64) []rosbagRow {
	rows := []rosbagRow{{"scanned", r.Reason.Error()}}
	for _, e := range r.Extents(size) {
		rows = append(rows, rosbagRow{"", parsedWords(e)})
	}
	if r.LostMessages > 0 {
		rows = append(rows, rosbagRow{"", knownLostWords(r)})
	}
	for _, s := range r.Skipped {
		rows = append(rows, rosbagRow{"", fmt.Sprintf("skipped %s", s)})
	}
	for _, n := range r.Notes {
		rows = append(rows, rosbagRow{"", n})
	}
	return rows
}

// rosbagSeconds is genpy's Time.to_sec(): float(secs) + float(nsecs)/1e9.
func rosbagSeconds(t bag.Time) float64 { return float64(t.Sec) + float64(t.NSec)/1e9 }

// rosbagDuration is rosbag's duration: "9.6s", "2:52s (172s)", "1hr 2:03s
// (3723s)", the minutes and seconds truncated as Python's %d does.
func rosbagDuration(d float64) string {
	secs := math.Mod(d, 60)
	if secs < 0 {
		secs += 60
	}
	mins := math.Trunc(d / 60)
	hrs := math.Trunc(mins / 60)
	switch {
	case hrs > 0:
		return fmt.Sprintf("%dhr %d:%02ds (%ds)", int64(hrs), int64(math.Mod(mins, 60)), int64(secs), int64(d))
	case mins > 0:
		return fmt.Sprintf("%d:%02ds (%ds)", int64(mins), int64(secs), int64(d))
	}
	return fmt.Sprintf("%.1fs", d)
}

// rosbagTime is rosbag's _time_to_str: the local date and time, and the
// fraction of a second to two decimals as Python rounds it.
func rosbagTime(secs float64) string {
	frac := fmt.Sprintf("%.2f", secs-math.Trunc(secs))
	return time.Unix(int64(secs), 0).Format("Jan 02 2006 15:04:05") + frac[strings.IndexByte(frac, '.'):]
}

// rosbagSize is rosbag's _human_readable_size: from KB up, one decimal.
func rosbagSize(n float64) string {
	for _, u := range []string{"KB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"} {
		n /= 1024
		if n < 1024 {
			return fmt.Sprintf("%.1f %s", n, u)
		}
	}
	return "-"
}
