package ui

import "testing"

// TestLayoutTopicsResolveAcrossRecordings: a layout saved in a window of
// one recording applies to a window of several and back: its topics and
// plot paths resolve with and without a recording's prefix.
func TestLayoutTopicsResolveAcrossRecordings(t *testing.T) {
	both := map[string]bool{"/imu": true, "/odom": true, "B:/imu": true, "B:/fix": true}
	bAlone := map[string]bool{"/imu": true, "/fix": true}
	prefixes := []string{"", "B:"}
	for _, tc := range []struct {
		in, want string
		have     map[string]bool
		prefixes []string
		path     bool
	}{
		{"/imu", "/imu", both, prefixes, false},
		{"B:/imu", "B:/imu", both, prefixes, false},
		{"/fix", "B:/fix", both, prefixes, false},   // saved for B alone, B added to A
		{"B:/fix", "/fix", bAlone, nil, false},      // saved with B added, B alone
		{"C:/odom", "/odom", both, prefixes, false}, // another letter: A's topic
		{"/nowhere", "/nowhere", both, prefixes, false},
		{"/fix.latitude", "B:/fix.latitude", both, prefixes, true},
		{"B:/fix.latitude", "/fix.latitude", bAlone, nil, true},
		{"B:/imu.linear_acceleration.x", "B:/imu.linear_acceleration.x", both, prefixes, true},
		{"/imu.linear_acceleration.x", "/imu.linear_acceleration.x", both, prefixes, true},
		{"diff(B:/imu.x, /imu.x)", "diff(B:/imu.x, /imu.x)", bAlone, nil, true},
		{"/gone.x", "/gone.x", both, prefixes, true},
	} {
		got := resolveTopic(tc.in, tc.have, tc.prefixes)
		if tc.path {
			got = resolvePlotPath(tc.in, tc.have, tc.prefixes)
		}
		if got != tc.want {
			t.Errorf("%s: %s, want %s", tc.in, got, tc.want)
		}
	}
}
