package ui

import (
	"context"
	"image/color"
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
	"github.com/bagscope/bagscope/plot"
)

// plotsView is the Plots tab: plot panels stacked over one shared time
// window, which follows the link's range (and sets it when the user zooms
// or pans), with the link's cursor drawn in every panel.
type plotsView struct {
	l      *docLink
	cache  rosmsg.Cache
	origin int64       // the bag's start: 0 s on a relative axis
	bagWin plot.Window // the bag's time range
	win    plot.Window // the shared visible window
	// fitted: the window follows the data's extent as series arrive.
	fitted   bool
	panels   []*plotPanel
	current  *plotPanel // where l.addSeries adds
	stack    *fyne.Container
	content  fyne.CanvasObject
	colors   int
	examples []string
	fields   *fieldList
	addBtn   *widget.Button
	// dropZone, below the panels while a field is dragged, makes a new
	// panel; zoneMark highlights it when the pointer is over it.
	dropZone *fyne.Container
	zoneMark *canvas.Rectangle
}

// newPlotsPanel builds the Plots tab and offers addSeries on the link.
func newPlotsPanel(l *docLink) fyne.CanvasObject {
	return newPlotsView(l).content
}

func newPlotsView(l *docLink) *plotsView {
	b := l.d.Storage
	start, end := l.d.Summary.Start, l.d.Summary.End
	g := &plotsView{l: l, origin: start.Nanos(), bagWin: plot.Window{T0: start.Nanos(), T1: end.Nanos()}, fitted: true}
	if g.bagWin.T1-g.bagWin.T0 < plot.MinWindow {
		g.bagWin.T1 = g.bagWin.T0 + 1e9
	}
	g.win = g.bagWin
	g.examples = examplePaths(b, &g.cache, 4)
	g.stack = container.New(layout.NewGridLayoutWithRows(1))
	g.addBtn = widget.NewButtonWithIcon("Add plot", theme.ContentAddIcon(), func() { g.current = g.addPanel() })
	hint := dimText("Scroll to zoom, drag to pan, Shift+drag to zoom to a box, double-click to fit, click a point to select its message. All plots share the time axis.",
		theme.SizeNameCaptionText, fyne.TextAlignLeading)
	top := container.NewBorder(nil, nil, nil, g.addBtn, hint)
	g.zoneMark = dropMark()
	g.zoneMark.Show()
	zoneText := widget.NewLabelWithStyle("Drop here for a new plot", fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	g.dropZone = container.NewStack(g.zoneMark, zoneText)
	g.dropZone.Hide()
	plots := container.NewBorder(top, g.dropZone, nil, nil, g.stack)
	g.fields = newFieldList(g)
	// Once a sample of each topic's messages is read, the Fields list and
	// the suggestions offer every element and key it holds.
	l.Go(func(ctx context.Context) {
		model.SampleFields(ctx, b, &g.cache)
	}, func() {
		f := g.fields
		f.all = plottableFields(b, &g.cache)
		f.setFilter(f.filter.Text)
	})
	split := container.NewHSplit(g.fields.content, plots)
	split.Offset = 0.2
	g.content = split
	g.current = g.addPanel()

	l.addSeries = func(path string) {
		g.add(g.current, path)
		l.selectTab("Plots")
	}
	l.OnCursor(g.setCursor)
	l.OnRange(g.onRange)
	if t, ok := l.Cursor(); ok {
		g.setCursor(t)
	}
	if t0, t1, ok := l.Range(); ok {
		g.onRange(t0, t1, true)
	}
	l.plots = g
	return g
}

// addPanel appends an empty plot panel.
func (g *plotsView) addPanel() *plotPanel {
	p := newPlotPanel(g)
	g.panels = append(g.panels, p)
	g.restack()
	return p
}

// removePanel drops p and stops its extractions; the last panel stays.
func (g *plotsView) removePanel(p *plotPanel) {
	if len(g.panels) < 2 {
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

// restack lays the panels out in equal rows.
func (g *plotsView) restack() {
	objs := make([]fyne.CanvasObject, len(g.panels))
	for i, p := range g.panels {
		objs[i] = p.box
		p.removeBtn.Enable()
		if len(g.panels) == 1 {
			p.removeBtn.Disable()
		}
	}
	g.stack.Layout = layout.NewGridLayoutWithRows(max(1, len(objs)))
	g.stack.Objects = objs
	g.stack.Refresh()
}

// add resolves path and, when it names a plottable field, adds it to p
// and extracts it in the background; otherwise p says what is wrong.
func (g *plotsView) add(p *plotPanel, path string) {
	path = strings.TrimSpace(path)
	p.setError("")
	if path == "" {
		// Enter on an empty field: nothing to add, and nothing wrong
		// (the placeholder and the empty state say what to type).
		return
	}
	ref, err := model.ResolveField(g.l.d.Storage, &g.cache, path)
	if err != nil {
		p.setError("Cannot plot " + path + ": " + err.Error() + ". Type TOPIC.FIELD; suggestions of what this bag has show as you type.")
		return
	}
	for _, s := range p.series {
		if s.ref == ref {
			p.setError(ref.String() + " is already in this plot.")
			return
		}
	}
	g.current = p
	s := &plotSeries{path: path, ref: ref, color: g.nextColor()}
	p.series = append(p.series, s)
	p.extract(s)
	p.seriesChanged()
}

// dropTarget is where a field dropped at the absolute position pos goes:
// the panel under it, or a new panel on the drop zone or the Add plot
// button; neither elsewhere.
func (g *plotsView) dropTarget(pos fyne.Position) (p *plotPanel, isNew bool) {
	for _, p := range g.panels {
		if under(p.box, pos) {
			return p, false
		}
	}
	return nil, under(g.dropZone, pos) || under(g.addBtn, pos)
}

// markDrop highlights panel p, or the drop zone when isNew.
func (g *plotsView) markDrop(p *plotPanel, isNew bool) {
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

// nextColor hands out the palette in turn across panels.
func (g *plotsView) nextColor() color.RGBA {
	c := plot.PaletteColor(g.colors)
	g.colors++
	return c
}

// full is the extent to fit: the bag's time range and every series'
// points (header stamps may lie outside the bag's range).
func (g *plotsView) full() plot.Window {
	w := g.bagWin
	for _, p := range g.panels {
		for _, s := range p.series {
			if s.ms == nil || len(s.ms.T) == 0 {
				continue
			}
			w.T0 = min(w.T0, s.ms.T[0])
			w.T1 = max(w.T1, s.ms.T[len(s.ms.T)-1])
		}
	}
	return w
}

// apply shows window w in every panel.
func (g *plotsView) apply(w plot.Window) {
	g.win = w
	for _, p := range g.panels {
		p.canvas.setWindow(w)
	}
}

// setWindow is a zoom or pan by the user in one panel: every panel
// follows, and once the gesture ends so does the link's range.
func (g *plotsView) setWindow(w plot.Window, final bool) {
	g.fitted = false
	g.apply(w)
	if final {
		g.l.SetRange(w.T0, w.T1, true)
	}
}

// fit shows all the data in every panel and clears the link's range.
func (g *plotsView) fit() {
	g.fitted = true
	for _, p := range g.panels {
		p.canvas.view.Y = plot.YRange{}
	}
	g.apply(g.full())
	g.l.SetRange(0, 0, false)
}

// onRange follows the link's range; no range means fit.
func (g *plotsView) onRange(t0, t1 int64, ok bool) {
	if !ok {
		if !g.fitted {
			g.fitted = true
			g.apply(g.full())
		}
		return
	}
	w := plot.Window{T0: t0, T1: t1}
	if w == g.win {
		return
	}
	g.fitted = false
	g.apply(w)
}

// dataChanged refits a fitted window to data that came or went.
func (g *plotsView) dataChanged() {
	if g.fitted {
		g.apply(g.full())
	}
}

func (g *plotsView) setCursor(t int64) {
	for _, p := range g.panels {
		p.canvas.setCursor(t)
	}
}

// pick selects the message of point i of s everywhere; without a point,
// it moves the cursor to t.
func (g *plotsView) pick(p *plotPanel, s *plotSeries, i int, t int64) {
	if s == nil || s.ms == nil {
		g.l.SetCursor(t)
		return
	}
	ms, base := s.ms, p.base
	var loc model.MessageLoc
	var err error
	var mu sync.Mutex
	g.l.Go(func(ctx context.Context) {
		l, e := ms.Locate(ctx, g.l.d.Storage, i)
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
		if base == model.ReceiveTime {
			g.l.SelectMessage(model.MsgRef{T: ms.T[i], MessageLoc: loc})
			return
		}
		// On the stamp time base the receive time comes from the index.
		found := loc
		g.l.WithIndex(func(x *model.MessageIndex) {
			ref := model.MsgRef{T: t, MessageLoc: found}
			if tm := x.Topic(ms.Ref.Topic); tm != nil {
				for _, r := range tm.All() {
					if r.MessageLoc == found {
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
			return !strings.Contains(p, ".header.") && !strings.HasSuffix(p, model.LatencyPath) && !strings.Contains(p, "covariance")
		},
	}
	byRank := make([][]string, len(ranks))
	latency := map[string]string{} // first example's path -> its topic's latency
	for _, t := range model.Topics(b) {
		comps := model.CompleteField(b, cache, t+".", 0)
		lat := ""
		if len(comps) > 0 && strings.HasSuffix(comps[len(comps)-1], model.LatencyPath) {
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

// plotPaths plots field paths in the Plots tab and shows it (for a
// repeatable --plot flag). Each value fills one plot panel; a value may
// name several series separated by commas:
// "/imu.linear_acceleration.x,/imu.linear_acceleration.y". Paths that do
// not resolve leave their error in the panel.
func (l *docLink) plotPaths(paths []string) {
	g := l.plots
	if g == nil {
		return
	}
	for i, v := range paths {
		p := g.panels[len(g.panels)-1]
		if i > 0 || len(p.series) > 0 {
			p = g.addPanel()
		}
		for _, one := range strings.Split(v, ",") {
			if one = strings.TrimSpace(one); one != "" {
				g.add(p, one)
			}
		}
	}
	l.selectTab("Plots")
}
