package plots

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"testing"

	"github.com/bagscope/bagscope/plot"
)

const pt0 = int64(1_700_000_000_000_000_000)

// painted counts the pixels of column x that are set.
func painted(img *image.RGBA, x int) int {
	n := 0
	for y := 0; y < img.Rect.Dy(); y++ {
		if img.RGBAAt(x, y).A != 0 {
			n++
		}
	}
	return n
}

func TestRasterize(t *testing.T) {
	red := color.RGBA{255, 0, 0, 255}
	f := plot.Frame{Width: 100, Height: 50, Data: plot.Rect{X1: 100, Y1: 50}, Window: plot.Window{T0: pt0, T1: pt0 + 100}, Y0: 0, Y1: 50}
	tests := []struct {
		name string
		T    []int64
		V    []float64
		col  int // a column to look at
		want int // pixels set in it
	}{
		{"flat line", []int64{pt0, pt0 + 100}, []float64{25, 25}, 50, 1},
		{"vertical jump in one column", []int64{pt0 + 10, pt0 + 10}, []float64{10, 40}, 10, 31},
		{"gap: nothing between the neighbours of a NaN", []int64{pt0 + 10, pt0 + 50, pt0 + 90}, []float64{5, math.NaN(), 5}, 30, 0},
		{"lone point between gaps is a dot", []int64{pt0 + 10, pt0 + 50, pt0 + 60}, []float64{math.NaN(), 20, math.Inf(1)}, 50, 3},
		{"far outside the value range", []int64{pt0, pt0 + 100}, []float64{-1e300, -1e300}, 50, 0},
		{"line from far outside the window", []int64{pt0 - 1e12, pt0 + 1e12}, []float64{25, 25}, 0, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			img := image.NewRGBA(image.Rect(0, 0, 100, 50))
			img.Pix[0] = 9 // cleared first
			rasterize(img, f, []plotLine{{S: plot.Series{T: tc.T, V: tc.V}, C: red}}, 1)
			if got := painted(img, tc.col); got != tc.want {
				t.Errorf("column %d has %d pixels set, want %d", tc.col, got, tc.want)
			}
		})
	}
}

func TestAutoRange(t *testing.T) {
	tests := []struct {
		name     string
		lo, hi   float64
		ok       bool
		wlo, whi float64
	}{
		{"padded", 0, 10, true, -0.5, 10.5},
		{"flat at zero", 0, 0, true, -1, 1},
		{"flat", 10, 10, true, 9, 11},
		{"none", 0, 0, false, -1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi := autoRange(tc.lo, tc.hi, tc.ok)
			if lo != tc.wlo || hi != tc.whi {
				t.Errorf("got [%g, %g], want [%g, %g]", lo, hi, tc.wlo, tc.whi)
			}
		})
	}
}

// BenchmarkPlotRedraw measures the in-window draw path of one plot: decimate
// every point to the pixel columns, find the value range and rasterise.
func BenchmarkPlotRedraw(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		b.Run(fmt.Sprintf("points=%d", n), func(b *testing.B) {
			s := plot.Series{T: make([]int64, n), V: make([]float64, n)}
			for i := range n {
				s.T[i] = pt0 + int64(i)*100_000
				s.V[i] = math.Sin(float64(i) / 5e3)
			}
			s.V[n/3] = 40
			const width, height = 1600, 400
			img := image.NewRGBA(image.Rect(0, 0, width, height))
			w := plot.Window{T0: s.T[0], T1: s.T[n-1]}
			var dec plot.Series
			b.ReportAllocs()
			for b.Loop() {
				dec = plot.Decimate(dec, s, w, width)
				lines := []plotLine{{S: dec, C: color.RGBA{0, 0, 255, 255}}}
				lo, hi := autoRange(valueRange(lines, w))
				f := plot.Frame{Width: width, Height: height, Data: plot.Rect{X1: width, Y1: height}, Window: w, Y0: lo, Y1: hi}
				rasterize(img, f, lines, 1)
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/frame")
		})
	}
}

// TestRedrawKeepsSpike draws a million flat points with one spike through
// the in-window path (decimate, range, rasterise) and finds the spike.
func TestRedrawKeepsSpike(t *testing.T) {
	const n, width, height = 1_000_000, 800, 200
	s := plot.Series{T: make([]int64, n), V: make([]float64, n)}
	for i := range n {
		s.T[i] = pt0 + int64(i)*1000
	}
	spike := n/2 + 7
	s.V[spike] = 1
	s.V[n/4] = math.NaN()
	w := plot.Window{T0: s.T[0], T1: s.T[n-1]}
	lines := []plotLine{{S: plot.Decimate(plot.Series{}, s, w, width), C: color.RGBA{0, 0, 255, 255}}}
	lo, hi := autoRange(valueRange(lines, w))
	f := plot.Frame{Width: width, Height: height, Data: plot.Rect{X1: width, Y1: height}, Window: w, Y0: lo, Y1: hi}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	rasterize(img, f, lines, 1)
	col := int(f.X(s.T[spike]))
	top := int(f.Y(1))
	if img.RGBAAt(col, top).A == 0 || painted(img, col) < int(f.Y(0))-top {
		t.Errorf("the spike at column %d is not drawn up to row %d (%d pixels set)", col, top, painted(img, col))
	}
	if painted(img, width/8) != 1 {
		t.Errorf("the flat line is %d pixels thick, want 1", painted(img, width/8))
	}
}
