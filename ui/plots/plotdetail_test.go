package plots

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/ui/widgets"
)

// TestPlotReducedSeries plots robot.bag's /odom (200 messages) with the
// point bound lowered to 40: the plot keeps a reduced overview but counts
// every point; zoomed in, it reads and draws the window's own points, which
// equal the whole series' there; a tap on one selects its message; and the
// CSV has every point, as without the bound.
func TestPlotReducedSeries(t *testing.T) {
	const path = "../../testdata/robot.bag"
	csvOf := func(maxPoints int, zoom bool) (string, *View) {
		old := plotMaxPoints
		plotMaxPoints = maxPoints
		t.Cleanup(func() { plotMaxPoints = old })
		g, _ := newTestPlots(t, path)
		g.l.Actions().AddSeries("/odom.pose.pose.position.x")
		p := g.panels[0]
		p.canvas.Refresh()
		if zoom {
			w := g.win
			d := w.Duration() / 20
			g.setWindow(plot.Window{T0: w.T0 + 5*d, T1: w.T0 + 6*d}, true)
			p.canvas.Refresh()
		}
		var buf bytes.Buffer
		if err := p.export(exportCSV, &buf); err != nil {
			t.Fatal(err)
		}
		return buf.String(), g
	}
	wantAll, _ := csvOf(1<<20, false)
	gotAll, g := csvOf(40, false)
	p := g.panels[0]
	s := p.series[0]
	if !s.ms.Reduced() || s.ms.Len() >= 200 || s.points() != 200 {
		t.Fatalf("reduced %v, %d points kept, %d counted; want reduced, under 200 kept, 200 counted", s.ms.Reduced(), s.ms.Len(), s.points())
	}
	if !bytes.Contains([]byte(legendTexts(p)), []byte("200 points")) {
		t.Errorf("legend %q does not count the 200 points", legendTexts(p))
	}
	note := ""
	for _, o := range test.LaidOutObjects(p.legend) {
		if c, ok := o.(*widgets.ClipLabel); ok && strings.Contains(c.Tip(), "Drawn from") {
			note = c.ToolTip()
		}
	}
	if !strings.Contains(note, "\n200 points\nDrawn from ") || !strings.Contains(note, "CSV export has every point") {
		t.Errorf("the legend's tooltip for the reduced series is %q", note)
	}
	if gotAll != wantAll {
		t.Errorf("CSV of the reduced series differs from the whole series'\n%.300s\nwant\n%.300s", gotAll, wantAll)
	}
	if s.detail.use || s.detail.series != nil {
		t.Error("the overview of the whole bag was read again")
	}

	wantZoom, _ := csvOf(1<<20, true)
	gotZoom, g := csvOf(40, true)
	p = g.panels[0]
	s = p.series[0]
	if gotZoom != wantZoom {
		t.Errorf("CSV of the zoomed window differs\n%.300s\nwant\n%.300s", gotZoom, wantZoom)
	}
	if !s.detail.use || s.detail.series == nil {
		t.Fatal("zoomed in, the plot does not draw the window's points")
	}
	whole, err := series.Extract(context.Background(), g.l.Doc().Storage, &rosmsg.Cache{},
		series.Request{Fields: []series.FieldRef{s.ms.Ref}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ws := whole.Series[0]
	d := s.data()
	i0, i1 := d.Span(g.win)
	j0, j1 := plot.Series{T: ws.T, V: ws.V}.Span(g.win)
	if i1-i0 != j1-j0 || i1 == i0 {
		t.Fatalf("drawn %d points in the window, the series has %d there", i1-i0, j1-j0)
	}
	for k := 0; k < i1-i0; k++ {
		if d.Time(i0+k) != ws.T[j0+k] || d.V[i0+k] != ws.V[j0+k] {
			t.Fatalf("drawn point %d is (%d, %g), the series' is (%d, %g)", k, d.Time(i0+k), d.V[i0+k], ws.T[j0+k], ws.V[j0+k])
		}
	}

	// A tap on a drawn point of the window selects its message.
	c := p.canvas
	c.Refresh()
	i := i0 + (i1-i0)/2
	f := c.view.Frame
	c.Tapped(&fyne.PointEvent{Position: fyne.NewPos(float32(f.X(d.Time(i))), float32(f.Y(d.V[i]))+2)})
	msg, ok := g.l.Message()
	if !ok || msg.T != d.Time(i) {
		t.Errorf("tap on the point at %d selected %+v (%v, error %q)", d.Time(i), msg, ok, p.errText.Text)
	}

	// Back to the whole bag, the overview draws again.
	g.fit()
	if s.detail.use {
		t.Error("fitted to the whole bag, the window's points are still drawn")
	}
}
