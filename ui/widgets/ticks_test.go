package widgets

import (
	"strings"
	"testing"
)

// TestAxisTicks checks tick steps and labels at several zooms, both ways.
func TestAxisTicks(t *testing.T) {
	const start = 1718000000_251000000 // 2024-06-10 06:13:20.251 UTC
	tests := []struct {
		name   string
		t0, t1 int64
		abs    bool
		max    int
		labels string
	}{
		{"whole bag, relative", start, start + 20e9, false, 6, "0 s 5 s 10 s 15 s 20 s"},
		{"whole bag, absolute", start, start + 20e9, true, 6, "06:13:25 06:13:30 06:13:35 06:13:40"},
		{"milliseconds, relative", start + 1_000_000_000, start + 1_004_000_000, false, 5, "1.000 s 1.001 s 1.002 s 1.003 s 1.004 s"},
		{"milliseconds, absolute", start + 1_000_000_000, start + 1_004_000_000, true, 5, "06:13:21.251 06:13:21.252 06:13:21.253 06:13:21.254 06:13:21.255"},
		{"microseconds", start, start + 4000, false, 5, "0.000000 s 0.000001 s 0.000002 s 0.000003 s 0.000004 s"},
		{"an hour, absolute", start, start + 3600e9, true, 5, "06:15 06:30 06:45 07:00"},
		{"an hour, relative: minutes", start, start + 3600e9, false, 5, "0 s 15 min 30 min 45 min 1 h"},
		{"36 hours, relative: hours", start, start + 36*3600e9, false, 8, "0 s 6 h 12 h 18 h 1 d 1 d 6 h 1 d 12 h"},
		{"six days, relative: days, not 43200 s", start, start + 6*86400e9, false, 8, "0 s 1 d 2 d 3 d 4 d 5 d 6 d"},
		{"six days, absolute: dates", start, start + 6*86400e9, true, 8, "Jun 11 Jun 12 Jun 13 Jun 14 Jun 15 Jun 16"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ts := AxisTicks(tc.t0, tc.t1, start, tc.abs, tc.max)
			var got []string
			for _, tk := range ts {
				got = append(got, tk.Label)
				if tk.T < tc.t0 || tk.T > tc.t1 {
					t.Errorf("tick %s at %d is outside the window", tk.Label, tk.T)
				}
			}
			if len(ts) > tc.max {
				t.Errorf("%d ticks, at most %d wanted", len(ts), tc.max)
			}
			if s := strings.Join(got, " "); s != tc.labels {
				t.Errorf("labels %q, want %q", s, tc.labels)
			}
		})
	}
}
