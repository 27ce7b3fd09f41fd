package sensor

import (
	"image"
	"image/color"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// BenchmarkSensorImageFrame draws one frame of the image view at 1600×900
// physical pixels: a 1280×960 camera frame fitted (averaged samples), at
// 1:1 and zoomed 8× (nearest pixel). One frame per pan or zoom step.
func BenchmarkSensorImageFrame(b *testing.B) {
	test.NewTempApp(b)
	pic := image.NewNRGBA(image.Rect(0, 0, 1280, 960))
	for i := range pic.Pix {
		pic.Pix[i] = uint8(i * 7)
	}
	for _, bb := range []struct {
		name string
		zoom func(v *imageView)
	}{
		{"fit", func(v *imageView) { v.Fit() }},
		{"1to1", func(v *imageView) { v.OneToOne() }},
		{"8x", func(v *imageView) { v.OneToOne(); v.ZoomBy(8) }},
	} {
		b.Run(bb.name, func(b *testing.B) {
			v := newImageView()
			w := test.NewTempWindow(b, v)
			w.Resize(fyne.NewSize(1600, 900))
			v.SetImage(pic)
			bb.zoom(v)
			r := test.WidgetRenderer(v).(*imageViewRenderer)
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				r.draw(1600, 900)
			}
			b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/frame")
		})
	}
}

// BenchmarkSensorPointsFrame draws one frame of the point view with
// 200,000 coloured points (a decimated cloud) at 1600×900.
func BenchmarkSensorPointsFrame(b *testing.B) {
	test.NewTempApp(b)
	const n = 200_000
	s := &pointSet{X: make([]float32, n), Y: make([]float32, n), C: make([]color.NRGBA, n)}
	for i := range n {
		s.X[i], s.Y[i] = float32(i%1000)*0.05, float32(i/1000)*0.05
		s.C[i] = color.NRGBA{uint8(i), 100, 200, 255}
	}
	v := newPointView()
	w := test.NewTempWindow(b, v)
	w.Resize(fyne.NewSize(1600, 900))
	v.SetPoints(s, false)
	r := test.WidgetRenderer(v).(*pointViewRenderer)
	b.ReportAllocs()
	for b.Loop() {
		r.draw(1600, 900)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/frame")
}
