package plot

import (
	"fmt"
	"image"
	"image/color"
	"io"
	"math"
	"testing"
)

func benchSeries(n int) Series {
	s := Series{Name: "bench", T: make([]int64, n), V: make([]float64, n)}
	for i := range n {
		s.T[i] = t0 + int64(i)*100_000 // 10 kHz
		s.V[i] = math.Sin(float64(i)/5e3) + 0.01*float64(i%7)
	}
	s.V[n/3] = 40
	return s
}

// BenchmarkDecimate measures decimating all points to 1600 columns.
func BenchmarkDecimate(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		for _, times := range []string{"plain", "compact"} {
			b.Run(fmt.Sprintf("points=%d/times=%s", n, times), func(b *testing.B) {
				s := benchSeries(n)
				w := Window{s.T[0], s.T[n-1]}
				if times == "compact" {
					s = compact(s)
				}
				var buf Series
				b.ReportAllocs()
				for b.Loop() {
					buf = Decimate(buf, s, w, 1600)
				}
				b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mpoints/s")
			})
		}
	}
}

// BenchmarkWriteCSV measures writing 200k rows (the /imu benchmark's size)
// of one series.
func BenchmarkWriteCSV(b *testing.B) {
	s := benchSeries(200_000)
	w := Window{s.T[0], s.T[len(s.T)-1]}
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteCSV(io.Discard, []Series{s}, w, CSVOptions{Origin: t0}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(200_000*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mrows/s")
}

// BenchmarkFrame10x1M measures one frame of an interactive plot of ten
// series of a million points each, as the window draws it: decimate every
// series to the pixel columns, find the value range, rasterise. Each frame
// moves the window, as a pan (a 1% step) or a zoom (about the middle,
// between the whole and a tenth) does, so nothing is reused but buffers.
func BenchmarkFrame10x1M(b *testing.B) { benchFrame10x1M(b, false) }

// BenchmarkFrame10x1MCompact is BenchmarkFrame10x1M with the times kept
// compact (plot/column), as the window keeps them.
func BenchmarkFrame10x1MCompact(b *testing.B) { benchFrame10x1M(b, true) }

func benchFrame10x1M(b *testing.B, compactTimes bool) {
	const n, width, height = 1_000_000, 1600, 400
	series := make([]Series, 10)
	for k := range series {
		s := Series{T: make([]int64, n), V: make([]float64, n)}
		for i := range n {
			s.T[i] = t0 + int64(i)*100_000 + int64(k)*7_000 // 10 kHz each
			s.V[i] = float64(k) + math.Sin(float64(i)/(5e3+float64(k)*300)) + 0.01*float64(i%7)
		}
		series[k] = s
	}
	full := Window{series[0].T[0], series[9].T[n-1]}
	if compactTimes {
		for k := range series {
			series[k] = compact(series[k])
		}
	}
	span := full.Duration()
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	dec := make([]Series, len(series))
	lines := make([]Line, len(series))
	frame := func(w Window) {
		for k, s := range series {
			dec[k] = Decimate(dec[k], s, w, width)
			lines[k] = Line{S: dec[k], C: PaletteColor(k)}
		}
		lo, hi := AutoRange(ValueRange(lines, w))
		Rasterize(img, Frame{Width: width, Height: height, Data: Rect{X1: width, Y1: height}, Window: w, Y0: lo, Y1: hi}, lines, 1)
	}
	for _, mode := range []string{"pan", "zoom"} {
		b.Run(mode, func(b *testing.B) {
			i := 0
			b.ReportAllocs()
			for b.Loop() {
				var w Window
				switch mode {
				case "pan": // the whole span, shifted 1% a frame
					d := int64(i%50) * span / 100
					w = Window{full.T0 + d - span/4, full.T1 + d - span/4}
				case "zoom": // from the whole to a tenth about the middle
					f := 1 - 0.9*float64(i%20)/19
					half := int64(float64(span) * f / 2)
					c := full.T0 + span/2
					w = Window{c - half, c + half}
				}
				frame(w)
				i++
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/frame")
			b.ReportMetric(10*n, "points")
		})
	}
}

// BenchmarkFrameXY1M measures one frame of an XY plot of a million-point
// path (a slow spiral): pixel decimation and rasterisation.
func BenchmarkFrameXY1M(b *testing.B) {
	const n, width, height = 1_000_000, 800, 800
	p := XY{T: make([]int64, n), X: make([]float64, n), Y: make([]float64, n)}
	for i := range n {
		a := float64(i) / 2e4
		r := 1 + float64(i)/n
		p.T[i] = t0 + int64(i)*1e7
		p.X[i], p.Y[i] = r*math.Cos(a), r*math.Sin(a)
	}
	w := Window{p.T[0], p.T[n-1]}
	v := XYView{Equal: true}
	bnd := v.Bounds([]XY{p}, w, width, height)
	f := XYFrame{Width: width, Height: height, Data: Rect{X1: width, Y1: height}, B: bnd}
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	var dec XY
	cols := []color.RGBA{PaletteColor(0)}
	b.ReportAllocs()
	for b.Loop() {
		dec = DecimateXY(dec, p, w, f)
		RasterizeXY(img, f, []XY{dec}, cols, 1)
	}
	b.ReportMetric(float64(b.Elapsed().Microseconds())/1e3/float64(b.N), "ms/frame")
	b.ReportMetric(float64(len(dec.T)), "kept")
}
