package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// xPos is X window wid's position on the screen, from xwininfo.
func xPos(t *testing.T, wid string) (x, y int, err error) {
	out, err := exec.Command("xwininfo", "-id", wid).Output()
	if err != nil {
		return 0, 0, err
	}
	m := regexp.MustCompile(`Absolute upper-left X:\s+(-?\d+)\s+Absolute upper-left Y:\s+(-?\d+)`).FindStringSubmatch(string(out))
	if m == nil {
		return 0, 0, fmt.Errorf("xwininfo said %s", out)
	}
	x, _ = strconv.Atoi(m[1])
	y, _ = strconv.Atoi(m[2])
	return x, y, nil
}

// waitFor polls cond until it holds, failing after a minute (a bound
// for a stuck window, not a measure of time).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(time.Minute); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("after a minute: %s", what)
		}
	}
}

// TestWindowPlaceRemembered runs the window on the X display: a window
// moved by the user and closed (Ctrl+W) is remembered for this screen, and
// the next run opens where it was left. The position is read and set
// through the window's native handle (Fyne's public driver.NativeWindow),
// with no window manager in the way.
func TestWindowPlaceRemembered(t *testing.T) {
	if os.Getenv("DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but there is no DISPLAY: run the tests under xvfb-run, as `make test` does")
		}
		t.Skip("no DISPLAY and CI is unset: skipping (`make test` runs it under Xvfb)")
	}
	for _, tool := range []string{"xdotool", "xwininfo"} {
		if _, err := exec.LookPath(tool); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is missing (make deps installs it)", tool)
			}
			t.Skipf("%s is missing (make deps installs it); CI is unset, so the test skips", tool)
		}
	}
	dir := t.TempDir()
	gui := filepath.Join(dir, "bagscope-gui")
	args := []string{"build", "-o", gui, "-tags", guiTags}
	if raceEnabled {
		args = append(args, "-race")
	}
	if out, err := exec.Command("go", append(args, ".")...).CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	home := filepath.Join(dir, "home")
	run := func() (*exec.Cmd, string) {
		cmd := exec.Command(gui, "testdata/arm7.bag")
		cmd.Env = append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, "xdotool", "search", "--sync", "--name", "arm7.bag").Output()
		if err != nil {
			cmd.Process.Kill()
			t.Fatalf("no window: %v", err)
		}
		return cmd, strings.Fields(string(out))[0]
	}

	cmd, wid := run()
	// The window is placed once shown: centred on this screen.
	waitFor(t, "the window was never placed", func() bool { x, y, err := xPos(t, wid); return err == nil && (x != 0 || y != 0) })
	if err := exec.Command("xdotool", "windowmove", wid, "5", "10").Run(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the window did not move", func() bool { x, y, err := xPos(t, wid); return err == nil && x == 5 && y == 10 })
	if err := exec.Command("xdotool", "key", "--window", wid, "ctrl+w").Run(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatal("Ctrl+W did not close the window within a minute")
	}
	prefs, err := filepath.Glob(filepath.Join(home, ".config/fyne/*/preferences.json"))
	if err != nil || len(prefs) != 1 {
		t.Fatalf("preferences: %v %v", prefs, err)
	}
	b, _ := os.ReadFile(prefs[0])
	var kept map[string]any
	json.Unmarshal(b, &kept)
	found := false
	for k, v := range kept {
		if s, ok := v.(string); ok && strings.HasPrefix(k, "window.") && strings.HasPrefix(s, "5 10 ") {
			found = true
		}
	}
	if !found {
		t.Fatalf("the place was not remembered: %s", b)
	}

	cmd, wid = run()
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	var x, y int
	waitFor(t, "the window did not reopen where it was left", func() bool {
		x, y, err = xPos(t, wid)
		return err == nil && x == 5 && y == 10
	})
}
