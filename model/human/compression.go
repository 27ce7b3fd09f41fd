package human

import (
	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosbag2"
)

// StorageCompression is Compression for the recording st: a rosbag2
// folder that rosbag2 compressed itself (its metadata.yaml's
// compression_format and compression_mode) says so, "zstd, per message"
// or "zstd, per file", since such a folder of .db3 files has no chunks;
// its chunks follow where its files have them (MCAP).
func StorageCompression(st bag.Storage, s *bag.Summary) string {
	b := rosbag2.Of(st)
	if b == nil || b.Metadata == nil || b.Metadata.CompressionFormat == "" {
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
