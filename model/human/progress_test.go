package human

import (
	"testing"
	"time"
)

func TestProgress(t *testing.T) {
	for _, tc := range []struct {
		done, total int64
		unit        string
		elapsed     time.Duration
		want        string
	}{
		{0, 0, UnitChunks, 0, ""},
		{0, 0, UnitChunks, 3 * time.Second, ""},
		{12 << 20, 379 << 20, UnitBytes, 0, "12 MiB of 379 MiB (3%)"},
		{12 << 20, 379 << 20, UnitBytes, 2 * time.Second, "12 MiB of 379 MiB (3%), 6.0 MiB/s, about 1 min 2 s left"},
		{45, 90, UnitChunks, 3 * time.Second, "45 of 90 chunks (50%), 15 chunks/s, about 3 s left"},
		{1_200_000, 5_000_000, UnitMessages, 4 * time.Second, "1,200,000 of 5,000,000 messages (24%), 300,000 messages/s, about 13 s left"},
		{90, 90, UnitChunks, 3 * time.Second, "90 of 90 chunks (100%), 30 chunks/s"},
		{300, 0, UnitMessages, time.Second, "300 messages, 300 messages/s"},
		{3, 10, UnitFiles, 100 * time.Millisecond, "3 of 10 files (30%)"},
	} {
		if got := Progress(tc.done, tc.total, tc.unit, tc.elapsed); got != tc.want {
			t.Errorf("Progress(%d, %d, %s, %v) = %q, want %q", tc.done, tc.total, tc.unit, tc.elapsed, got, tc.want)
		}
	}
}

func TestLeft(t *testing.T) {
	for d, want := range map[time.Duration]string{
		100 * time.Millisecond: "1 s",
		59 * time.Second:       "59 s",
		130 * time.Second:      "2 min 10 s",
		12*time.Minute + 40e9:  "13 min",
		65 * time.Minute:       "1 h 5 min",
		2*time.Hour + 29*60e9:  "2 h 29 min",
	} {
		if got := Left(d); got != want {
			t.Errorf("Left(%v) = %q, want %q", d, got, want)
		}
	}
}
