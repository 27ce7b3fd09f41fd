package plots

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/plot/render"
)

// Export image size, in pixels.
const exportW, exportH = 1600, 900

// exportKind is what the Export menu writes.
type exportKind string

const (
	exportPNG exportKind = "png"
	exportSVG exportKind = "svg"
	exportCSV exportKind = "csv"
)

// export writes the panel's shown series over the shared visible window:
// a PNG or SVG image drawn with gonum/plot (as `bagscope plot` draws it),
// or the points as CSV (one time column, one column per series, empty
// where a series has no sample at that time). An XY plot's image shows
// its paths in its current bounds with the cursor's points marked, its CSV
// each path's x and y columns.
func (p *plotPanel) export(kind exportKind, out io.Writer) error {
	job, err := p.exporter(kind)
	if err != nil {
		return err
	}
	return job(p.g.l.Context(), out)
}

// exportJob writes an export; it may read the bag (a CSV of a reduced
// series reads its points in the window again), so it runs in the
// background, on what the plot showed when it was made.
type exportJob func(ctx context.Context, out io.Writer) error

// exporter makes the job of export, from what the panel shows now.
func (p *plotPanel) exporter(kind exportKind) (exportJob, error) {
	g := p.g
	w := g.win
	csvOpt := g.csvOptions()
	if p.xy != nil {
		paths := p.xy.visibleData()
		if len(paths) == 0 {
			return nil, fmt.Errorf("nothing to export: the plot shows no path")
		}
		switch kind {
		case exportCSV:
			return func(_ context.Context, out io.Writer) error { return plot.WriteXYCSV(out, paths, w, csvOpt) }, nil
		case exportPNG, exportSVG:
			v := p.xy.view
			opt := plot.XYOptions{Title: g.l.Doc().Name, Equal: v.Equal, Cursor: p.xy.cursor, HasCursor: p.xy.hasCursor}
			if v.Fixed {
				opt.Bounds = v.B
			}
			return func(_ context.Context, out io.Writer) error {
				return render.WriteXY(out, plot.Format(kind), paths, w, exportW, exportH, opt)
			}, nil
		}
		return nil, fmt.Errorf("unknown export format %q", kind)
	}
	srcs := p.canvas.visible()
	series := p.visibleData()
	if len(series) == 0 {
		return nil, fmt.Errorf("nothing to export: the plot shows no series")
	}
	switch kind {
	case exportCSV:
		return g.csvJob(srcs, series, w, csvOpt), nil
	case exportPNG, exportSVG:
		opt := plot.Options{Title: g.l.Doc().Name, Origin: g.origin, Absolute: g.absolute, XLabel: p.xLabel()}
		y := p.canvas.view.Y
		return func(_ context.Context, out io.Writer) error {
			_, err := render.Write(out, plot.Format(kind), series, w, y, exportW, exportH, opt)
			return err
		}, nil
	}
	return nil, fmt.Errorf("unknown export format %q", kind)
}

// hasData reports whether the panel shows something to export.
func (p *plotPanel) hasData() bool {
	if p.xy != nil {
		return len(p.xy.visibleData()) > 0
	}
	return len(p.visibleData()) > 0
}

// xLabel names the time axis of an exported image.
func (p *plotPanel) xLabel() string {
	what := map[series.TimeBase]string{series.ReceiveTime: "receive time", series.HeaderStamp: "header.stamp",
		series.PublishTime: "publish time", series.ClockTime: "sim time of /clock"}[p.base()]
	if p.base() == series.ClockTime {
		return what + " (s since its first value, " + strconv.FormatFloat(float64(p.g.origin)/1e9, 'f', -1, 64) + " s)"
	}
	start := time.Unix(0, p.g.origin).UTC()
	if p.g.absolute {
		return what + " (UTC, " + start.Format("2006-01-02") + ")"
	}
	return what + " (s since the bag's start, " + start.Format("2006-01-02 15:04:05 UTC") + ")"
}

// exportName suggests a file name: the bag's name and the first series
// (an XY plot's first path: its x field, "_vs_" and its y field).
func (p *plotPanel) exportName(kind exportKind) string {
	base := strings.TrimSuffix(p.g.l.Doc().Name, filepath.Ext(p.g.l.Doc().Name))
	clean := strings.NewReplacer("/", "_", "[", "_", "]", "", "@", "", "(", "_", ")", "", ",", "_", " ", "")
	part := func(s string) string { return strings.Trim(clean.Replace(s), "_") }
	if p.xy != nil {
		if vis := p.xy.visible(); len(vis) > 0 {
			base += "_" + part(vis[0].xExpr.String()) + "_vs_" + part(vis[0].yExpr.String())
		}
	} else if vis := p.canvas.visible(); len(vis) > 0 {
		base += "_" + part(vis[0].key())
	}
	return base + "." + string(kind)
}

