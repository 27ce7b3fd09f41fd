package plots

import (
	"fmt"
	"image/color"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// The time bases a panel offers.
var timeBases = []struct {
	label    string
	base     series.TimeBase
	absolute bool
}{
	{"Receive time (s)", series.ReceiveTime, false},
	{"Receive time (UTC)", series.ReceiveTime, true},
	{"header.stamp (s)", series.HeaderStamp, false},
	{"header.stamp (UTC)", series.HeaderStamp, true},
	{"Publish time (s)", series.PublishTime, false},
	{"Publish time (UTC)", series.PublishTime, true},
	{clockBaseLabel, series.ClockTime, false},
}

// clockBaseLabel is the /clock time base's, offered when the recording has
// a /clock topic.
const clockBaseLabel = "Sim time, /clock (s)"

// plotPanel is one plot of the Plots tab: the plot (of time series, or an
// XY plot of paths) with its legend, its error line, and progress while
// series are extracted. The Plots tab's toolbar adds to it.
type plotPanel struct {
	g      *View
	series []*plotSeries

	canvas *plotCanvas
	// xy, when set, is the XY plot shown instead of canvas.
	xy       *xyCanvas
	plotArea *fyne.Container
	errText  *widget.Label
	// legend holds the legend's lines, in legendBox, beside or under
	// plotArea in body.
	legend    *fyne.Container
	legendBox *container.Scroll
	body      *fyne.Container
	empty     fyne.CanvasObject
	progress  *widget.ProgressBar
	progLabel *widget.Label
	progRow   fyne.CanvasObject
	content   fyne.CanvasObject
	// box is content under mark, the highlight while a field is dragged
	// over the panel, and selMark, the frame of the selected panel.
	box     *fyne.Container
	mark    *canvas.Rectangle
	selMark *canvas.Rectangle
}

func newPlotPanel(g *View) *plotPanel {
	p := &plotPanel{g: g}
	p.canvas = newPlotCanvas(g.origin, g.win)
	p.canvas.absolute = g.absolute
	p.canvas.onWindow = g.setWindow
	p.canvas.onFit = g.fit
	p.canvas.onSelect = func() { g.selectPanel(p) }
	p.canvas.onScroll = g.scrollPlots
	p.canvas.onTap = func(s *plotSeries, i int, t int64) {
		g.selectPanel(p)
		g.pick(p, s, i, t)
	}
	if t, ok := g.l.Cursor(); ok {
		p.canvas.setCursor(t)
	}

	p.errText = widget.NewLabel("")
	p.errText.Importance = widget.DangerImportance
	p.errText.Wrapping = fyne.TextWrapWord
	p.errText.Hide()

	p.progress = widget.NewProgressBar()
	p.progLabel = widget.NewLabel("")
	cancel := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), p.cancelExtraction)
	p.progRow = container.NewBorder(nil, nil, p.progLabel, cancel, p.progress)
	p.progRow.Hide()

	p.legend = container.New(widgets.TightVBox{})
	p.legendBox = container.NewVScroll(p.legend)
	p.empty = p.emptyState()
	p.plotArea = container.NewStack(p.canvas, p.empty)
	p.body = container.NewStack()
	p.placeLegend()
	top := container.NewVBox(p.errText, p.progRow)
	p.content = container.NewBorder(top, nil, nil, nil, p.body)
	p.mark = dropMark()
	p.selMark = canvas.NewRectangle(color.Transparent)
	p.selMark.StrokeColor = theme.Color(theme.ColorNamePrimary)
	p.selMark.StrokeWidth = 2
	p.selMark.CornerRadius = 4
	p.selMark.Hide()
	p.box = container.NewStack(p.content, p.selMark, p.mark)
	p.seriesChanged()
	return p
}

// base is the time base of every panel.
func (p *plotPanel) base() series.TimeBase { return p.g.base }

// setXY turns the panel into an XY plot (equal: with equal axes), or back
// into a plot of time series.
func (p *plotPanel) setXY(on, equal bool) {
	if on == (p.xy != nil) {
		return
	}
	if on {
		p.xy = newXYCanvas(p.g.origin, p.g.win)
		p.xy.view.Equal = equal
		p.xy.onFit = p.g.fit
		p.xy.onSelect = func() { p.g.selectPanel(p) }
		p.xy.onScroll = p.g.scrollPlots
		p.xy.onTap = func(s *plotSeries, t int64) {
			p.g.selectPanel(p)
			p.g.pick(p, s, -1, t)
		}
		if t, ok := p.g.l.Cursor(); ok {
			p.xy.setCursor(t)
		}
		p.plotArea.Objects = []fyne.CanvasObject{p.xy, p.empty}
	} else {
		p.xy = nil
		p.plotArea.Objects = []fyne.CanvasObject{p.canvas, p.empty}
	}
	p.plotArea.Refresh()
}

