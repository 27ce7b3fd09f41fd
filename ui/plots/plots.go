// Package plots is the Plots tab of a recording's window: field paths
// plotted against time (or against each other) in stacked panels that
// share one time axis, with a field list to drag from, the window's
// current time as a cursor, and exports. Series are extracted in the
// background and drawn by package plot.
package plots

import (
	"context"
	"fmt"
	"image/color"
	"slices"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/bagscope/bagscope/bag"
	"github.com/bagscope/bagscope/bag/rosmsg"
	"github.com/bagscope/bagscope/model"
	"github.com/bagscope/bagscope/model/msgref"
	"github.com/bagscope/bagscope/model/query"
	"github.com/bagscope/bagscope/model/series"
	"github.com/bagscope/bagscope/plot"
	"github.com/bagscope/bagscope/ui/link"
	"github.com/bagscope/bagscope/ui/widgets"
)

// View is the Plots tab: one toolbar over plot panels stacked over
// one shared time window, which follows the link's range (and sets it when
// the user zooms or pans), with the link's cursor drawn in every panel.
// The toolbar acts on the selected panel (current, framed when there are
// several): what is typed is added there, Export and Remove act on it; the
// time base applies to all. Panels share the height evenly down to
// plotMinHeight each, and scroll beyond.
type View struct {
	l      link.Link
	cache  rosmsg.Cache
	origin int64       // 0 s on a relative axis: the bag's start (the first sim time on the clock base)
	bagWin plot.Window // the bag's time range
	// clock is the /clock index, read when the sim time base is first
	// chosen (plotclock.go).
	clock *query.ClockIndex
	win   plot.Window // the shared visible window
	// fitted: the window follows the data's extent as series arrive.
	fitted  bool
	panels  []*plotPanel
	current *plotPanel // the selected panel: where Actions.AddSeries adds
	stack   *fyne.Container
	scroll  *container.Scroll
	content fyne.CanvasObject
	// hues maps a series' key to its palette index, so that a series has
	// one colour in every plot (and again when removed and added back).
	hues     map[string]int
	examples []string
	fields   *fieldList
	// The shared toolbar.
	entry     *widgets.CompletionEntry
	addBtn    *widget.Button
	baseSel   *widget.Select
	exportBtn *widget.Button
	equal     *widget.Check
	removeBtn *widget.Button
	legendSel *widget.Select
	// The offer of a field from each recording (plotrecordings.go).
	offer                *fyne.Container
	offerText            *widget.Label
	offerEach, offerDiff *widget.Button
	base                 series.TimeBase
	absolute             bool
	legendAt             legendPlace
	// dropZone, below the panels while a field is dragged, makes a new
	// panel; zoneMark highlights it when the pointer is over it.
	dropZone *fyne.Container
	zoneMark *canvas.Rectangle
	// queue holds the series waiting for their fields to be read (see
	// flush); flushPending is set while waiting for the message index,
	// batching while a batch is being queued.
	queue        []extractJob
	flushPending bool
	batching     int
}

// plotMinHeight is the least height of a plot panel; more panels than fit
// scroll.
const plotMinHeight = 220

