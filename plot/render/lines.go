package render

import (
	"github.com/bagscope/bagscope/plot"

	"math"

	gplot "gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// linePlotter draws a decimated series as polylines broken at NaN points; an
// isolated point between two gaps is drawn as a dot, a suspect point as a
// ring.
type linePlotter struct {
	s      plot.Series
	origin int64
	style  draw.LineStyle
}

func (l *linePlotter) Plot(c draw.Canvas, p *gplot.Plot) {
	tx, ty := p.Transforms(&c)
	pts := make([]vg.Point, 0, len(l.s.T))
	var lines [][]vg.Point
	var dots []vg.Point
	start := 0
	end := func() {
		switch n := len(pts) - start; {
		case n == 1:
			dots = append(dots, pts[start])
		case n > 1:
			lines = append(lines, pts[start:len(pts):len(pts)])
		}
		start = len(pts)
	}
	for i, t := range l.s.T {
		v := l.s.V[i]
		if math.IsNaN(v) {
			end()
			continue
		}
		pts = append(pts, vg.Point{X: tx(float64(t-l.origin) / 1e9), Y: ty(v)})
	}
	end()
	// The rasteriser's cost grows with the cells of one path faster than
	// linearly: stroke pieces of a few dozen points (sharing their end
	// points, so the line stays continuous).
	const piece = 32
	for _, ln := range lines {
		for len(ln) > piece {
			c.StrokeLines(l.style, ln[:piece])
			ln = ln[piece-1:]
		}
		c.StrokeLines(l.style, ln)
	}
	glyph := draw.GlyphStyle{Color: l.style.Color, Radius: l.style.Width * 1.2, Shape: draw.CircleGlyph{}}
	for _, d := range dots {
		if c.Contains(d) {
			c.DrawGlyph(glyph, d)
		}
	}
	// A point read from a suspect message is drawn hollow.
	ring := draw.GlyphStyle{Color: l.style.Color, Radius: l.style.Width*1.2 + vg.Points(2.5), Shape: draw.RingGlyph{}}
	for i, t := range l.s.SuspectT {
		v := l.s.SuspectV[i]
		if math.IsNaN(v) || math.IsInf(v, 0) {
			continue
		}
		if pt := (vg.Point{X: tx(float64(t-l.origin) / 1e9), Y: ty(v)}); c.Contains(pt) {
			c.DrawGlyph(ring, pt)
		}
	}
}

// Thumbnail draws the legend sample: a short thick line.
func (l *linePlotter) Thumbnail(c *draw.Canvas) {
	y := c.Center().Y
	sty := l.style
	sty.Width *= 2
	c.StrokeLine2(sty, c.Min.X, y, c.Max.X, y)
}
