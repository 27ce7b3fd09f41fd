package render

import (
	"github.com/bagscope/bagscope/plot"

	"bytes"
	"fmt"
	"image"
	"image/color"
	stddraw "image/draw"
	"image/png"
	"io"
	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// RenderXY draws the points of paths whose times lie in w into a
// width×height image with gonum/plot, as Render does for time series, and
// returns the frame that maps pixels to data.
func RenderXY(paths []plot.XY, w plot.Window, width, height int, opt plot.XYOptions) (*image.RGBA, plot.XYFrame) {
	img, ok := newImage(width, height)
	if !ok {
		return img, plot.XYFrame{}
	}
	scale := opt.Scale
	if scale <= 0 {
		scale = 1
	}
	dpi := int(math.Round(96 * scale))
	c := vgimg.NewWith(vgimg.UseImage(img), vgimg.UseDPI(dpi))
	f := drawXY(draw.New(c), float64(dpi), paths, w, width, height, opt)
	if out, ok := c.Image().(*image.RGBA); ok {
		return out, f
	}
	out := image.NewRGBA(img.Bounds())
	stddraw.Draw(out, out.Bounds(), c.Image(), image.Point{}, stddraw.Src)
	return out, f
}

// WriteXY renders the XY plot and writes it to out as a PNG or an SVG
// document.
func WriteXY(out io.Writer, f plot.Format, paths []plot.XY, w plot.Window, width, height int, opt plot.XYOptions) error {
	if width <= 0 || height <= 0 {
		return ErrNoSize
	}
	switch f {
	case plot.PNG:
		img, _ := RenderXY(paths, w, width, height, opt)
		return png.Encode(out, img)
	case plot.SVG:
		scale := opt.Scale
		if scale <= 0 {
			scale = 1
		}
		dpi := 96 * scale
		c := vgsvg.NewWith(vgsvg.UseWH(vg.Length(float64(width)*72/dpi), vg.Length(float64(height)*72/dpi)))
		if width >= plot.MinSize && height >= plot.MinSize {
			drawXY(draw.New(c), dpi, paths, w, width, height, opt)
		}
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			return err
		}
		_, err := out.Write(buf.Bytes())
		return err
	}
	return fmt.Errorf("unknown image format %q", f)
}

// xyPlotter draws one path, in time order, broken at gaps.
type xyPlotter struct {
	p      plot.XY
	i, j   int
	style  draw.LineStyle
	cursor int // the index to mark, or -1
}

func (l *xyPlotter) Plot(c draw.Canvas, p *gplot.Plot) {
	tx, ty := p.Transforms(&c)
	var pts []vg.Point
	flush := func() {
		for len(pts) > 32 {
			c.StrokeLines(l.style, pts[:32])
			pts = pts[31:]
		}
		if len(pts) > 1 {
			c.StrokeLines(l.style, pts)
		} else if len(pts) == 1 {
			c.DrawGlyph(draw.GlyphStyle{Color: l.style.Color, Radius: l.style.Width * 1.2, Shape: draw.CircleGlyph{}}, pts[0])
		}
		pts = pts[:0]
	}
	for k := l.i; k < l.j; k++ {
		x, y := l.p.X[k], l.p.Y[k]
		if !finite(x) || !finite(y) {
			flush()
			continue
		}
		pts = append(pts, vg.Point{X: tx(x), Y: ty(y)})
	}
	flush()
	if l.cursor >= 0 {
		x, y := l.p.X[l.cursor], l.p.Y[l.cursor]
		if finite(x) && finite(y) {
			pt := vg.Point{X: tx(x), Y: ty(y)}
			if c.Contains(pt) {
				c.DrawGlyph(draw.GlyphStyle{Color: color.White, Radius: l.style.Width * 4, Shape: draw.CircleGlyph{}}, pt)
				c.DrawGlyph(draw.GlyphStyle{Color: l.style.Color, Radius: l.style.Width * 4, Shape: draw.RingGlyph{}}, pt)
			}
		}
	}
}

func (l *xyPlotter) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	sty := l.style
	sty.Width *= 2
	c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
}

// drawXY lays out and draws the XY plot on c and returns its frame.
func drawXY(c draw.Canvas, dpi float64, paths []plot.XY, w plot.Window, width, height int, opt plot.XYOptions) plot.XYFrame {
	p := newPlot(opt.Title)
	p.X.Label.Text, p.Y.Label.Text = opt.XLabel, opt.YLabel
	if len(paths) > 0 {
		if p.X.Label.Text == "" {
			p.X.Label.Text = paths[0].XName
		}
		if p.Y.Label.Text == "" {
			p.Y.Label.Text = paths[0].YName
		}
	}
	p.X.Tick.Marker = decimalTicks{N: max(2, (width-200)/100)}
	p.Y.Tick.Marker = decimalTicks{N: max(2, (height-100)/60)}

	leg := newLegend()
	for k, path := range paths {
		i, j := path.Span(w)
		cur := -1
		if opt.HasCursor {
			if at, ok := path.At(opt.Cursor); ok && at >= i && at < j {
				cur = at
			}
		}
		col := path.Color
		if col == nil {
			col = plot.PaletteColor(k)
		}
		lp := &xyPlotter{p: path, i: i, j: j, style: draw.LineStyle{Color: col, Width: px(1.5)}, cursor: cur}
		p.Add(lp)
		leg.Add(legendName(path.Name), lp)
	}

	b := opt.Bounds
	if !b.Valid() {
		var ok bool
		if b, ok = plot.XYExtent(paths, w); ok {
			b = b.Pad()
		} else {
			b = plot.Bounds{X0: -1, X1: 1, Y0: -1, Y1: 1}
		}
	}
	margin := px(10)
	area := draw.Crop(c, margin, -margin, margin, -margin)
	var legW vg.Length
	if len(paths) > 0 {
		r := leg.Rectangle(area)
		legW = min(r.Max.X-r.Min.X+px(16), (area.Max.X-area.Min.X)*0.4)
	}
	plotArea := draw.Crop(area, 0, -legW, 0, 0)
	set := func(b plot.Bounds) {
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = b.X0, b.X1, b.Y0, b.Y1
	}
	set(b)
	if opt.Equal {
		// The data area depends on the tick labels, which depend on the
		// bounds: settle in two rounds.
		for range 2 {
			dc := p.DataCanvas(plotArea)
			set(b.Equal(float64(dc.Max.X-dc.Min.X), float64(dc.Max.Y-dc.Min.Y)))
		}
	}
	p.Draw(plotArea)
	dc := p.DataCanvas(plotArea)
	if len(paths) > 0 {
		leg.Draw(draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: plotArea.Max.X + px(16), Y: dc.Min.Y},
			Max: vg.Point{X: area.Max.X, Y: dc.Max.Y},
		}})
	}
	k := dpi / 72
	H := float64(height)
	return plot.XYFrame{
		Width: width, Height: height,
		Data: plot.Rect{X0: float64(dc.Min.X) * k, X1: float64(dc.Max.X) * k, Y0: H - float64(dc.Max.Y)*k, Y1: H - float64(dc.Min.Y)*k},
		B:    plot.Bounds{X0: p.X.Min, X1: p.X.Max, Y0: p.Y.Min, Y1: p.Y.Max},
	}
}
