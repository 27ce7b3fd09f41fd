package render

import (
	"github.com/bagscope/bagscope/plot"

	"bytes"
	"errors"
	"image"
	"image/color"
	stddraw "image/draw"
	"math"
	"time"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// ErrNoSize is returned by RenderSVG for a zero or negative size.
var ErrNoSize = errors.New("plot: width and height must be positive")

// Render draws series over window w into a width×height RGBA image and
// returns it with the frame that maps pixels to data. Series are decimated
// to the image's pixel columns first, so cost depends on the points in the
// window, not on drawing them. Images smaller than plot.MinSize are blank.
func Render(series []plot.Series, w plot.Window, y plot.YRange, width, height int, opt plot.Options) (*image.RGBA, plot.Frame) {
	img, ok := newImage(width, height)
	if !ok {
		return img, plot.Frame{}
	}
	dpi := int(math.Round(96 * scaleOf(opt)))
	c := vgimg.NewWith(vgimg.UseImage(img), vgimg.UseDPI(dpi))
	f := drawPlot(draw.New(c), float64(dpi), series, w, y, width, height, opt)
	// The canvas draws on its own copy of img.
	if out, ok := c.Image().(*image.RGBA); ok {
		return out, f
	}
	out := image.NewRGBA(img.Bounds())
	stddraw.Draw(out, out.Bounds(), c.Image(), image.Point{}, stddraw.Src)
	return out, f
}

// RenderSVG draws the same plot as Render as an SVG document of width×height
// pixels (at 96 pixels per inch).
func RenderSVG(series []plot.Series, w plot.Window, y plot.YRange, width, height int, opt plot.Options) ([]byte, plot.Frame, error) {
	if width <= 0 || height <= 0 {
		return nil, plot.Frame{}, ErrNoSize
	}
	dpi := 96 * scaleOf(opt)
	c := vgsvg.NewWith(vgsvg.UseWH(vg.Length(float64(width)*72/dpi), vg.Length(float64(height)*72/dpi)))
	var f plot.Frame
	if width >= plot.MinSize && height >= plot.MinSize {
		f = drawPlot(draw.New(c), dpi, series, w, y, width, height, opt)
	}
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, plot.Frame{}, err
	}
	return buf.Bytes(), f, nil
}

func scaleOf(opt plot.Options) float64 {
	if opt.Scale <= 0 {
		return 1
	}
	return opt.Scale
}

// Theme.
var (
	gridColor = color.RGBA{0xE4, 0xE4, 0xE4, 0xFF}
	axisColor = color.RGBA{0x55, 0x55, 0x55, 0xFF}
	textColor = color.RGBA{0x22, 0x22, 0x22, 0xFF}
)

// newImage is the image a plot of width×height pixels is drawn on; ok is
// false when that is too small for a plot and the image stays blank (empty
// for no pixels, white below plot.MinSize).
func newImage(width, height int) (img *image.RGBA, ok bool) {
	if width <= 0 || height <= 0 {
		return image.NewRGBA(image.Rect(0, 0, max(width, 0), max(height, 0))), false
	}
	img = image.NewRGBA(image.Rect(0, 0, width, height))
	if width < plot.MinSize || height < plot.MinSize {
		for i := range img.Pix {
			img.Pix[i] = 0xFF
		}
		return img, false
	}
	return img, true
}

// px converts logical pixels (1/96 inch) to points.
func px(n float64) vg.Length { return vg.Length(n * 72 / 96) }

// newPlot is a gonum plot in the export's style: white, with the title
// and both axes in the theme's colours and sizes, and a light grid.
func newPlot(title string) *gplot.Plot {
	p := gplot.New()
	p.BackgroundColor = color.White
	p.Title.Text = title
	p.Title.TextStyle.Color = textColor
	p.Title.Padding = px(8)
	p.Title.TextStyle.Font = sans(px(15))
	for _, a := range []*gplot.Axis{&p.X, &p.Y} {
		a.Tick.Label.Font = sans(px(12))
		a.Label.TextStyle.Font = sans(px(13))
		a.Padding = 0
		a.Color = axisColor
		a.Width = px(1)
		a.Tick.Color = axisColor
		a.Tick.Width = px(1)
		a.Tick.Length = px(5)
		a.Tick.Label.Color = textColor
		a.Label.TextStyle.Color = textColor
		a.Label.Padding = px(4)
	}
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = gridColor, gridColor
	grid.Vertical.Width, grid.Horizontal.Width = px(1), px(1)
	p.Add(grid)
	return p
}

// newLegend is a legend in the export's style.
func newLegend() gplot.Legend {
	leg := gplot.NewLegend()
	leg.TextStyle.Font = sans(px(12))
	leg.TextStyle.Color = textColor
	leg.ThumbnailWidth = px(22)
	leg.Padding = px(4)
	return leg
}