// showExportMenu offers the export formats of the selected plot under the
// Export button.
func (g *View) showExportMenu() {
	c := fyne.CurrentApp().Driver().CanvasForObject(g.exportBtn)
	if c == nil {
		return
	}
	item := func(label string, kind exportKind) *fyne.MenuItem {
		return fyne.NewMenuItem(label, func() { g.current.saveAs(kind) })
	}
	menu := fyne.NewMenu("",
		item("PNG image of the selected plot…", exportPNG),
		item("SVG image of the selected plot…", exportSVG),
		item("CSV of the selected plot's visible range…", exportCSV),
		fyne.NewMenuItem("CSV of every plot's visible range…", g.saveAllCSV),
	)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(g.exportBtn)
	widget.ShowPopUpMenuAtPosition(menu, c, pos.AddXY(0, g.exportBtn.Size().Height))
}

// allSeries is every shown series of every panel (an XY path as its x and
// y columns), each once, for a CSV of all plots.
// srcs holds the plot series behind each (nil for an XY path's columns).
func (g *View) allSeries() (out []plot.Series, srcs []*plotSeries) {
	seen := map[string]bool{}
	add := func(s plot.Series, src *plotSeries) {
		if !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s)
			srcs = append(srcs, src)
		}
	}
	for _, p := range g.panels {
		if p.xy != nil {
			for _, path := range p.xy.visibleData() {
				x, y := path.Series()
				add(x, nil)
				add(y, nil)
			}
			continue
		}
		for _, s := range p.canvas.visible() {
			add(s.data(), s)
		}
	}
	return out, srcs
}

// exportAllCSV writes every plot's shown series over the visible window
// as one CSV, merged on their times.
func (g *View) exportAllCSV(out io.Writer) error {
	job, err := g.allCSVExporter()
	if err != nil {
		return err
	}
	return job(g.l.Context(), out)
}

// allCSVExporter makes the job of exportAllCSV from what the plots show
// now.
func (g *View) allCSVExporter() (exportJob, error) {
	series, srcs := g.allSeries()
	if len(series) == 0 {
		return nil, fmt.Errorf("nothing to export: no plot shows a series")
	}
	return g.csvJob(srcs, series, g.win, g.csvOptions()), nil
}

// csvOptions is how the CSV exports write times, whatever the axis shows:
// seconds from the bag's start, then the absolute time in nanoseconds and
// in ISO 8601 (UTC), so the rows can be read alone and joined with other
// data.
func (g *View) csvOptions() plot.CSVOptions {
	return plot.CSVOptions{Origin: g.origin, Stamps: true}
}

// csvJob writes the CSV of series (shown for srcs) over window w, each
// reduced one read again whole.
func (g *View) csvJob(srcs []*plotSeries, series []plot.Series, w plot.Window, opt plot.CSVOptions) exportJob {
	return func(ctx context.Context, out io.Writer) error {
		exact, err := g.exactSeries(ctx, srcs, series, w)
		if err != nil {
			return err
		}
		return plot.WriteCSV(out, exact, w, opt)
	}
}

// saveAllCSV asks where to save the CSV of every plot and writes it.
func (g *View) saveAllCSV() {
	win := windowOf(g.exportBtn)
	if win == nil {
		return
	}
	if s, _ := g.allSeries(); len(s) == 0 {
		dialog.ShowInformation("Nothing to export", "Add a series to a plot (or show a hidden one) first.", win)
		return
	}
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			dialog.ShowError(err, win)
			return
		}
		if wc == nil {
			return
		}
		job, err := g.allCSVExporter()
		g.runExport(job, err, wc, win)
	}, win)
	d.SetFileName(strings.TrimSuffix(g.l.Doc().Name, filepath.Ext(g.l.Doc().Name)) + "_plots.csv")
	d.Show()
}

// saveAs asks where to save and writes the export there.
func (p *plotPanel) saveAs(kind exportKind) {
	win := windowOf(p.g.exportBtn)
	if win == nil {
		return
	}
	if !p.hasData() {
		dialog.ShowInformation("Nothing to export", "Add a series to the selected plot (or show a hidden one) first.", win)
		return
	}
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			dialog.ShowError(err, win)
			return
		}
		if wc == nil {
			return // cancelled
		}
		job, err := p.exporter(kind)
		p.g.runExport(job, err, wc, win)
	}, win)
	d.SetFileName(p.exportName(kind))
	d.Show()
}

// windowOf returns the window that shows o.
func windowOf(o fyne.CanvasObject) fyne.Window {
	app := fyne.CurrentApp()
	c := app.Driver().CanvasForObject(o)
	for _, w := range app.Driver().AllWindows() {
		if w.Canvas() == c {
			return w
		}
	}
	return nil
}

// runExport runs an export job in the background, writing to wc, and
// shows what went wrong in win when it is done.
func (g *View) runExport(job exportJob, err error, wc fyne.URIWriteCloser, win fyne.Window) {
	if err != nil {
		wc.Close()
		dialog.ShowError(fmt.Errorf("%s: %w", wc.URI().Name(), err), win)
		return
	}
	var werr error
	g.l.Go(func(ctx context.Context) {
		werr = job(ctx, wc)
		if cerr := wc.Close(); werr == nil {
			werr = cerr
		}
	}, func() {
		if werr != nil {
			dialog.ShowError(fmt.Errorf("%s: %w", wc.URI().Name(), werr), win)
		}
	})
}