// New builds the Plots tab and offers Actions.AddSeries.
func New(l link.Link) *View {
	b := l.Doc().Storage
	start, end := l.Doc().Summary.Start, l.Doc().Summary.End
	g := &View{l: l, origin: start.Nanos(), bagWin: plot.Window{T0: start.Nanos(), T1: end.Nanos()}, fitted: true}
	if g.bagWin.T1-g.bagWin.T0 < plot.MinWindow {
		g.bagWin.T1 = g.bagWin.T0 + 1e9
	}
	g.win = g.bagWin
	g.examples = examplePaths(b, &g.cache, 4)
	g.stack = container.New(&evenRows{min: plotMinHeight, gap: theme.Padding()})
	g.scroll = container.NewVScroll(g.stack)
	toolbar := g.newToolbar()
	g.zoneMark = dropMark()
	g.zoneMark.Show()
	zoneText := widget.NewLabelWithStyle("Drop here for a new plot", fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	g.dropZone = container.NewStack(g.zoneMark, zoneText)
	g.dropZone.Hide()
	plots := container.NewBorder(toolbar, g.dropZone, nil, nil, g.scroll)
	g.fields = newFieldList(g)
	// Once a sample of each topic's messages is read, the Fields list and
	// the suggestions offer every element and key it holds.
	l.Go(func(ctx context.Context) {
		series.SampleFields(ctx, b, &g.cache)
	}, func() {
		f := g.fields
		f.all = plottableFields(l.Doc(), &g.cache)
		f.setFilter(f.filter.Text)
	})
	split := container.NewHSplit(g.fields.content, plots)
	split.Offset = 0.2
	widgets.RememberSplit(split, "plots.fields")
	g.content = split
	g.current = g.addPanel()

	l.Actions().AddComputed = g.AddComputed
	l.Actions().AddSeries = func(path string) {
		g.add(g.current, path)
		l.SelectTab("Plots")
	}
	l.OnCursor(g.setCursor)
	l.OnRange(g.onRange)
	l.OnDistrust(g.distrusted)
	if t, ok := l.Cursor(); ok {
		g.setCursor(t)
	}
	if t0, t1, ok := l.Range(); ok {
		g.onRange(t0, t1, true)
	}
	return g
}

// newToolbar builds the toolbar shared by the panels: the entry with
// suggestions and Add, the time base, Export, Equal axes (for XY plots),
// Add plot and Remove plot; with a line of help under it.
func (g *View) newToolbar() fyne.CanvasObject {
	g.entry = widgets.NewCompletionEntry(func(s string) []string { return g.complete(s) })
	g.entry.SetPlaceHolder("TOPIC.FIELD, or X vs Y for an XY plot, or deriv(…), integ(…), diff(…, …), scale(…, k, c), avg(…, n)")
	g.entry.OnSubmitted = func(string) { g.addTyped() }
	g.addBtn = widget.NewButtonWithIcon("Add", theme.ContentAddIcon(), g.addTyped)
	var labels []string
	clock := query.HasClock(g.l.Doc().Storage)
	for _, tb := range timeBases {
		if tb.base != series.ClockTime || clock {
			labels = append(labels, tb.label)
		}
	}
	g.baseSel = widget.NewSelect(labels, g.setTimeBase)
	g.baseSel.SetSelectedIndex(0)
	g.exportBtn = widget.NewButtonWithIcon("Export", theme.DownloadIcon(), g.showExportMenu)
	g.equal = widget.NewCheck("Equal axes", func(on bool) {
		if p := g.current; p != nil && p.xy != nil && p.xy.view.Equal != on {
			p.xy.view.Equal = on
			p.xy.Refresh()
		}
	})
	g.equal.Disable()
	g.legendSel = widget.NewSelect(legendPlaces, func(s string) {
		for i, l := range legendPlaces {
			if l == s {
				g.setLegendPlace(legendPlace(i))
			}
		}
	})
	g.legendSel.SetSelectedIndex(int(g.legendAt))
	newPlot := widget.NewButtonWithIcon("Add plot", theme.ContentAddIcon(), func() { g.selectPanel(g.addPanel()) })
	g.removeBtn = widget.NewButtonWithIcon("Remove plot", theme.DeleteIcon(), func() { g.removePanel(g.current) })
	baseBox := container.New(layout.NewGridWrapLayout(fyne.NewSize(170, g.baseSel.MinSize().Height)), g.baseSel)
	legendBox := container.New(layout.NewGridWrapLayout(fyne.NewSize(190, g.legendSel.MinSize().Height)), g.legendSel)
	row1 := container.NewBorder(nil, nil, nil, container.NewHBox(g.addBtn, baseBox, g.exportBtn), g.entry)
	// The gestures, cut with an ellipsis on a narrow window (Help lists
	// them too).
	hint := widgets.DimText("Wheel: scroll the plots · Ctrl+wheel: zoom · drag: pan · Shift+drag: zoom to a box · double-click: fit · click a point: select its message · "+
		"the toolbar acts on the framed plot (click one to select it)", theme.SizeNameCaptionText, fyne.TextAlignLeading)
	row2 := container.NewBorder(nil, nil, container.NewHBox(g.equal, newPlot, g.removeBtn, legendBox), nil, hint)
	return container.NewVBox(row1, row2, g.newOffer())
}

// scrollPlots scrolls the stack of plots: the wheel over a plot scrolls
// them as over any list (Ctrl+wheel zooms the plot).
func (g *View) scrollPlots(ev *fyne.ScrollEvent) {
	g.scroll.Scrolled(ev)
}

// complete offers field paths for the path being typed at the end of s:
// after "(", "," or " vs ", the rest of s is kept as typed.
func (g *View) complete(s string) []string {
	cut := 0
	for _, sep := range []string{"(", ",", " vs "} {
		if i := strings.LastIndex(s, sep); i >= 0 && i+len(sep) > cut {
			cut = i + len(sep)
		}
	}
	// A "," inside brackets belongs to a key, not to a function.
	if strings.Count(s[:cut], "[") > strings.Count(s[:cut], "]") {
		cut = 0
	}
	head, frag := s[:cut], s[cut:]
	lead := len(frag) - len(strings.TrimLeft(frag, " "))
	head, frag = head+frag[:lead], frag[lead:]
	if head != "" && frag == "" {
		return nil
	}
	out := series.CompleteField(g.l.Doc().Storage, &g.cache, frag, widgets.CompletionMax)
	if head == "" {
		return out
	}
	for i, o := range out {
		out[i] = head + o
	}
	return out
}

// setTimeBase switches every panel to one of timeBases and re-extracts
// their series when the base itself changed (derived series and XY paths
// are computed again from the new columns).
func (g *View) setTimeBase(label string) {
	for _, tb := range timeBases {
		if tb.label != label {
			continue
		}
		if tb.base == series.ClockTime && g.clock == nil {
			g.loadClock(label)
			return
		}
		g.absolute = tb.absolute
		changed := tb.base != g.base
		// The sim time lies elsewhere: the window and cursor move over.
		moved := changed && (tb.base == series.ClockTime || g.base == series.ClockTime)
		g.base = tb.base
		g.origin = g.originFor(tb.base)
		g.batch(func() {
			for _, p := range g.panels {
				p.canvas.absolute = tb.absolute
				p.canvas.origin = g.origin
				if p.xy != nil {
					p.xy.origin = g.origin
				}
				if changed {
					for _, s := range p.series {
						p.extract(s)
					}
					p.seriesChanged()
				}
				p.canvas.Refresh()
			}
		})
		if moved {
			if t0, t1, ok := g.l.Range(); ok {
				g.onRange(t0, t1, true)
			} else {
				g.fitted = true
				g.apply(g.full())
			}
			if t, ok := g.l.Cursor(); ok {
				g.setCursor(t)
			}
		}
	}
}

// distrusted reads every series again when a read found more units
// damaged (link.Link.OnDistrust): their points from those units are
// marked suspect, as the Message view marks their messages. A series
// still being read is restarted too, its points read so far being marked
// from what was known when they were.
func (g *View) distrusted() {
	g.batch(func() {
		for _, p := range g.panels {
			if len(p.series) == 0 {
				continue
			}
			for _, s := range p.series {
				p.extract(s)
			}
			p.seriesChanged()
		}
	})
}

// addTyped adds what the toolbar's entry holds to the selected panel.
func (g *View) addTyped() {
	p := g.current
	text := g.entry.Text
	if g.add(p, text) {
		g.entry.SetText("")
	}
}

// addPanel appends an empty plot panel.
func (g *View) addPanel() *plotPanel {
	p := newPlotPanel(g)
	g.panels = append(g.panels, p)
	g.restack()
	return p
}

// selectPanel makes p the panel the toolbar acts on.
func (g *View) selectPanel(p *plotPanel) {
	if p == nil {
		return
	}
	g.current = p
	g.showSelection()
}

// showSelection frames the selected panel (when there are several) and
// sets the toolbar to it.
func (g *View) showSelection() {
	for _, q := range g.panels {
		on := q == g.current && len(g.panels) > 1
		if on != q.selMark.Visible() {
			if on {
				q.selMark.Show()
			} else {
				q.selMark.Hide()
			}
		}
	}
	if g.removeBtn != nil {
		if len(g.panels) < 2 {
			g.removeBtn.Disable()
		} else {
			g.removeBtn.Enable()
		}
	}
	if p := g.current; p != nil && g.equal != nil {
		if p.xy != nil {
			g.equal.Enable()
			g.equal.SetChecked(p.xy.view.Equal)
		} else {
			g.equal.SetChecked(false)
			g.equal.Disable()
		}
	}
}

// removePanel drops p and stops its extractions; the last panel stays.
func (g *View) removePanel(p *plotPanel) {
	if len(g.panels) < 2 || p == nil {
		return
	}
	for _, s := range p.series {
		s.stop()
	}
	for i, q := range g.panels {
		if q == p {
			g.panels = append(g.panels[:i], g.panels[i+1:]...)
			break
		}
	}
	if g.current == p {
		g.current = g.panels[len(g.panels)-1]
	}
	g.restack()
	g.dataChanged()
}

// restack lays the panels out in rows of equal height.
func (g *View) restack() {
	objs := make([]fyne.CanvasObject, len(g.panels))
	for i, p := range g.panels {
		objs[i] = p.box
	}
	g.stack.Objects = objs
	g.stack.Refresh()
	// The scroll sizes its content to the stack's new least height.
	g.scroll.Refresh()
	g.showSelection()
}

// add resolves what was typed (a field path, a derived series, or "X vs Y"
// for an XY path) and adds it to p, or to a new panel when p holds the
// other kind; it reports whether it added something. What cannot be added
// is said in the panel's error line.
func (g *View) add(p *plotPanel, text string) bool {
	text = strings.TrimSpace(text)
	p.setError("")
	if text == "" {
		// Enter on an empty field: nothing to add, and nothing wrong
		// (the placeholder and the empty state say what to type).
		return false
	}
	s, err := g.parseSeries(text)
	if err != nil {
		p.setError("Cannot plot " + text + ": " + err.Error() + ".")
		return false
	}
	if (p.xy != nil) != s.isXY() && len(p.series) > 0 {
		p = g.addPanel()
	}
	for _, o := range p.series {
		if o.key() == s.key() {
			p.setError(s.name() + " is already in this plot.")
			return false
		}
	}
	if s.isXY() && p.xy == nil {
		p.setXY(true, plot.EqualAxes(s.xExpr, s.yExpr))
	} else if !s.isXY() && p.xy != nil {
		p.setXY(false, false)
	}
	g.selectPanel(p)
	s.color = g.colorFor(p, s.key())
	p.series = append(p.series, s)
	p.extract(s)
	p.seriesChanged()
	if s.ref.Topic != "" && !s.isDerived() && !s.isXY() {
		g.offerFor(p, s.ref)
	}
	return true
}

// parseSeries reads a typed series: "X vs Y", an expression, or a field
// path, resolving every path against the bag.
func (g *View) parseSeries(text string) (*plotSeries, error) {
	s := &plotSeries{path: text}
	if xs, ys, ok := plot.SplitXY(text); ok {
		x, err := plot.ParseExpr(xs)
		if err != nil {
			return nil, err
		}
		y, err := plot.ParseExpr(ys)
		if err != nil {
			return nil, err
		}
		s.xExpr, s.yExpr = x, y
	} else {
		e, err := plot.ParseExpr(text)
		if err != nil {
			return nil, err
		}
		if e.IsLeaf() {
			ref, err := series.ResolveField(g.l.Doc().Storage, &g.cache, e.Path)
			if err != nil {
				return nil, fmt.Errorf("%w. Type TOPIC.FIELD; suggestions of what this bag has show as you type", err)
			}
			s.ref = ref
			return s, nil
		}
		s.expr = e
	}
	// Leaves are named by their fields as the bag spells them, so that
	// "odom.x" and "/odom.x" are one field and names are canonical.
	resolved := map[string]series.FieldRef{}
	for _, path := range s.leafPaths() {
		ref, err := series.ResolveField(g.l.Doc().Storage, &g.cache, path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		resolved[path] = ref
	}
	for _, e := range []*plot.Expr{s.expr, s.xExpr, s.yExpr} {
		e.Walk(func(leaf *plot.Expr) { leaf.Path = resolved[leaf.Path].String() })
	}
	for _, path := range s.leafPaths() {
		for _, ref := range resolved {
			if ref.String() == path {
				s.refs = append(s.refs, ref)
				break
			}
		}
	}
	return s, nil
}

// dropTarget is where a field dropped at the absolute position pos goes:
// the panel under it, or a new panel on the drop zone or the Add plot
// button; neither elsewhere.
func (g *View) dropTarget(pos fyne.Position) (p *plotPanel, isNew bool) {
	for _, p := range g.panels {
		if under(p.box, pos) {
			return p, false
		}
	}
	return nil, under(g.dropZone, pos) || under(g.addBtn, pos)
}

// markDrop highlights panel p, or the drop zone when isNew.
func (g *View) markDrop(p *plotPanel, isNew bool) {
	for _, q := range g.panels {
		if (q == p) != q.mark.Visible() {
			if q == p {
				q.mark.Show()
			} else {
				q.mark.Hide()
			}
		}
	}
	g.zoneMark.FillColor = dropFill(isNew)
	g.zoneMark.Refresh()
}

// dropMark is the frame over a drop target.
func dropMark() *canvas.Rectangle {
	r := canvas.NewRectangle(dropFill(true))
	r.StrokeColor = theme.Color(theme.ColorNamePrimary)
	r.StrokeWidth = 2
	r.CornerRadius = 4
	r.Hide()
	return r
}

// dropFill tints a drop target, strongly when the pointer is over it.
func dropFill(hot bool) color.Color {
	r, g, b, _ := theme.Color(theme.ColorNamePrimary).RGBA()
	a := uint8(0x18)
	if hot {
		a = 0x40
	}
	return color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), a}
}

