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
// where a series has no sample at that time).
func (p *plotPanel) export(kind exportKind, out io.Writer) error {
	series := p.visibleData()
	if len(series) == 0 {
		return fmt.Errorf("nothing to export: the plot shows no series")
	}
	w := p.g.win
	switch kind {
	case exportCSV:
		return plot.WriteCSV(out, series, w, plot.CSVOptions{Origin: p.g.origin, Absolute: p.absolute})
	case exportPNG, exportSVG:
		opt := plot.Options{Title: p.g.l.d.Name, Origin: p.g.origin, Absolute: p.absolute, XLabel: p.xLabel()}
		_, err := plot.Write(out, plot.Format(kind), series, w, p.canvas.view.Y, exportW, exportH, opt)
		return err
	}
	return fmt.Errorf("unknown export format %q", kind)
}

// xLabel names the time axis of an exported image.
func (p *plotPanel) xLabel() string {
	what := "receive time"
	if p.base == model.HeaderStamp {
		what = "header.stamp"
	}
	start := time.Unix(0, p.g.origin).UTC()
	if p.absolute {
		return what + " (UTC, " + start.Format("2006-01-02") + ")"
	}
	return what + " (s since the bag's start, " + start.Format("2006-01-02 15:04:05 UTC") + ")"
}

// exportName suggests a file name: the bag's name and the first series.
func (p *plotPanel) exportName(kind exportKind) string {
	base := strings.TrimSuffix(p.g.l.d.Name, filepath.Ext(p.g.l.d.Name))
	if vis := p.canvas.visible(); len(vis) > 0 {
		field := strings.NewReplacer("/", "_", "[", "_", "]", "", "@", "").Replace(vis[0].ref.String())
		base += "_" + strings.TrimPrefix(field, "_")
	}
	return base + "." + string(kind)
}

// showExportMenu offers the export formats under the Export button.
func (p *plotPanel) showExportMenu() {
	c := fyne.CurrentApp().Driver().CanvasForObject(p.exportBtn)
	if c == nil {
		return
	}
	item := func(label string, kind exportKind) *fyne.MenuItem {
		return fyne.NewMenuItem(label, func() { p.saveAs(kind) })
	}
	menu := fyne.NewMenu("",
		item("PNG image…", exportPNG),
		item("SVG image…", exportSVG),
		item("CSV of the visible range…", exportCSV),
	)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(p.exportBtn)
	widget.ShowPopUpMenuAtPosition(menu, c, pos.AddXY(0, p.exportBtn.Size().Height))
}

// saveAs asks where to save and writes the export there.
func (p *plotPanel) saveAs(kind exportKind) {
	win := windowOf(p.exportBtn)
	if win == nil {
		return
	}
	if len(p.visibleData()) == 0 {
		dialog.ShowInformation("Nothing to export", "Add a series to the plot (or show a hidden one) first.", win)
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
