package cli

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosbag2"
	"github.com/bagscope/bagscope/model/services"
	"github.com/bagscope/bagscope/model/stats"
)

// ros2Indent is the width of `ros2 bag info`'s field column.
const ros2Indent = 19

// printROS2Info prints a ROS 2 recording (an MCAP file, a .db3, a rosbag2
// folder) in the layout of `ros2 bag info` (rosbag2_py's
// format_bag_meta_data): files, bag size in KiB/MiB, storage id, ROS
// distro, duration, start and end as local times with the exact
// nanoseconds, messages and one "Topic: | Type: | Count: | Serialization
// Format:" line per topic; then, in the same layout, what bagscope adds:
// compression, chunks, whether it is indexed and what a scan found.
func printROS2Info(w io.Writer, b bag.Storage, s *bag.Summary, set *stats.Set, svc *services.Report) {
	fi := b.FileInfo()
	row := func(field, value string) {
		if field != "" {
			field += ":"
		}
		fmt.Fprintf(w, "%-*s%s\n", ros2Indent, field, value)
	}
	fmt.Fprintln(w)
	files, storage, distro := ros2Files(b, fi)
	for i, f := range files {
		row(label(i, "Files"), f)
	}
	if len(files) == 0 {
		row("Files", "")
	}
	row("Bag size", ros2Size(s.Size))
	row("Storage id", storage)
	row("ROS Distro", distro)
	dur := s.End.Nanos() - s.Start.Nanos()
	if s.Messages == 0 {
		dur = 0
	}
	row("Duration", fmt.Sprintf("%d.%09ds", dur/1e9, dur%1e9))
	row("Start", ros2Time(s.Start))
	row("End", ros2Time(s.End))
	row("Messages", fmt.Sprint(s.Messages))
	for i, t := range s.Topics {
		format := ""
		if len(t.Connections) > 0 {
			format = t.Connections[0].Encoding
		}
		typ := t.Type
		if len(t.Types) > 0 {
			typ = strings.Join(t.Types, ", ")
		}
		line := fmt.Sprintf("Topic: %s | Type: %s | Count: %d | Serialization Format: %s", t.Topic, typ, t.Messages, format)
		if st := set.Topic(t.Topic); set != nil && st != nil && st.HasRate {
			line += " | Rate: " + stats.RosbagFrequency(st.Rate)
		}
		row(label(i, "Topic information"), line)
	}
	if len(s.Topics) == 0 {
		row("Topic information", "")
	}
	if s.Chunks > 0 {
		row("Compression", compressionLine(s))
		if s.UncompressedBytes > 0 && s.CompressedBytes != s.UncompressedBytes {
			row("Uncompressed", ros2Size(int64(s.UncompressedBytes)))
			row("Compressed", fmt.Sprintf("%s (%.2f%%)", ros2Size(int64(s.CompressedBytes)), 100*float64(s.CompressedBytes)/float64(s.UncompressedBytes)))
		}
	}
	row("Chunks", fmt.Sprint(s.Chunks))
	row("Indexed", yesNo(s.Indexed))
	if svc != nil {
		for i, sv := range svc.Services {
			row(label(i, "Services"), serviceLine(sv))
		}
		for i, a := range svc.Actions {
			row(label(i, "Actions"), actionLine(a))
		}
	}
	if st, ok := fetched(); ok {
		row("Fetched", fetchedText(st))
	}
	if sc := fi.Scanned; sc != nil {
		for i, r := range scanRows(sc, s.Size) {
			row(label(i, "Scanned"), r.value)
		}
	}
}

// ros2Files names the recording's files as ros2 bag info does (relative
// to the folder), its storage id and the ROS distribution that wrote it
// ("unknown" when it does not say).
func ros2Files(b bag.Storage, fi *bag.FileInfo) (files []string, storage, distro string) {
	distro = "unknown"
	if rb := rosbag2.Of(b); rb != nil {
		for _, f := range rb.Files {
			if rel, err := filepath.Rel(rb.Dir, f); err == nil {
				f = rel
			}
			files = append(files, f)
		}
		if m := rb.Metadata; m != nil {
			storage = m.StorageIdentifier
			if m.ROSDistro != "" {
				distro = m.ROSDistro
			}
		}
	} else {
		files = []string{filepath.Base(fi.Path)}
	}
	if storage == "" {
		storage = "mcap"
		if len(files) > 0 && strings.Contains(files[0], ".db3") || strings.HasPrefix(fi.Format, "SQLite") || strings.Contains(fi.Format, "sqlite") {
			storage = "sqlite3"
		}
	}
	return files, storage, distro
}

// ros2Time is a time as ros2 bag info prints it: "Nov 14 2023
// 22:13:20.123456789 (1700000000.123456789)", local time.
func ros2Time(t bag.Time) string {
	return fmt.Sprintf("%s.%09d (%d.%09d)", time.Unix(int64(t.Sec), 0).Format("Jan _2 2006 15:04:05"), t.NSec, t.Sec, t.NSec)
}

// ros2Size is rosbag2's format_file_size: B, KiB, MiB, GiB, TiB, one
// decimal from KiB.
func ros2Size(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	size := float64(n)
	i := 0
	for size >= 1024 && i < len(units)-1 {
		size /= 1024
		i++
	}
	if i == 0 {
		return fmt.Sprintf("%.0f %s", size, units[i])
	}
	return fmt.Sprintf("%.1f %s", size, units[i])
}
