package plots

import (
	"context"
	"fmt"
	"sync"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
)

// plotMaxPoints bounds the points a plotted field keeps (series.Request
// MaxPoints): a field with more messages than that is kept as a reduced
// overview of the whole bag (a quarter as many time buckets, each with its
// first, lowest, highest and last point), and when the window is zoomed
// past one bucket a pixel, the points of the window in view (and half of
// it either side) are read again, reduced the same way if still too many.
// So a plot costs at most about twice this many points a series, however
// many messages the bag has. A variable for tests.
var plotMaxPoints = 1 << 17

// detailState is a reduced series' read of the window in view.
type detailState struct {
	series *series.Series // the points of win, once read
	win    plot.Window    // the window series holds
	// pending is the window being read, cancel stops that read, gen tells
	// its end whether it is still wanted.
	pending plot.Window
	cancel  context.CancelFunc
	gen     int
	// use: series covers the shared window at one bucket a pixel or finer.
	use bool
}

// stop cancels a running read of the window.
func (d *detailState) stop() {
	if d.cancel != nil {
		d.cancel()
		d.cancel = nil
	}
	d.gen++
}

// shown is the extracted series drawn for a field path: its points in the
// window when they were read for it, else the field's series.
func (s *plotSeries) shown() *series.Series {
	if s.detail.use && s.detail.series != nil {
		return s.detail.series
	}
	return s.ms
}

// fine reports whether series m, holding the points of window have (for a
// reduced one, in buckets of m.Bucket ns), draws window w at perPixel ns a
// pixel: it covers w and its buckets are no wider than a pixel.
func fine(m *series.Series, have, w plot.Window, perPixel int64) bool {
	if m == nil || have.T0 > w.T0 || have.T1 < w.T1 {
		return false
	}
	return !m.Reduced() || m.Bucket <= perPixel
}

// perPixel is the nanoseconds one device pixel of panel p spans at window
// w.
func (p *plotPanel) perPixel(w plot.Window) int64 {
	cols := int64(p.canvas.view.Frame.Data.Dx() * float64(canvasScale(p.canvas)))
	if cols < 100 {
		cols = 2000 // not laid out yet: assume a wide plot
	}
	return max(1, w.Duration()/cols)
}

// useDetail decides, for each reduced series of the plots, whether its
// read of the window draws the shared window (see shown). It is cheap, for
// every step of a gesture.
func (g *View) useDetail() {
	for _, p := range g.panels {
		for _, s := range p.series {
			if s.ms == nil || !s.ms.Reduced() {
				continue
			}
			w := clipWindow(g.win, s.ms)
			s.detail.use = fine(s.detail.series, s.detail.win, w, p.perPixel(w))
		}
	}
}

// clipWindow is w within the receive times a reduced series covers.
func clipWindow(w plot.Window, m *series.Series) plot.Window {
	return plot.Window{T0: max(w.T0, m.From), T1: min(w.T1, m.To)}
}

// refine reads, for each reduced series whose overview is too coarse for
// the shared window and which has no read of it, the points of the window
// and half of it on either side.
func (g *View) refine() {
	g.useDetail()
	for _, p := range g.panels {
		if p.xy != nil {
			continue
		}
		for _, s := range p.series {
			if s.ms == nil || !s.ms.Reduced() || s.detail.use {
				continue
			}
			w := clipWindow(g.win, s.ms)
			if w.T1 < w.T0 {
				continue
			}
			px := p.perPixel(w)
			if s.ms.Bucket <= px {
				s.detail.stop() // the overview draws it
				continue
			}
			if pw := s.detail.pending; s.detail.cancel != nil && pw.T0 <= w.T0 && pw.T1 >= w.T1 && pw.Duration() <= 3*max(w.Duration(), 1) {
				continue // a read of about this window runs
			}
			half := w.Duration() / 2
			rw := clipWindow(plot.Window{T0: w.T0 - half, T1: w.T1 + half}, s.ms)
			if 2*rw.Duration() > s.ms.To-s.ms.From {
				// Read again, the window would come as coarse: the
				// plot is narrower than the overview's buckets, and
				// the overview is what there is.
				s.detail.stop()
				continue
			}
			g.readDetail(p, s, rw)
		}
	}
}

// readDetail reads the points of window w of reduced series s in the
// background.
func (g *View) readDetail(p *plotPanel, s *plotSeries, w plot.Window) {
	d := &s.detail
	d.stop()
	ctx, cancel := context.WithCancel(g.l.Context())
	d.cancel, d.pending = cancel, w
	gen := d.gen
	req := series.Request{Base: g.base, Clock: g.clockOrNil(), Compact: true, MaxPoints: plotMaxPoints, Distrust: g.l.Doc().Distrust(),
		Fields: []series.FieldRef{s.ms.Ref}, Start: bag.TimeFromNanos(w.T0), End: bag.TimeFromNanos(w.T1)}
	name := s.ms.Name
	var mu sync.Mutex
	var got *series.Series
	var err error
	g.l.Go(func(context.Context) {
		set, e := series.Extract(ctx, g.l.Doc().Storage, &g.cache, req, nil)
		mu.Lock()
		defer mu.Unlock()
		if err = e; e == nil {
			for _, m := range set.Series {
				if m.Name == name {
					got = m
				}
			}
		}
	}, func() {
		cancel()
		mu.Lock()
		defer mu.Unlock()
		if d.gen != gen {
			return // stopped, or another window asked for since
		}
		d.cancel = nil
		if err != nil {
			p.setError("Could not read the points of " + name + " in view: " + err.Error())
			return
		}
		if got == nil {
			got = &series.Series{Ref: s.ms.Ref, Name: name}
		}
		d.series, d.win = got, w
		g.useDetail()
		p.canvas.Refresh()
	})
}

// exactSeries returns the shown series of a plot for an export of window w
// in which every point counts (CSV): each reduced series read again whole
// over w. srcs are the plot series behind shown, in the same order.
func (g *View) exactSeries(ctx context.Context, srcs []*plotSeries, shown []plot.Series, w plot.Window) ([]plot.Series, error) {
	var refs []series.FieldRef
	var at []int
	for i, s := range srcs {
		if s == nil {
			continue // an XY path's column, kept whole
		}
		if m := s.shown(); m != nil && m.Reduced() {
			refs = append(refs, s.ms.Ref)
			at = append(at, i)
		}
	}
	if len(refs) == 0 {
		return shown, nil
	}
	req := series.Request{Base: g.base, Clock: g.clockOrNil(), Compact: true, Fields: refs, Start: bag.TimeFromNanos(w.T0), End: bag.TimeFromNanos(w.T1), Distrust: g.l.Doc().Distrust()}
	set, err := series.Extract(ctx, g.l.Doc().Storage, &g.cache, req, nil)
	if err != nil {
		return nil, err
	}
	out := append([]plot.Series(nil), shown...)
	for _, i := range at {
		name := srcs[i].ms.Name
		out[i].T, out[i].C, out[i].V = nil, nil, nil // no point in w
		for _, m := range set.Series {
			if m.Name == name {
				out[i].T, out[i].C, out[i].V = m.T, m.C, m.V
			}
		}
	}
	return out, nil
}

// reducedNote explains a reduced series' legend line in its tooltip.
func reducedNote(m *series.Series) string {
	b := human.Seconds(m.Bucket, 3)
	return fmt.Sprintf("Drawn from %s of them: the first, lowest, highest and last point of each %s s, "+
		"the same line while a pixel spans %s s or more. Zoomed in further, the points in view are read and drawn; "+
		"a CSV export has every point.", human.Count(uint64(m.Len())), b, b)
}