// under tells whether the absolute position pos lies on the shown object o.
func under(o fyne.CanvasObject, pos fyne.Position) bool {
	if o == nil || !o.Visible() {
		return false
	}
	d := fyne.CurrentApp().Driver()
	if d.CanvasForObject(o) == nil {
		return false
	}
	at, size := d.AbsolutePositionForObject(o), o.Size()
	return pos.X >= at.X && pos.Y >= at.Y && pos.X < at.X+size.Width && pos.Y < at.Y+size.Height
}

// colorFor is the colour of the series with key, added to panel in: the
// one it had before (a series has one colour in every plot), or the
// palette colour fewest of in's series use, then fewest of all plotted
// series (the first such), so that a new series differs from every other
// of its plot, and from every series shown while the palette lasts.
func (g *View) colorFor(in *plotPanel, key string) color.RGBA {
	if i, ok := g.hues[key]; ok {
		return plot.PaletteColor(i)
	}
	if g.hues == nil {
		g.hues = map[string]int{}
	}
	here := make([]int, plot.PaletteSize)
	all := make([]int, plot.PaletteSize)
	for _, p := range g.panels {
		for _, s := range p.series {
			if i, ok := g.hues[s.key()]; ok {
				all[i%plot.PaletteSize]++
				if p == in {
					here[i%plot.PaletteSize]++
				}
			}
		}
	}
	best := 0
	for i := range all {
		if here[i] < here[best] || here[i] == here[best] && all[i] < all[best] {
			best = i
		}
	}
	g.hues[key] = best
	return plot.PaletteColor(best)
}