// emptyState explains how to add a series, with example buttons from this
// bag.
func (p *plotPanel) emptyState() fyne.CanvasObject {
	title := widget.NewLabelWithStyle("Nothing plotted yet", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	how := widgets.DimWrapped("Type a field path above as TOPIC.FIELD (suggestions show as you type; Down and Enter take one), "+
		"X vs Y for an XY plot, or a derived series such as deriv(TOPIC.FIELD); or use Plot field in the Message tab. Try one of this bag's fields:",
		fyne.TextAlignCenter)
	buttons := container.NewGridWithColumns(2)
	for _, ex := range p.g.examples {
		buttons.Add(widget.NewButton(ex, func() { p.g.add(p, ex) }))
	}
	return widgets.NewCentered(620, container.NewVBox(title, how, buttons))
}

// setError shows msg over the plot; "" hides it.
func (p *plotPanel) setError(msg string) {
	p.errText.SetText(msg)
	if msg == "" {
		p.errText.Hide()
	} else {
		p.errText.Show()
	}
}

// extract reads s (its field, or the fields it is computed from) in the
// background on the time base, and computes it when they are in. The read
// is queued: it starts once the message index is built (so that it does
// not run alongside the index build, which has its own peak), and
// series of one topic queued together are read in one pass (see
// View.flush).
func (p *plotPanel) extract(s *plotSeries) {
	if s.computed {
		return // its points were given: nothing to read
	}
	s.stop()
	// Until the read starts, stopping s only makes the queued job stale.
	s.cancel, s.err, s.done, s.total = func() {}, nil, 0, 0
	s.ms, s.leaves, s.derived, s.xy = nil, nil, nil, nil
	s.detail = detailState{gen: s.detail.gen}
	g := p.g
	g.queue = append(g.queue, extractJob{p: p, s: s, gen: s.gen})
	g.scheduleFlush()
}

// finish hands s its extracted series (set's series at the indexes in
// which), or err, and computes it.
func (p *plotPanel) finish(s *plotSeries, set []*series.Series, err error) {
	g := p.g
	s.cancel = nil
	switch {
	case err != nil:
		s.err = err
	case s.isDerived() || s.isXY():
		s.err = s.setLeaves(set)
	case len(set) == 0:
		s.err = fmt.Errorf("no message holds an element %s selects", s.ref)
	default:
		// A path with [*] or a range gives a series per element: each
		// becomes a series of the panel, named by its element's path.
		// The elements follow s in the legend, in their order, whatever
		// was added while s was read.
		typed := s.key()
		s.ms, s.ref, s.path = set[0], set[0].Ref, set[0].Ref.String()
		if typed != s.key() {
			delete(g.hues, typed)
			s.color = g.colorFor(p, s.key())
		}
		var elems []*plotSeries
		for _, ms := range set[1:] {
			e := &plotSeries{path: ms.Ref.String(), ref: ms.Ref, ms: ms}
			elems = append(elems, e)
			p.series = append(p.series, e) // counted by colorFor from now
			e.color = g.colorFor(p, e.key())
		}
		p.series = p.series[:len(p.series)-len(elems)]
		at := slices.Index(p.series, s) + 1
		p.series = slices.Insert(p.series, at, elems...)
		for _, ms := range set {
			g.shareTimes(ms)
			// The points read from suspect messages mark their ticks on
			// the timeline too: the window knows of them now.
			if len(ms.SuspectT) > 0 {
				g.l.AddMarks(link.SuspectMarks(map[string][]int64{ms.Ref.Topic: g.logTimes(ms.SuspectT)})...)
			}
		}
	}
	p.seriesChanged()
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
	var shown fyne.CanvasObject = p.canvas
	if p.xy != nil {
		p.xy.series = p.series
		shown = p.xy
	}
	if len(p.series) == 0 {
		shown.Hide()
		p.empty.Show()
	} else {
		p.empty.Hide()
		shown.Show()
	}
	p.fillLegend()
	p.showProgress()
	p.g.dataChanged()
	shown.Refresh()
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
	p.progLabel.SetText(fmt.Sprintf("Extracting %s: %s of %s", human.Plural(uint64(running), "series"), human.Count(uint64(done)), human.Plural(uint64(total), "message")))
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

// shareTimes makes ms keep the time column of another series of the plots
// when they hold the same times (fields of one topic on one time base read
// the same messages), so each topic's times are kept once. Columns never
// change once extracted, so sharing is safe.
func (g *View) shareTimes(ms *series.Series) {
	if ms.C == nil {
		return
	}
	for _, p := range g.panels {
		for _, o := range p.series {
			for _, x := range append([]*series.Series{o.ms}, o.leaves...) {
				if x == nil || x == ms || x.C == nil || x.Ref.Topic != ms.Ref.Topic {
					continue
				}
				if x.C == ms.C {
					return
				}
				if x.C.Equal(ms.C) {
					ms.C = x.C
					return
				}
			}
		}
	}
}
