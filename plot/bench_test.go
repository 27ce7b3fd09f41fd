package plot

import (
	"fmt"
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
		b.Run(fmt.Sprintf("points=%d", n), func(b *testing.B) {
			s := benchSeries(n)
			w := Window{s.T[0], s.T[n-1]}
			var buf Series
			b.ReportAllocs()
			for b.Loop() {
				buf = Decimate(buf, s, w, 1600)
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds()/1e6, "Mpoints/s")
		})
	}
}

// BenchmarkRender measures a full redraw (decimation, layout, axes, lines,
// legend) of all points into a 1600×900 image.
func BenchmarkRender(b *testing.B) {
	for _, n := range []int{1_000_000, 10_000_000} {
		b.Run(fmt.Sprintf("points=%d", n), func(b *testing.B) {
			s := benchSeries(n)
			w := Window{s.T[0], s.T[n-1]}
			b.ReportAllocs()
			for b.Loop() {
				Render([]Series{s}, w, YRange{}, 1600, 900, Options{Title: "bench", Origin: t0})
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/frame")
		})
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