// full is the extent to fit: the bag's time range and every series'
// points (header stamps may lie outside the bag's range).
func (g *View) full() plot.Window {
	w := g.baseWindow()
	for _, p := range g.panels {
		for _, s := range p.series {
			if t0, t1, ok := s.times(); ok {
				w.T0 = min(w.T0, t0)
				w.T1 = max(w.T1, t1)
			}
		}
	}
	return w
}

// apply shows window w in every panel.
func (g *View) apply(w plot.Window) {
	g.win = w
	g.useDetail()
	for _, p := range g.panels {
		p.canvas.setWindow(w)
		if p.xy != nil {
			p.xy.setWindow(w)
		}
	}
}

// setWindow is a zoom or pan by the user in one panel: every panel
// follows, and once the gesture ends so does the link's range.
func (g *View) setWindow(w plot.Window, final bool) {
	g.fitted = false
	g.apply(w)
	if final {
		g.refine()
		g.l.SetRange(g.toLog(w.T0), g.toLog(w.T1), true)
	}
}

// fit shows all the data in every panel and clears the link's range.
func (g *View) fit() {
	g.fitted = true
	for _, p := range g.panels {
		p.canvas.view.Y = plot.YRange{}
		if p.xy != nil {
			p.xy.view.Fit()
		}
	}
	g.apply(g.full())
	g.refine()
	g.l.SetRange(0, 0, false)
}

