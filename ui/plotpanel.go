package ui

import (
	"context"
	"fmt"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/plot"
)

// The time bases a panel offers.
var timeBases = []struct {
	label    string
	base     model.TimeBase
	absolute bool
}{
	{"Receive time (s)", model.ReceiveTime, false},
	{"Receive time (UTC)", model.ReceiveTime, true},
	{"header.stamp (s)", model.HeaderStamp, false},
	{"header.stamp (UTC)", model.HeaderStamp, true},
}

// plotPanel is one plot of the Plots tab: a toolbar to add series (typed
// with suggestions), pick the time base, export and remove the panel; the
// plot with its legend; and progress while series are extracted.
type plotPanel struct {
	g        *plotsView
	series   []*plotSeries
	base     model.TimeBase
	absolute bool

	canvas    *plotCanvas
	entry     *completionEntry
	baseSel   *widget.Select
	exportBtn *widget.Button
	removeBtn *widget.Button
	errText   *widget.Label
	legend    *fyne.Container
	empty     fyne.CanvasObject
	progress  *widget.ProgressBar
	progLabel *widget.Label
	progRow   fyne.CanvasObject
	content   fyne.CanvasObject
	// box is content under mark, the highlight while a field is dragged
	// over the panel.
	box  *fyne.Container
	mark *canvas.Rectangle
}

func newPlotPanel(g *plotsView) *plotPanel {
	p := &plotPanel{g: g}
	p.canvas = newPlotCanvas(g.origin, g.win)
	p.canvas.onWindow = g.setWindow
	p.canvas.onFit = g.fit
	p.canvas.onTap = func(s *plotSeries, i int, t int64) {
		g.current = p
		g.pick(p, s, i, t)
	}
	if t, ok := g.l.Cursor(); ok {
		p.canvas.setCursor(t)
	}

	p.entry = newCompletionEntry(func(s string) []string { return model.CompleteField(g.l.d.Storage, &g.cache, s, completionMax) })
	p.entry.SetPlaceHolder("Add a series: type TOPIC.FIELD, e.g. /imu.linear_acceleration.x")
	p.entry.OnSubmitted = func(s string) { p.addTyped() }
	add := widget.NewButtonWithIcon("Add", theme.ContentAddIcon(), p.addTyped)
	labels := make([]string, len(timeBases))
	for i, tb := range timeBases {
		labels[i] = tb.label
	}
	p.baseSel = widget.NewSelect(labels, p.setTimeBase)
	p.baseSel.SetSelectedIndex(0)
	p.exportBtn = widget.NewButtonWithIcon("Export", theme.DownloadIcon(), p.showExportMenu)
	p.removeBtn = widget.NewButtonWithIcon("", theme.DeleteIcon(), func() { g.removePanel(p) })
	p.removeBtn.Importance = widget.LowImportance
	baseBox := container.New(layout.NewGridWrapLayout(fyne.NewSize(190, p.baseSel.MinSize().Height)), p.baseSel)
	tools := container.NewHBox(add, baseBox, p.exportBtn, p.removeBtn)
	toolbar := container.NewBorder(nil, nil, nil, tools, p.entry)

	p.errText = widget.NewLabel("")
	p.errText.Importance = widget.DangerImportance
	p.errText.Wrapping = fyne.TextWrapWord
	p.errText.Hide()

	p.progress = widget.NewProgressBar()
	p.progLabel = widget.NewLabel("")
	cancel := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), p.cancelExtraction)
	p.progRow = container.NewBorder(nil, nil, p.progLabel, cancel, p.progress)
	p.progRow.Hide()

	p.legend = container.NewVBox()
	legend := container.NewVScroll(p.legend)
	legend.SetMinSize(fyne.NewSize(300, 0))
	p.empty = p.emptyState()
	plotArea := container.NewStack(p.canvas, p.empty)
	body := container.NewBorder(nil, nil, nil, legend, plotArea)
	top := container.NewVBox(toolbar, p.errText, p.progRow)
	p.content = container.NewBorder(top, nil, nil, nil, body)
	p.mark = dropMark()
	p.box = container.NewStack(p.content, p.mark)
	p.seriesChanged()
	return p
}

