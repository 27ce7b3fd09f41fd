package render

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strings"
	"testing"

	"github.com/bagscope/bagscope/plot"
)

// TestFrameMapsPixels draws a horizontal and a vertical line and checks
// that the frame puts them where they are drawn, and that pixel and data
// positions map back and forth.
func TestFrameMapsPixels(t *testing.T) {
	w := plot.Window{T0: t0, T1: t0 + 10e9}
	h := plot.Series{Name: "h", T: []int64{t0, t0 + 10e9}, V: []float64{3, 3}}
	v := plot.Series{Name: "v", T: []int64{t0 + 4e9, t0 + 4e9}, V: []float64{-10, 10}}
	img, f := Render([]plot.Series{h, v}, w, plot.YRange{Fixed: true, Min: 0, Max: 5}, 640, 400, plot.Options{Origin: t0})
	if !f.Valid() {
		t.Fatalf("frame %+v", f)
	}
	near := func(x, y int, want color.RGBA) bool {
		for dx := -1; dx <= 1; dx++ {
			for dy := -1; dy <= 1; dy++ {
				c := img.RGBAAt(x+dx, y+dy)
				// Antialiased: within 80 of the colour in every channel.
				if absDiff(c.R, want.R) < 80 && absDiff(c.G, want.G) < 80 && absDiff(c.B, want.B) < 80 {
					return true
				}
			}
		}
		return false
	}
	y3 := int(f.Y(3))
	for _, x := range []int{int(f.Data.X0) + 30, int(f.Data.X1) - 30} {
		if !near(x, y3, plot.PaletteColor(0)) {
			t.Errorf("no horizontal line at (%d, %d): %v", x, y3, img.RGBAAt(x, y3))
		}
	}
	x4 := int(f.X(t0 + 4e9))
	if !near(x4, int(f.Data.Y0)+20, plot.PaletteColor(1)) {
		t.Errorf("no vertical line at x=%d", x4)
	}
	if got := f.Time(f.X(t0 + 1234567890)); math.Abs(float64(got-(t0+1234567890))) > 1 {
		t.Errorf("time round trip: %d", got-t0)
	}
	if got := f.Value(f.Y(1.25)); math.Abs(got-1.25) > 1e-12 {
		t.Errorf("value round trip: %v", got)
	}
}

func TestRenderTinySizes(t *testing.T) {
	s := []plot.Series{sampled("s", 100, 1, math.Sin)}
	for _, sz := range [][2]int{{0, 0}, {0, 100}, {100, 0}, {-5, 10}, {1, 1}, {47, 300}, {plot.MinSize, plot.MinSize}, {200, 150}} {
		img, f := Render(s, plot.Window{T0: t0, T1: t0 + 1e9}, plot.YRange{}, sz[0], sz[1], plot.Options{})
		if img.Bounds().Dx() != max(sz[0], 0) || img.Bounds().Dy() != max(sz[1], 0) {
			t.Errorf("%v: image %v", sz, img.Bounds())
		}
		if sz[0] < plot.MinSize || sz[1] < plot.MinSize || sz[0] >= 200 {
			if want := sz[0] >= plot.MinSize && sz[1] >= plot.MinSize; want != f.Valid() {
				t.Errorf("%v: frame valid = %v", sz, f.Valid())
			}
		}
		if false {
			t.Errorf("%v: frame valid = %v", sz, f.Valid())
		}
		if _, _, err := RenderSVG(s, plot.Window{T0: t0, T1: t0 + 1e9}, plot.YRange{}, sz[0], sz[1], plot.Options{}); (err != nil) != (sz[0] <= 0 || sz[1] <= 0) {
			t.Errorf("%v: svg err %v", sz, err)
		}
	}
}

// TestRenderXY draws a circle with equal axes: the frame's units per pixel
// agree on both axes, the cursor's point is drawn, and the CSV holds the
// coordinates.
func TestRenderXY(t *testing.T) {
	p := circle(500, 500, 1, 3, 4)
	w := plot.Window{T0: p.T[0], T1: p.T[len(p.T)-1]}
	img, f := RenderXY([]plot.XY{p}, w, 800, 400, plot.XYOptions{Equal: true, Cursor: p.T[0], HasCursor: true})
	if !f.Valid() || img.Bounds().Dx() != 800 {
		t.Fatalf("frame %+v", f)
	}
	ux, uy := (f.B.X1-f.B.X0)/f.Data.Dx(), (f.B.Y1-f.B.Y0)/f.Data.Dy()
	if math.Abs(ux-uy) > 0.01*ux {
		t.Errorf("units per pixel %v across, %v up", ux, uy)
	}
	// The path passes through the top of the circle (3, 5).
	x, y := int(f.X(3)), int(f.Y(5))
	found := false
	for dy := -2; dy <= 2; dy++ {
		if c := img.RGBAAt(x, y+dy); c.B > c.R+40 {
			found = true
		}
	}
	if !found {
		t.Errorf("no line at (%d, %d)", x, y)
	}
	var svg, csv bytes.Buffer
	if err := WriteXY(&svg, plot.SVG, []plot.XY{p}, w, 800, 400, plot.XYOptions{}); err != nil || !strings.Contains(svg.String(), "<svg") {
		t.Errorf("SVG: %v", err)
	}
	if err := plot.WriteXYCSV(&csv, []plot.XY{p}, plot.Window{T0: p.T[0], T1: p.T[2]}, plot.CSVOptions{Origin: t0}); err != nil {
		t.Fatal(err)
	}
	if got := csv.String(); !strings.HasPrefix(got, "time_s,x,y\n0.000000000,4,4\n") || strings.Count(got, "\n") != 4 {
		t.Errorf("CSV:\n%s", got)
	}
}

// BenchmarkRender measures a full redraw (decimation, layout, axes, lines,
// legend) of all points into a 1600×900 image.
func BenchmarkRender(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		b.Run(fmt.Sprintf("points=%d", n), func(b *testing.B) {
			s := benchSeries(n)
			w := plot.Window{T0: s.T[0], T1: s.T[n-1]}
			b.ReportAllocs()
			for b.Loop() {
				Render([]plot.Series{s}, w, plot.YRange{}, 1600, 900, plot.Options{Title: "bench", Origin: t0})
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/frame")
		})
	}
}

func circle(n, period int, r, cx, cy float64) plot.XY {
	p := plot.XY{Name: "circle", XName: "x", YName: "y", T: make([]int64, n), X: make([]float64, n), Y: make([]float64, n)}
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(period)
		p.T[i] = t0 + int64(i)*1e7
		p.X[i], p.Y[i] = cx+r*math.Cos(a), cy+r*math.Sin(a)
	}
	return p
}

func benchSeries(n int) plot.Series {
	s := plot.Series{Name: "bench", T: make([]int64, n), V: make([]float64, n)}
	for i := range n {
		s.T[i] = t0 + int64(i)*100_000 // 10 kHz
		s.V[i] = math.Sin(float64(i)/5e3) + 0.01*float64(i%7)
	}
	s.V[n/3] = 40
	return s
}
