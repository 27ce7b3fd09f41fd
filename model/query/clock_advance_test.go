package query

import "testing"

// TestClockAdvance checks playback pacing by the sim time: /clock every
// 10 ms from 1 s, sim time from 100 s at half speed, paused at 100.5 s
// from 2 s to 3 s of log time (moving again at 3.01 s), up to 4 s.
func TestClockAdvance(t *testing.T) {
	const ms = int64(1e6)
	x := &ClockIndex{}
	sim := int64(100e9)
	for l := int64(1000 * ms); l <= 4000*ms; l += 10 * ms {
		x.log = append(x.log, l)
		x.sim = append(x.sim, sim)
		if l < 2000*ms || l >= 3000*ms {
			sim += 5 * ms
		}
	}
	for _, tc := range []struct {
		name   string
		t, d   int64
		want   int64
		wantOK bool
	}{
		{"one sample's worth", 1000 * ms, 5 * ms, 1010 * ms, true},
		{"part of a period", 1000 * ms, 1 * ms, 1002 * ms, true},
		{"from between samples", 1004 * ms, 3 * ms, 1010 * ms, true},
		{"half speed: 100 ms of sim in 200 ms", 1500 * ms, 100 * ms, 1700 * ms, true},
		{"across the pause", 1990 * ms, 10 * ms, 3010 * ms, true},
		{"inside the pause", 2500 * ms, 5 * ms, 3010 * ms, true},
		{"before /clock", 500 * ms, 5 * ms, 0, false},
		{"past the last", 3995 * ms, 50 * ms, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := x.Advance(tc.t, tc.d)
			if ok != tc.wantOK || ok && got != tc.want {
				t.Errorf("Advance(%d ms, %d ms) = %d ns (%v), want %d ns (%v)", tc.t/ms, tc.d/ms, got, ok, tc.want, tc.wantOK)
			}
		})
	}
}