// drawPlot lays out and draws the plot on c (width×height pixels at dpi) and
// returns its frame.
func drawPlot(c draw.Canvas, dpi float64, series []plot.Series, w plot.Window, yr plot.YRange, width, height int, opt plot.Options) plot.Frame {
	if w.T1 <= w.T0 {
		w = plot.Window{T0: w.T0 - int64(time.Second)/2, T1: w.T0 + int64(time.Second)/2}
	}
	cols := width
	dec := make([]plot.Series, len(series))
	for i, s := range series {
		dec[i] = plot.Decimate(plot.Series{}, s, w, cols)
	}
	y0, y1 := yRange(dec, w, yr)

	p := newPlot(opt.Title)
	xs := func(t int64) float64 { return float64(t-opt.Origin) / 1e9 }
	p.X.Min, p.X.Max = xs(w.T0), xs(w.T1)
	p.Y.Min, p.Y.Max = y0, y1
	p.X.Label.Text = opt.XLabel
	xTicks := max(2, (width-200)/100)
	if opt.Absolute {
		p.X.Tick.Marker = absoluteTicks{origin: opt.Origin, N: xTicks}
		if p.X.Label.Text == "" {
			p.X.Label.Text = "time (UTC, " + time.Unix(0, w.T0).UTC().Format("2006-01-02") + ")"
		}
	} else if plot.InSeconds(p.X.Max-p.X.Min, xTicks) {
		p.X.Tick.Marker = decimalTicks{N: xTicks}
		if p.X.Label.Text == "" {
			p.X.Label.Text = "time (s)"
		}
	} else {
		// Minutes, hours or days, each tick with its unit, as the
		// window's axis: a 6-day plot is not labelled in 43200 s.
		p.X.Tick.Marker = spanTicks{N: xTicks}
		if p.X.Label.Text == "" {
			p.X.Label.Text = "time from the start"
		}
	}
	p.Y.Label.Text = opt.YLabel
	p.Y.Tick.Marker = decimalTicks{N: max(2, (height-100)/60)}

	leg := newLegend()
	leg.Top, leg.Left = true, true
	for i, s := range dec {
		lp := &linePlotter{s: s, origin: opt.Origin, style: draw.LineStyle{Color: plot.ColorOf(series[i], i), Width: px(1.5)}}
		p.Add(lp)
		leg.Add(legendName(s.Name), lp)
	}

	// Lay out: a margin all round, the legend in a column on the right so it
	// never covers data.
	margin := px(10)
	area := draw.Crop(c, margin, -margin, margin, -margin)
	var legW vg.Length
	if len(dec) > 0 {
		r := leg.Rectangle(area)
		legW = r.Max.X - r.Min.X + px(16)
		if maxW := (area.Max.X - area.Min.X) * 0.4; legW > maxW {
			legW = maxW
		}
	}
	plotArea := draw.Crop(area, 0, -legW, 0, 0)
	p.Draw(plotArea)
	dc := p.DataCanvas(plotArea)
	if len(dec) > 0 {
		legArea := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: plotArea.Max.X + px(16), Y: dc.Min.Y},
			Max: vg.Point{X: area.Max.X, Y: dc.Max.Y},
		}}
		leg.Draw(legArea)
	}

	k := dpi / 72
	H := float64(height)
	return plot.Frame{
		Width: width, Height: height,
		Data: plot.Rect{
			X0: float64(dc.Min.X) * k, X1: float64(dc.Max.X) * k,
			Y0: H - float64(dc.Max.Y)*k, Y1: H - float64(dc.Min.Y)*k,
		},
		Window: w, Y0: y0, Y1: y1, Origin: opt.Origin,
	}
}

// legendName shortens very long names.
func legendName(s string) string {
	const max = 48
	if r := []rune(s); len(r) > max {
		return string(r[:max/2-1]) + "…" + string(r[len(r)-max/2:])
	}
	return s
}

// yRange returns the value axis' range: fixed, or the finite minimum and
// maximum of the decimated points inside w (exact, since decimation keeps
// every column's extremes) with a 5% margin.
func yRange(dec []plot.Series, w plot.Window, yr plot.YRange) (float64, float64) {
	if yr.Fixed && yr.Max > yr.Min && finite(yr.Min) && finite(yr.Max) {
		return yr.Min, yr.Max
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range dec {
		for i, t := range s.T {
			if v := s.V[i]; t >= w.T0 && t <= w.T1 && finite(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if lo > hi {
		return 0, 1
	}
	return plot.PadRange(lo, hi)
}

// sans returns the Liberation Sans face of the given size.
func sans(size vg.Length) font.Font {
	return font.Font{Typeface: "Liberation", Variant: "Sans", Size: size}
}
