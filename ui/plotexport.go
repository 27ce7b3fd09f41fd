package ui

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/plot"
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
	g := p.g
	w := g.win
	if p.xy != nil {
		paths := p.xy.visibleData()
		if len(paths) == 0 {
			return fmt.Errorf("nothing to export: the plot shows no path")
		}
		switch kind {
		case exportCSV:
			return plot.WriteXYCSV(out, paths, w, plot.CSVOptions{Origin: g.origin, Absolute: g.absolute})
		case exportPNG, exportSVG:
			v := p.xy.view
			opt := plot.XYOptions{Title: g.l.d.Name, Equal: v.Equal, Cursor: p.xy.cursor, HasCursor: p.xy.hasCursor}
			if v.Fixed {
				opt.Bounds = v.B
			}
			return plot.WriteXY(out, plot.Format(kind), paths, w, exportW, exportH, opt)
		}
		return fmt.Errorf("unknown export format %q", kind)
	}
	series := p.visibleData()
	if len(series) == 0 {
		return fmt.Errorf("nothing to export: the plot shows no series")
	}
	switch kind {
	case exportCSV:
		return plot.WriteCSV(out, series, w, plot.CSVOptions{Origin: g.origin, Absolute: g.absolute})
	case exportPNG, exportSVG:
		opt := plot.Options{Title: g.l.d.Name, Origin: g.origin, Absolute: g.absolute, XLabel: p.xLabel()}
		_, err := plot.Write(out, plot.Format(kind), series, w, p.canvas.view.Y, exportW, exportH, opt)
		return err
	}
	return fmt.Errorf("unknown export format %q", kind)
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
	what := "receive time"
	if p.base() == model.HeaderStamp {
		what = "header.stamp"
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
	base := strings.TrimSuffix(p.g.l.d.Name, filepath.Ext(p.g.l.d.Name))
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
func (g *plotsView) showExportMenu() {
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
func (g *plotsView) allSeries() []plot.Series {
	var out []plot.Series
	seen := map[string]bool{}
	add := func(s plot.Series) {
		if !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s)
		}
	}
	for _, p := range g.panels {
		if p.xy != nil {
			for _, path := range p.xy.visibleData() {
				x, y := path.Series()
				add(x)
				add(y)
			}
			continue
		}
		for _, s := range p.visibleData() {
			add(s)
		}
	}
	return out
}

// exportAllCSV writes every plot's shown series over the visible window
// as one CSV, merged on their times.
func (g *plotsView) exportAllCSV(out io.Writer) error {
	series := g.allSeries()
	if len(series) == 0 {
		return fmt.Errorf("nothing to export: no plot shows a series")
	}
	return plot.WriteCSV(out, series, g.win, plot.CSVOptions{Origin: g.origin, Absolute: g.absolute})
}

// saveAllCSV asks where to save the CSV of every plot and writes it.
func (g *plotsView) saveAllCSV() {
	win := windowOf(g.exportBtn)
	if win == nil {
		return
	}
	if len(g.allSeries()) == 0 {
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
		werr := g.exportAllCSV(wc)
		if cerr := wc.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			dialog.ShowError(fmt.Errorf("%s: %w", wc.URI().Name(), werr), win)
		}
	}, win)
	d.SetFileName(strings.TrimSuffix(g.l.d.Name, filepath.Ext(g.l.d.Name)) + "_plots.csv")
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
		werr := p.export(kind, wc)
		if cerr := wc.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			dialog.ShowError(fmt.Errorf("%s: %w", wc.URI().Name(), werr), win)
		}
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