// onRange follows the link's range; no range means fit.
func (g *View) onRange(t0, t1 int64, ok bool) {
	if !ok {
		if !g.fitted {
			g.fitted = true
			g.apply(g.full())
			g.refine()
		}
		return
	}
	w := plot.Window{T0: g.toBase(t0), T1: g.toBase(t1)}
	if w.T1-w.T0 < plot.MinWindow {
		w.T1 = w.T0 + plot.MinWindow
	}
	if w == g.win {
		return
	}
	g.fitted = false
	g.apply(w)
	g.refine()
}

// dataChanged refits a fitted window to data that came or went.
func (g *View) dataChanged() {
	if g.fitted {
		g.apply(g.full())
	}
	g.refine()
}

func (g *View) setCursor(t int64) {
	t = g.toBase(t)
	for _, p := range g.panels {
		p.canvas.setCursor(t)
		if p.xy != nil {
			p.xy.setCursor(t)
		}
	}
}

// pick selects the message of point i (at time t) of s everywhere (for a
// derived series or an XY path, the message of a field it is computed from
// with a point at t); without a point, it moves the cursor to t.
func (g *View) pick(p *plotPanel, s *plotSeries, i int, t int64) {
	var ms *series.Series
	ok := false
	switch {
	case s == nil:
	case s.ms != nil && i >= 0 && i < s.shown().Len():
		ms, ok = s.shown(), true
	default:
		ms, i, ok = s.pointOf(t)
	}
	if !ok {
		g.l.SetCursor(g.toLog(t))
		return
	}
	base := p.base()
	var loc msgref.Loc
	var err error
	var mu sync.Mutex
	g.l.Go(func(ctx context.Context) {
		l, e := ms.Locate(ctx, g.l.Doc().Storage, i)
		mu.Lock()
		loc, err = l, e
		mu.Unlock()
	}, func() {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			p.setError("Could not find the message of that point: " + err.Error())
			return
		}
		if base == series.ReceiveTime {
			g.l.SelectMessage(msgref.Ref{T: ms.Time(i), Loc: loc})
			return
		}
		// On the stamp time base the receive time comes from the index.
		found := loc
		g.l.WithIndex(func(x *model.MessageIndex) {
			ref := msgref.Ref{T: t, Loc: found}
			if tm := x.Topic(ms.Ref.Topic); tm != nil {
				for _, r := range tm.All() {
					if r.Loc == found {
						ref = r
						break
					}
				}
			}
			g.l.SelectMessage(ref)
		})
	})
}

