package human

import (
	"strings"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosbag2"
)

// StorageCompression is Compression for the recording st: a rosbag2
// folder that rosbag2 compressed itself (its metadata.yaml's
// compression_format and compression_mode) says so, "zstd, per message"
// or "zstd, per file", since such a folder of .db3 files has no chunks;
// its chunks follow where its files have them (MCAP). SQLite storage
// that rosbag2 did not compress says "none": it has no chunks to count.
func StorageCompression(st bag.Storage, s *bag.Summary) string {
	b := rosbag2.Of(st)
	if b == nil || b.Metadata == nil || b.Metadata.CompressionFormat == "" {
		if s.Chunks == 0 && isSQLite(s) {
			return "none"
		}
		return Compression(s)
	}
	out := b.Metadata.CompressionFormat
	switch b.Metadata.CompressionMode {
	case "MESSAGE":
		out += ", per message"
	case "FILE", "":
		out += ", per file"
	default:
		out += ", " + b.Metadata.CompressionMode
	}
	if s.Chunks > 0 {
		out += "; chunks " + Compression(s)
	}
	return out
}

// StorageUnits is the figure of what a recording is stored in, for the
// window's header: its chunks ("Chunks", "47"), or for rosbag2's SQLite
// storage, which has none, its files ("Files", "5"; 1 for a lone .db3).
func StorageUnits(st bag.Storage, s *bag.Summary) (caption, value string) {
	if s.Chunks == 0 && isSQLite(s) {
		n := 1
		if b := rosbag2.Of(st); b != nil && len(b.Files) > 0 {
			n = len(b.Files)
		}
		return "Files", Count(uint64(n))
	}
	return "Chunks", Count(uint64(s.Chunks))
}

// isSQLite reports whether s describes rosbag2's SQLite storage: a .db3
// file, or a folder of them.
func isSQLite(s *bag.Summary) bool {
	f := strings.ToLower(s.Format)
	return strings.Contains(f, "sqlite")
}
