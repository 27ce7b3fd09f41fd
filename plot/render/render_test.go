package render

import (
	"github.com/bagscope/bagscope/plot"
	"strings"

	"bytes"
	"flag"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden images under testdata/")

// shots, when set, is a directory where every rendered test image is copied
// for a human to look at (e.g. BAGSCOPE_SHOTS=/tmp/shots).
var shots = os.Getenv("BAGSCOPE_SHOTS")

const t0 = int64(1_700_000_000_000_000_000)

// sine returns n points over seconds [0, dur) from t0 with f(x).
func sampled(name string, n int, dur float64, f func(x float64) float64) plot.Series {
	s := plot.Series{Name: name, T: make([]int64, n), V: make([]float64, n)}
	for i := range n {
		x := dur * float64(i) / float64(n)
		s.T[i] = t0 + int64(x*1e9)
		s.V[i] = f(x)
	}
	return s
}

// goldenCases are the plots kept as golden images.
func goldenCases() []struct {
	name   string
	series []plot.Series
	w      plot.Window
	y      plot.YRange
	width  int
	height int
	opt    plot.Options
} {
	sin := sampled("/imu/data.linear_acceleration.x", 20000, 20, func(x float64) float64 { return math.Sin(x) + 0.1*math.Sin(37*x) })
	sin.V[12345] = 4 // a one-sample spike
	cos := sampled("/imu/data.linear_acceleration.y", 5000, 20, func(x float64) float64 { return 0.8 * math.Cos(0.5*x) })
	gappy := sampled("/odom.twist.twist.linear.x", 2000, 20, func(x float64) float64 {
		switch {
		case x > 5 && x < 6:
			return math.NaN()
		case x > 12 && x < 12.5:
			return math.Inf(1)
		}
		return x / 10
	})
	gappy.V[1700] = math.NaN()
	gappy.V[1702] = math.NaN() // an isolated point between two gaps
	all := plot.Window{T0: t0, T1: t0 + 20e9}
	return []struct {
		name   string
		series []plot.Series
		w      plot.Window
		y      plot.YRange
		width  int
		height int
		opt    plot.Options
	}{
		{"two-series-spike", []plot.Series{sin, cos}, all, plot.YRange{}, 800, 450, plot.Options{Title: "IMU", Origin: t0, YLabel: "m/s²"}},
		{"gaps", []plot.Series{gappy}, all, plot.YRange{}, 640, 360, plot.Options{Title: "NaN and Inf make gaps", Origin: t0}},
		{"zoomed-absolute", []plot.Series{sin, cos, gappy}, plot.Window{T0: t0 + 4e9, T1: t0 + 7e9}, plot.YRange{Fixed: true, Min: -1.5, Max: 1.5}, 800, 450, plot.Options{Origin: t0, Absolute: true}},
		{"empty", nil, all, plot.YRange{}, 320, 200, plot.Options{Title: "no series", Origin: t0}},
	}
}

// TestRenderGolden compares rendered plots with golden PNGs under testdata/,
// allowing a small per-pixel difference budget (font rasterisation differs
// slightly between platforms). Run with -update to rewrite them.
func TestRenderGolden(t *testing.T) {
	for _, tc := range goldenCases() {
		t.Run(tc.name, func(t *testing.T) {
			img, f := Render(tc.series, tc.w, tc.y, tc.width, tc.height, tc.opt)
			if !f.Valid() {
				t.Fatalf("invalid frame %+v", f)
			}
			golden := filepath.Join("testdata", "plot-"+tc.name+".png")
			if shots != "" {
				writePNG(t, filepath.Join(shots, "plot-"+tc.name+".png"), img)
			}
			if *update {
				writePNG(t, golden, img)
				return
			}
			want := readPNG(t, golden)
			if n, budget := diffPixels(img, want, 48), img.Bounds().Dx()*img.Bounds().Dy()/200; n > budget {
				writePNG(t, filepath.Join(t.TempDir(), "got.png"), img)
				t.Fatalf("%d pixels differ from %s (budget %d); run with -update if the change is intended", n, golden, budget)
			}
		})
	}
}

// diffPixels counts pixels whose channels differ by more than tol.
func diffPixels(a, b image.Image, tol int) int {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Dx() * a.Bounds().Dy()
	}
	n := 0
	r := a.Bounds()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c1 := color.NRGBAModel.Convert(a.At(x, y)).(color.NRGBA)
			c2 := color.NRGBAModel.Convert(b.At(x, y)).(color.NRGBA)
			if absDiff(c1.R, c2.R) > tol || absDiff(c1.G, c2.G) > tol || absDiff(c1.B, c2.B) > tol || absDiff(c1.A, c2.A) > tol {
				n++
			}
		}
	}
	return n
}

func absDiff(a, b uint8) int {
	if a > b {
		return int(a - b)
	}
	return int(b - a)
}

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readPNG(t *testing.T, path string) image.Image {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

// TestExportTimeUnits renders plots over a few seconds, an hour and six
// days to SVG: past a minute the time axis is labelled as the window's
// (plot.TimeTicks: "15 min", "1 d 12 h"), never in thousands of seconds;
// under a minute it stays in seconds.
func TestExportTimeUnits(t *testing.T) {
	for _, tc := range []struct {
		name  string
		dur   float64
		label string
		unit  string
	}{
		{"20 s", 20, "time (s)", ""},
		{"1 h", 3600, "time from the start", "min"},
		{"6 d", 6 * 86400, "time from the start", "d"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := sampled("/imu.x", 2000, tc.dur, math.Sin)
			w := plot.Window{T0: t0, T1: t0 + int64(tc.dur*1e9)}
			svg, _, err := RenderSVG([]plot.Series{s}, w, plot.YRange{}, 800, 450, plot.Options{Origin: t0})
			if err != nil {
				t.Fatal(err)
			}
			text := string(svg)
			if !strings.Contains(text, tc.label) {
				t.Errorf("no axis label %q", tc.label)
			}
			if tc.unit == "" {
				return
			}
			if strings.Contains(text, ">43200<") || strings.Contains(text, ">1800<") {
				t.Error("ticks in bare seconds")
			}
			n := 0
			for _, tick := range plot.TimeTicks(w, t0, false, 6) {
				if strings.Contains(tick.Label, tc.unit) && strings.Contains(text, ">"+tick.Label+"<") {
					n++
				}
			}
			if n < 2 {
				t.Errorf("fewer than two of the window's tick labels (%v) in the SVG", plot.TimeTicks(w, t0, false, 6))
			}
		})
	}
}
