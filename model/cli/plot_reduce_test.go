package cli

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// TestPlotImageReduced draws a real IMU's noisy acceleration
// (robot_localization's test1.bag, 11,865 messages) 400 pixels wide, whole
// and with the image's point bound lowered to 2,400 (600 buckets, more
// than the plot's pixel columns): the two images may differ only where a
// line's anti-aliasing passes through other points of a bucket, a small
// share of the pixels the lines cover.
func TestPlotImageReduced(t *testing.T) {
	dir := t.TempDir()
	draw := func(name string, points int) image.Image {
		old := imagePoints
		imagePoints = points
		defer func() { imagePoints = old }()
		out := filepath.Join(dir, name)
		if _, stderr, code := run("plot", sharedBags+"/cra-ros-pkg__robot_localization/test/test1.bag", "/imu/data.linear_acceleration.x", "--width", "400", "--height", "200", "-o", out); code != 0 {
			t.Fatalf("plot: exit %d: %s", code, stderr)
		}
		f, err := os.Open(out)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		im, err := png.Decode(f)
		if err != nil {
			t.Fatal(err)
		}
		return im
	}
	whole, reduced := draw("whole.png", 1<<20), draw("reduced.png", 2400)
	b := whole.Bounds()
	far, diff, ink := 0, 0, 0
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := whole.At(x, y).RGBA()
			r2, g2, b2, _ := reduced.At(x, y).RGBA()
			d := max(absDiff(r1, r2), absDiff(g1, g2), absDiff(b1, b2)) >> 8
			if d > 0 {
				diff++
			}
			if r1>>8 < 200 || g1>>8 < 200 || b1>>8 < 200 {
				ink++ // not the white background
			}
			if d > 96 {
				far++
			}
		}
	}
	t.Logf("%d of %d pixels drawn on, %d differ, %d by more than 96 levels", ink, b.Dx()*b.Dy(), diff, far)
	if far*100 > ink { // 1% of what the lines, axes and text cover
		t.Errorf("%d of the %d pixels drawn on differ by more than 96 levels between the whole and the reduced series", far, ink)
	}
}

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}
