package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProbeDisplay checks that a display that does not answer is found
// before the toolkit starts (which would print a Go panic), and that one
// that answers is let through.
func TestProbeDisplay(t *testing.T) {
	dir := t.TempDir()
	sock := filepath.Join(dir, "wayland-9")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skipf("no unix sockets here: %v", err)
	}
	defer l.Close()
	tests := []struct {
		env  map[string]string
		want string // "" for no error
	}{
		{map[string]string{}, "no display (DISPLAY and WAYLAND_DISPLAY are unset)"},
		{map[string]string{"WAYLAND_DISPLAY": sock}, ""},
		{map[string]string{"WAYLAND_DISPLAY": "wayland-9", "XDG_RUNTIME_DIR": dir}, ""},
		{map[string]string{"WAYLAND_DISPLAY": "wayland-8", "XDG_RUNTIME_DIR": dir}, "cannot open the display: WAYLAND_DISPLAY=wayland-8"},
		{map[string]string{"DISPLAY": ":4711"}, "cannot open the display: DISPLAY=:4711"},
		{map[string]string{"DISPLAY": "127.0.0.1:4711.0"}, "cannot open the display: DISPLAY=127.0.0.1:4711.0"},
		{map[string]string{"DISPLAY": "/private/tmp/launchd/org.xquartz:0"}, ""},
	}
	for _, tc := range tests {
		err := probeDisplay(func(k string) string { return tc.env[k] })
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%v: %v, want %q", tc.env, err, tc.want)
		}
	}
	if d := os.Getenv("DISPLAY"); d != "" {
		if err := probeDisplay(os.Getenv); err != nil {
			t.Errorf("the test's own display %s: %v", d, err)
		}
	}
}