// examplePaths picks up to n plottable paths from the bag's topics, for
// the empty state: linear ".x" fields first, then other ".x" fields, then
// the first numeric field past the header, one per topic; and the latency
// of the first topic with a header.
func examplePaths(b bag.Storage, cache *rosmsg.Cache, n int) []string {
	ranks := []func(string) bool{
		func(p string) bool { return strings.Contains(p, "linear") && strings.HasSuffix(p, ".x") },
		func(p string) bool { return strings.HasSuffix(p, ".x") && !strings.Contains(p, "orientation") },
		func(p string) bool {
			return !strings.Contains(p, ".header.") && !strings.HasSuffix(p, series.LatencyPath) && !strings.Contains(p, "covariance")
		},
	}
	byRank := make([][]string, len(ranks))
	latency := map[string]string{} // first example's path -> its topic's latency
	for _, t := range series.Topics(b) {
		comps := series.CompleteField(b, cache, t+".", 0)
		lat := ""
		if len(comps) > 0 && strings.HasSuffix(comps[len(comps)-1], series.LatencyPath) {
			lat = comps[len(comps)-1]
		}
	rank:
		for r, ok := range ranks {
			for _, p := range comps {
				if p != t && ok(p) {
					byRank[r] = append(byRank[r], p)
					latency[p] = lat
					break rank
				}
			}
		}
	}
	var out []string
	for _, paths := range byRank {
		out = append(out, paths...)
	}
	lat := ""
	for _, p := range out {
		if lat = latency[p]; lat != "" {
			break
		}
	}
	if lat != "" && n > 1 {
		out = append(out[:min(len(out), n-1)], lat)
	}
	return out[:min(len(out), n)]
}

