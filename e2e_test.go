package main

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// raceEnabled is set by race_test.go: the binary is then built with -race
// too, which reuses the test build's compiled packages.
var raceEnabled bool

// guiTags are the build tags of the window, as the Makefile's GUI_TAGS.
const guiTags = "no_emoji"

// e2eBag is a real-world bag from ../shared; testdata's is used when the
// shared bags are not beside the repository.
const e2eBag = "../shared/bags/cra-ros-pkg__robot_localization/test/test2.bag"

// TestScreenshotEndToEnd builds bagscope and bagscope-gui, runs bagscope in
// a real window on an X display with --screenshot on each view, and checks
// the PNGs it writes.
func TestScreenshotEndToEnd(t *testing.T) {
	if os.Getenv("DISPLAY") == "" && os.Getenv("WAYLAND_DISPLAY") == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI is set but there is no DISPLAY: run the tests under xvfb-run, as `make test` does")
		}
		t.Skip("no DISPLAY and CI is unset: skipping the end-to-end window test (`make test` runs it under Xvfb)")
	}
	if testing.Short() {
		t.Skip("-short")
	}
	bagPath := e2eBag
	if _, err := os.Stat(bagPath); err != nil {
		t.Logf("%s missing, using testdata/lz4-multichunk.bag", e2eBag)
		bagPath = "testdata/lz4-multichunk.bag"
	}
	// Built as `make build` leaves them: the command-line front, which
	// executes bagscope-gui beside it for the window, built with the
	// Makefile's GUI_TAGS.
	dir := t.TempDir()
	bin := filepath.Join(dir, "bagscope")
	for _, b := range []struct{ out, pkg string }{{"bagscope-gui", "."}, {"bagscope", "./model/cli/bagscope"}} {
		args := []string{"build", "-o", filepath.Join(dir, b.out)}
		if b.pkg == "." {
			args = append(args, "-tags", guiTags)
		}
		if raceEnabled {
			args = append(args, "-race")
		}
		build := exec.Command("go", append(args, b.pkg)...)
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b.pkg, err, out)
		}
	}

	views := []struct {
		name string
		args []string
	}{
		{"topics", nil},
		{"message", []string{"--tab", "Message", "--select", "/imu/data@20"}},
		{"chunk", []string{"--tab", "Chunk", "--select", "/imu/data@20"}},
		{"plots", []string{"--plot", "/imu/data.linear_acceleration.x,/imu/data.angular_velocity.z", "--plot", "/jackal_velocity_controller/odom.twist.twist.linear.x"}},
		{"records", []string{"--tab", "Records"}},
		{"findings", []string{"--tab", "Findings"}},
	}
	if bagPath != e2eBag {
		views = views[:1]
	}
	var shots []image.Image
	for _, v := range views {
		out := filepath.Join(dir, v.name+".png")
		args := append(append([]string{"--screenshot", out}, v.args...), bagPath)
		shots = append(shots, runScreenshot(t, bin, dir, args))
	}
	for i := range shots {
		for j := i + 1; j < len(shots); j++ {
			if samePixels(shots[i], shots[j]) {
				t.Errorf("the %s and %s screenshots are identical: the view did not change", views[i].name, views[j].name)
			}
		}
	}
}

// runScreenshot runs bagscope with args (which hold --screenshot OUT) and
// checks and returns the image it writes.
func runScreenshot(t *testing.T, bin, dir string, args []string) image.Image {
	t.Helper()
	out := args[1]
	// The bound only stops a window that hangs; how long it takes is
	// logged, not judged (under load it varies tenfold).
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Env = append(os.Environ(), "LANG=C.UTF-8", "HOME="+dir) // keep the user's preferences out of it
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	t.Logf("bagscope %s took %s", strings.Join(args, " "), took.Round(time.Millisecond))
	if err != nil {
		t.Fatalf("bagscope %s: %v\nstderr:\n%s", strings.Join(args, " "), err, stderr.String())
	}
	if s := stderr.String(); strings.Contains(s, "Error in Fyne call thread") || strings.Contains(s, "panic") || strings.Contains(s, "no tab called") || strings.Contains(s, "--select") {
		t.Errorf("stderr shows a threading error, a panic or a bad argument:\n%s", s)
	}

	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("decoding %s: %v", out, err)
	}
	if got := img.Bounds().Size(); got != (image.Point{1280, 800}) {
		t.Errorf("%s is %v, want 1280x800", out, got)
	}
	if n := distinctColours(img); n < 50 {
		t.Errorf("%s has %d distinct colours: blank or nearly so", out, n)
	}
	if opaque(img) < 0.99 {
		t.Errorf("%s is partly transparent (%.0f%% opaque)", out, 100*opaque(img))
	}
	return img
}

func samePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if a.At(x, y) != b.At(x, y) {
				return false
			}
		}
	}
	return true
}

func distinctColours(img image.Image) int {
	seen := map[[4]uint32]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, a := img.At(x, y).RGBA()
			seen[[4]uint32{r, g, bl, a}] = true
		}
	}
	return len(seen)
}

func opaque(img image.Image) float64 {
	b := img.Bounds()
	n, total := 0, 0
	for y := b.Min.Y; y < b.Max.Y; y += 4 {
		for x := b.Min.X; x < b.Max.X; x += 4 {
			if _, _, _, a := img.At(x, y).RGBA(); a == 0xffff {
				n++
			}
			total++
		}
	}
	return float64(n) / float64(total)
}
