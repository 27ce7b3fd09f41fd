package human

import (
	"testing"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/ros1"
)

func TestFormat(t *testing.T) {
	tests := []struct{ got, want string }{
		{Size(0), "0 B"},
		{Size(1023), "1023 B"},
		{Size(1024), "1.0 KiB"},
		{Size(1536), "1.5 KiB"},
		{Size(10188), "9.9 KiB"},
		{Size(10189), "10 KiB"}, // 9.95 KiB: "10", not "10.0"
		{Size(695357), "679 KiB"},
		{Size(1048063), "1023 KiB"},
		{Size(1048064), "1.0 MiB"}, // 1023.5 KiB: never "1024 KiB"
		{Size(379 << 20), "379 MiB"},
		{Size(5 << 30), "5.0 GiB"},
		{Size(3 << 40), "3.0 TiB"},
		{Size(5000 << 40), "5000 TiB"},
		{Size(-2048), "-2.0 KiB"},
		{Count(0), "0"},
		{Count(999), "999"},
		{Count(1000), "1,000"},
		{Count(1234567), "1,234,567"},
		{Frequency(0), "–"},
		{Frequency(0.5), "0.50"},
		{Frequency(29.97), "30.0"},
		{Frequency(200.44), "200.4"}, {Frequency(2), "2.0"},
		{Duration(12.34), "12.3s"},
		{Duration(205), "3:25s (205s)"},
		{Duration(137.9), "2:17s (137s)"}, // rosbag info truncates; 2:18 would round
		{Duration(3725.99), "1hr 2:05s (3725s)"},
		{Duration(59.96), "60.0s"},
		{Span(0), "0 s"},
		{Span(45 * 60e9), "45 min"},
		{Span(150 * 60e9), "2 h 30 min"},
		{Span(30 * 3600e9), "1 d 6 h"},
		{Span(6 * 86400e9), "6 d"},
		{Span(90e9), "1 min 30 s"},
		{Span(-43200e9), "-12 h"},
		{Span(61_500_000_000), "1 min 1.5 s"},
		{Seconds(4_989_999_999, 3), "4.989"},
		{Seconds(-1_500_000_000, 1), "-1.5"},
		{Seconds(-400_000, 3), "0.000"},
		{Seconds(12, 0), "0"},
		{RelTime(4_989_999_999), "+4.989 s"},
		{RelTime(4_990_000_000), "+4.990 s"},
		{RelTime(-250_000_000), "-0.250 s"},
		{RelTimeN(1_234_567_891, 6), "+1.234567 s"},
		{Plural(1, "message"), "1 message"},
		{Plural(0, "message"), "0 messages"},
		{Plural(12345, "record"), "12,345 records"},
		{Plural(3, "closed chunk"), "3 closed chunks"},
		{Plural(2, "series"), "2 series"},
		{Time(ros1.Time{Sec: 1700000000, NSec: 123456789}), "2023-11-14 22:13:20.123"},
		{Compression(&bag.Summary{}), "no chunks"},
		{ScanSummary(&ros1.ScanReport{Reason: ros1.ErrUnindexed, ParsedTo: 9988, Size: 9988, ClosedChunks: 1}), "Read without its index: parsed to byte 9,988 of 9,988, 1 closed chunk."},
		{ScanSummary(&ros1.ScanReport{Reason: ros1.ErrTruncated, ParsedTo: 5000, Size: 6000, Open: &ros1.OpenChunk{Messages: 12}, Skipped: []ros1.ByteRange{{Start: 10, End: 2058}}, LostMessages: 3}),
			"Read without its index: parsed to byte 5,000 of 6,000, 0 closed chunks, the open chunk with 12 messages salvaged."},
		{Compression(&bag.Summary{Chunks: 3, Compression: map[string]int{"lz4": 2, "none": 1}, CompressedBytes: 50, UncompressedBytes: 200}), "lz4 ×2, none ×1 (25% of 200 B)"},
	}
	for i, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%d: got %q, want %q", i, tt.got, tt.want)
		}
	}
}