// PlotPaths plots field paths in the Plots tab and shows it (for a
// repeatable --plot flag). Each value fills one plot panel; a value may
// name several series separated by commas:
// "/imu.linear_acceleration.x,/imu.linear_acceleration.y". Paths that do
// not resolve leave their error in the panel.
func (g *View) PlotPaths(paths []string) {
	// Queued together, the fields of one topic are read in one pass.
	g.batch(func() {
		for i, v := range paths {
			p := g.panels[len(g.panels)-1]
			if i > 0 || len(p.series) > 0 {
				p = g.addPanel()
			}
			for _, one := range splitTop(v) {
				if one = strings.TrimSpace(one); one != "" {
					g.add(p, one)
				}
			}
		}
	})
	g.l.SelectTab("Plots")
}

// AddComputed plots series another view computed (the TF view's lookup
// over time) in a new plot panel (the last one when it is empty) and
// shows the tab. Each series' Name names it in the legend and must tell it
// from the others; its points are not read again when the time base
// changes (they are on the clock the view computed them on).
func (g *View) AddComputed(set []plot.Series) {
	p := g.panels[len(g.panels)-1]
	if len(p.series) > 0 || p.xy != nil {
		p = g.addPanel()
	}
	g.selectPanel(p)
	for i := range set {
		d := set[i]
		s := &plotSeries{path: d.Name, computed: true, derived: &d}
		s.color = g.colorFor(p, s.key())
		p.series = append(p.series, s)
	}
	p.seriesChanged()
	g.l.SelectTab("Plots")
}

// splitTop splits s at the commas outside parentheses and brackets, so
// that "diff(/a.x, /b.y),/c.z" is two series.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[':
			depth++
		case ')', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// FieldTopics are the topics the Fields list shows, in its order.
func (g *View) FieldTopics() []string { return slices.Clone(g.fields.topics) }

// Content is the Plots tab's content.
func (g *View) Content() fyne.CanvasObject { return g.content }

// Window is the time window the plots show (nanoseconds since the epoch).
func (g *View) Window() (t0, t1 int64) { return g.win.T0, g.win.T1 }

// Series are the paths plotted, per panel.
func (g *View) Series() [][]string {
	out := make([][]string, len(g.panels))
	for i, p := range g.panels {
		for _, s := range p.series {
			out[i] = append(out[i], s.path)
		}
	}
	return out
}

// Cursors are the time cursors the panels draw, one per panel.
func (g *View) Cursors() []int64 {
	out := make([]int64, len(g.panels))
	for i, p := range g.panels {
		out[i] = p.canvas.cursor
	}
	return out
}

// ClickAt does what a click on the first plot at time t, away from its
// points, does: it moves the window's time there.
func (g *View) ClickAt(t int64) {
	if len(g.panels) > 0 {
		g.pick(g.panels[0], nil, 0, t)
	}
}

// Zoom is the time window the user zoomed or panned to; fitted is true
// (and the window the data's extent) while the plots follow the data.
func (g *View) Zoom() (t0, t1 int64, fitted bool) { return g.win.T0, g.win.T1, g.fitted }

// SetZoom shows the time window [t0, t1] in every panel, as a zoom by the
// user does (the link's range follows); t1 <= t0 fits the data instead.
func (g *View) SetZoom(t0, t1 int64) {
	if t1 <= t0 {
		g.fit()
		return
	}
	g.setWindow(plot.Window{T0: t0, T1: t1}, true)
}

// YRanges are the panels' value ranges, in panel order; a zero YRange
// (Fixed false) follows the data.
func (g *View) YRanges() []plot.YRange {
	out := make([]plot.YRange, len(g.panels))
	for i, p := range g.panels {
		out[i] = p.canvas.view.Y
	}
	return out
}

// SetYRange fixes panel i's value range to r, or lets it follow the data
// when r is not Fixed (or empty); a panel that does not exist is left.
func (g *View) SetYRange(i int, r plot.YRange) {
	if i < 0 || i >= len(g.panels) {
		return
	}
	if !r.Fixed || !(r.Max > r.Min) {
		r = plot.YRange{}
	}
	p := g.panels[i]
	p.canvas.view.Y = r
	p.canvas.Refresh()
}
