package widgets

import (
	"image"
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag/rosmsg"
)

// SparkMin is the shortest array of numbers whose row has a sparkline.
const SparkMin = 16

// SparkBuckets is how many columns a sparkline summarises its values in.
const SparkBuckets = 64

// Sparkline draws an array of numbers as a small min/max band, one column
// per bucket of elements, so spikes survive; NaN and infinities leave
// their columns empty. Hidden when it has no values.
type Sparkline struct {
	widget.BaseWidget
	lo, hi []float64    // per bucket; NaN when the bucket has no finite value
	node   *rosmsg.Node // the array summarised, so a row refresh reads it once
	raster *canvas.Raster
}

// NewSparkline returns a sparkline, hidden until it has values.
func NewSparkline() *Sparkline {
	s := &Sparkline{}
	s.raster = canvas.NewRaster(s.draw)
	s.raster.ScaleMode = canvas.ImageScaleFastest
	s.ExtendBaseWidget(s)
	s.Hide()
	return s
}

// Buckets returns how many buckets the values were summarised in.
func (s *Sparkline) Buckets() int { return len(s.lo) }

// MinSize is a small fixed box.
func (s *Sparkline) MinSize() fyne.Size { return fyne.NewSize(96, 18) }

// CreateRenderer draws the raster.
func (s *Sparkline) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(s.raster) }

// SetValues shows the elements of array n, or hides the sparkline when n
// is nil.
func (s *Sparkline) SetValues(n *rosmsg.Node) {
	if n == nil {
		s.lo, s.hi, s.node = nil, nil, nil
		s.Hide()
		return
	}
	if n != s.node {
		s.lo, s.hi = sparkBands(n, SparkBuckets)
		s.node = n
	}
	s.Show()
	s.raster.Refresh()
}

// sparkRead bounds the elements a sparkline reads: a longer array is
// sampled at an even stride.
const sparkRead = 1 << 16

// sparkBands summarises the elements of array n in at most k buckets: the
// least and greatest finite value of each (NaN when there is none).
func sparkBands(n *rosmsg.Node, k int) (lo, hi []float64) {
	cnt := n.Len()
	k = min(k, cnt)
	step := max(1, cnt/sparkRead)
	lo, hi = make([]float64, k), make([]float64, k)
	for b := range k {
		lo[b], hi[b] = math.NaN(), math.NaN()
		for i := b * cnt / k; i < (b+1)*cnt/k; i += step {
			e, _ := n.Elem(i)
			v, ok := e.Float64()
			if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			if math.IsNaN(lo[b]) || v < lo[b] {
				lo[b] = v
			}
			if math.IsNaN(hi[b]) || v > hi[b] {
				hi[b] = v
			}
		}
	}
	return lo, hi
}

// draw renders the bands at w×h pixels.
func (s *Sparkline) draw(w, h int) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	k := len(s.lo)
	if k == 0 || w < 2 || h < 2 {
		return img
	}
	vmin, vmax := math.Inf(1), math.Inf(-1)
	for b := range k {
		if !math.IsNaN(s.lo[b]) {
			vmin = min(vmin, s.lo[b])
			vmax = max(vmax, s.hi[b])
		}
	}
	if math.IsInf(vmin, 1) {
		return img
	}
	c := color.NRGBAModel.Convert(theme.Color(theme.ColorNamePrimary)).(color.NRGBA)
	y := func(v float64) int {
		if vmax == vmin {
			return h / 2
		}
		return int(math.Round(float64(h-1) * (vmax - v) / (vmax - vmin)))
	}
	for x := range w {
		b := x * k / w
		if math.IsNaN(s.lo[b]) {
			continue
		}
		top, bottom := y(s.hi[b]), y(s.lo[b])
		for yy := top; yy <= bottom; yy++ {
			img.SetNRGBA(x, yy, c)
		}
	}
	return img
}