// emptyState explains how to add a series, with example buttons from this
// bag.
func (p *plotPanel) emptyState() fyne.CanvasObject {
	title := widget.NewLabelWithStyle("Nothing plotted yet", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	how := dimWrapped("Type a field path above as TOPIC.FIELD (suggestions from each topic's type show as you type; Down and Enter take one), "+
		"or use Plot field on a field in the Message tab. TOPIC.@latency plots header.stamp minus receive time. Try one of this bag's fields:",
		fyne.TextAlignCenter)
	buttons := container.NewGridWithColumns(2)
	for _, ex := range p.g.examples {
		buttons.Add(widget.NewButton(ex, func() { p.g.add(p, ex) }))
	}
	return newCentered(620, container.NewVBox(title, how, buttons))
}

// addTyped adds the path in the entry.
func (p *plotPanel) addTyped() {
	n := len(p.series)
	p.g.add(p, p.entry.Text)
	if len(p.series) > n {
		p.entry.SetText("")
	}
}

// setError shows msg under the toolbar; "" hides it.
func (p *plotPanel) setError(msg string) {
	p.errText.SetText(msg)
	if msg == "" {
		p.errText.Hide()
	} else {
		p.errText.Show()
	}
}

// setTimeBase switches the panel to one of timeBases and re-extracts its
// series when the base itself changed.
func (p *plotPanel) setTimeBase(label string) {
	for _, tb := range timeBases {
		if tb.label != label {
			continue
		}
		p.absolute = tb.absolute
		p.canvas.absolute = tb.absolute
		if tb.base != p.base {
			p.base = tb.base
			for _, s := range p.series {
				s.ms = nil
				p.extract(s)
			}
			p.seriesChanged()
		}
		p.canvas.Refresh()
	}
}

// extract reads s in the background on the panel's time base.
func (p *plotPanel) extract(s *plotSeries) {
	s.stop()
	g := p.g
	ctx, cancel := context.WithCancel(g.l.ctx)
	s.cancel, s.err, s.done, s.total = cancel, nil, 0, 0
	gen := s.gen
	req := model.SeriesRequest{Fields: []model.FieldRef{s.ref}, Base: p.base}
	progress := func(done, total int64, _ string) {
		fyne.Do(func() {
			if s.gen == gen {
				s.done, s.total = done, total
				p.showProgress()
			}
		})
	}
	var mu sync.Mutex
	var set *model.SeriesSet
	var err error
	g.l.Go(func(context.Context) {
		r, e := model.ExtractSeries(ctx, g.l.d.Storage, &g.cache, req, progress)
		mu.Lock()
		set, err = r, e
		mu.Unlock()
	}, func() {
		cancel()
		if s.gen != gen {
			return // removed, cancelled or restarted meanwhile
		}
		s.cancel = nil
		mu.Lock()
		defer mu.Unlock()
		switch {
		case err != nil:
			s.err = err
		case len(set.Series) == 0:
			s.err = fmt.Errorf("no message holds an element %s selects", s.ref)
		default:
			// A path with [*] or a range gives a series per element: each
			// becomes a series of the panel, named by its element's path.
			s.ms, s.ref, s.path = set.Series[0], set.Series[0].Ref, set.Series[0].Ref.String()
			for _, ms := range set.Series[1:] {
				p.series = append(p.series, &plotSeries{path: ms.Ref.String(), ref: ms.Ref, ms: ms, color: g.nextColor()})
			}
		}
		p.seriesChanged()
	})
}

// cancelExtraction stops every running extraction of the panel and drops
// those series.
func (p *plotPanel) cancelExtraction() {
	kept := p.series[:0]
	for _, s := range p.series {
		if s.loading() {
			s.stop()
			continue
		}
		kept = append(kept, s)
	}
	p.series = kept
	p.seriesChanged()
}

// remove drops s from the panel.
func (p *plotPanel) remove(s *plotSeries) {
	s.stop()
	for i, q := range p.series {
		if q == s {
			p.series = append(p.series[:i], p.series[i+1:]...)
			break
		}
	}
	p.seriesChanged()
}

// seriesChanged redraws the legend, the empty state, the progress and the
// plot after series came, went or finished loading.
func (p *plotPanel) seriesChanged() {
	p.canvas.series = p.series
	if len(p.series) == 0 {
		p.canvas.Hide()
		p.empty.Show()
	} else {
		p.empty.Hide()
		p.canvas.Show()
	}
	p.legend.Objects = nil
	for _, s := range p.series {
		p.legend.Add(p.legendRow(s))
	}
	p.legend.Refresh()
	p.showProgress()
	p.g.dataChanged()
	p.canvas.Refresh()
}

// legendRow is a series' colour, name, state, a check box to hide it and
// a button to remove it.
func (p *plotPanel) legendRow(s *plotSeries) fyne.CanvasObject {
	check := widget.NewCheck("", func(on bool) {
		s.hidden = !on
		p.canvas.Refresh()
	})
	check.Checked = !s.hidden
	swatch := canvas.NewRectangle(s.color)
	swatch.SetMinSize(fyne.NewSize(14, 14))
	swatch.CornerRadius = 3
	name := widget.NewLabel(s.name())
	name.Wrapping = fyne.TextWrapBreak
	var state fyne.CanvasObject
	switch {
	case s.err != nil:
		l := widget.NewLabel(s.err.Error())
		l.Importance = widget.DangerImportance
		l.Wrapping = fyne.TextWrapWord
		l.SizeName = theme.SizeNameCaptionText
		state = l
	case s.loading():
		state = dimText("extracting…", theme.SizeNameCaptionText, fyne.TextAlignLeading)
	default:
		text := model.Count(uint64(len(s.ms.T))) + " points"
		if s.ms.Missing > 0 {
			text += ", " + model.Count(uint64(s.ms.Missing)) + " messages lack the field"
		}
		state = dimText(text, theme.SizeNameCaptionText, fyne.TextAlignLeading)
	}
	del := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { p.remove(s) })
	del.Importance = widget.LowImportance
	left := container.NewHBox(check, container.NewCenter(swatch))
	return container.NewBorder(nil, nil, left, del, container.New(&tightVBox{pull: captionPull}, name, state))
}

// showProgress shows the extraction progress of the panel's running
// series, or hides it when none runs.
func (p *plotPanel) showProgress() {
	var done, total int64
	running := 0
	for _, s := range p.series {
		if s.loading() {
			running++
			done += s.done
			total += s.total
		}
	}
	if running == 0 {
		p.progRow.Hide()
		return
	}
	frac := 0.0
	if total > 0 {
		frac = float64(done) / float64(total)
	}
	p.progress.SetValue(frac)
	p.progLabel.SetText(fmt.Sprintf("Extracting %s: %s of %s", model.Plural(uint64(running), "series"), model.Count(uint64(done)), model.Plural(uint64(total), "message")))
	p.progRow.Show()
}

// visibleData is the shown series' columns, for export.
func (p *plotPanel) visibleData() []plot.Series {
	var out []plot.Series
	for _, s := range p.canvas.visible() {
		out = append(out, s.data())
	}
	return out
}
