package plots

import (
	"fmt"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/model/human"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
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
}

// plotPanel is one plot of the Plots tab: the plot (of time series, or an
// XY plot of paths) with its legend, its error line, and progress while
// series are extracted. The Plots tab's toolbar adds to it.
type plotPanel struct {
	g      *View
	series []*plotSeries

	canvas *plotCanvas
	// xy, when set, is the XY plot shown instead of canvas.
	xy        *xyCanvas
	plotArea  *fyne.Container
	errText   *widget.Label
	legend    *fyne.Container
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

	p.legend = container.NewVBox()
	legend := container.NewVScroll(p.legend)
	legend.SetMinSize(fyne.NewSize(280, 0))
	p.empty = p.emptyState()
	p.plotArea = container.NewStack(p.canvas, p.empty)
	body := container.NewBorder(nil, nil, nil, legend, p.plotArea)
	top := container.NewVBox(p.errText, p.progRow)
	p.content = container.NewBorder(top, nil, nil, nil, body)
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
		s.ms, s.ref, s.path = set[0], set[0].Ref, set[0].Ref.String()
		for _, ms := range set[1:] {
			p.series = append(p.series, &plotSeries{path: ms.Ref.String(), ref: ms.Ref, ms: ms, color: g.nextColor()})
		}
		for _, ms := range set {
			g.shareTimes(ms)
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
	p.legend.Objects = nil
	for _, s := range p.series {
		p.legend.Add(p.legendRow(s))
	}
	p.legend.Refresh()
	p.showProgress()
	p.g.dataChanged()
	shown.Refresh()
}

// legendRow is a series' colour, name, state, a check box to hide it and
// a button to remove it.
func (p *plotPanel) legendRow(s *plotSeries) fyne.CanvasObject {
	check := widget.NewCheck("", func(on bool) {
		s.hidden = !on
		p.canvas.Refresh()
		if p.xy != nil {
			p.xy.Refresh()
		}
	})
	check.Checked = !s.hidden
	swatch := canvas.NewRectangle(s.color)
	swatch.SetMinSize(fyne.NewSize(14, 14))
	swatch.CornerRadius = 3
	// The name in lines (the topic, then the field or each coordinate),
	// each cut with an ellipsis when the legend is narrow; the whole name
	// is the first line's tooltip.
	var lines []fyne.CanvasObject
	for i, text := range legendLines(s) {
		l := widgets.NewClipLabel(text, fyne.TextAlignLeading, fyne.TextStyle{})
		if i == 0 {
			l.SetTip(s.name())
		}
		lines = append(lines, l)
	}
	var state fyne.CanvasObject
	switch {
	case s.err != nil:
		l := widget.NewLabel(s.err.Error())
		l.Importance = widget.DangerImportance
		l.Wrapping = fyne.TextWrapWord
		l.SizeName = theme.SizeNameCaptionText
		state = l
	case s.loading():
		state = widgets.DimText("extracting…", theme.SizeNameCaptionText, fyne.TextAlignLeading)
	default:
		text := human.Count(uint64(s.points())) + " points"
		missing := 0
		for _, ms := range append([]*series.Series{s.ms}, s.leaves...) {
			if ms != nil {
				missing = max(missing, ms.Missing)
			}
		}
		if missing > 0 {
			text += ", " + human.Count(uint64(missing)) + " messages lack a field"
		}
		st := widgets.DimClip(text, theme.SizeNameCaptionText, fyne.TextAlignLeading)
		if s.ms != nil && s.ms.Reduced() {
			st.SetNote(reducedNote(s.ms))
		}
		state = st
	}
	del := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { p.remove(s) })
	del.Importance = widget.LowImportance
	left := container.NewHBox(check, container.NewCenter(swatch))
	lines = append(lines, state)
	return container.NewBorder(nil, nil, left, del, container.New(&widgets.TightVBox{Pull: widgets.CaptionPull}, lines...))
}

// legendLines splits a series' name for the legend: the topic its fields
// share on a line of its own, then the field path, the expression without
// the topic, or an XY path's "x:" and "y:" coordinates.
func legendLines(s *plotSeries) []string {
	refs := s.refs
	if !s.isXY() && !s.isDerived() {
		ref := s.ref
		if s.ms != nil {
			ref = s.ms.Ref
		}
		if ref.IsLatency() {
			return []string{ref.Topic, "latency (stamp − receive, s)"}
		}
		return []string{ref.Topic, ref.Path}
	}
	topic := ""
	for i, r := range refs {
		if i == 0 {
			topic = r.Topic
		} else if r.Topic != topic {
			topic = ""
			break
		}
	}
	strip := func(e string) string {
		if topic == "" {
			return e
		}
		return strings.ReplaceAll(e, topic+".", "")
	}
	var out []string
	if topic != "" {
		out = append(out, topic)
	}
	if s.isXY() {
		return append(out, "x: "+strip(s.xExpr.String()), "y: "+strip(s.yExpr.String()))
	}
	return append(out, strip(s.expr.String()))
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
